import GtkKit

/// The controls of Flourish's New Entry screen, as the window first shows them (eight tags, two
/// number measures and a 1–5 one), made straight from GtkKit: no journal, no controllers, no
/// strings looked up. Set beside Flourish's start-up, it says how much of it is GTK's own work
/// for what the screen shows, and how much is Flourish's. Keep it in step with the form: a
/// control added there belongs here too.
@MainActor
enum NewEntryScreen {
    static func build(in window: Window) {
        // As Flourish's window: no transitions until it first has the keyboard (flourish.css).
        Style.install(css: "window.appearing, window.appearing * { transition: none; }")
        window.title = "Flourish"
        window.setDefaultSize(width: 720, height: 640)

        let content = Box(.vertical, spacing: 6)
        content.setMargins(24)
        let title = TextEntry()
        title.placeholder = "What is today about?"
        content.append(heading("Title"))
        content.append(title)

        let moodRow = Box(.horizontal, spacing: 12)
        for widget in [heading("I’m feeling"), Button("select"), heading("Date"), Button("Now")] as [Widget] { moodRow.append(widget) }
        content.append(moodRow)

        let tags = FlowBox()
        // The tags a new journal starts with (Tag.swift).
        for name in ["exercise", "family", "friends", "good sleep", "music", "outdoors", "reading", "work"] {
            tags.append(ToggleButton(name))
        }
        let newTag = TextEntry()
        newTag.placeholder = "Add tag"
        content.append(heading("Tags"))
        content.append(tags)
        content.append(row([newTag, Button("Add")], spacing: 6))

        let sleep = TextEntry()
        sleep.placeholder = "hours, 0–24"
        let energy = Box(.horizontal)
        for step in 1...5 { energy.append(ToggleButton("\(step)")) }
        let measures = FlowBox()
        measures.append(row([Label("Sleep"), sleep], spacing: 6))
        measures.append(row([Label("Energy"), energy], spacing: 6))
        measures.append(row([Label("Steps"), TextEntry()], spacing: 6))
        content.append(heading("Measures"))
        content.append(measures)

        let body = ScrolledWindow(TextView())
        body.setMinContentHeight(160)
        body.expand(vertically: true)
        content.append(heading("Body"))
        content.append(body)
        content.append(row([Button("Add Photo…")], spacing: 12))
        content.append(row([Label("Add my location"), Switch(), Button("Save Entry")], spacing: 12))

        let form = ScrolledWindow()
        form.setChild(content)
        let pages = Stack()
        pages.addPage(form, name: "new-entry", title: "New Entry")
        pages.addPage(Box(.vertical), name: "journal", title: "Journal")
        pages.addPage(Box(.vertical), name: "insights", title: "Insights")
        let header = HeaderBar()
        header.setTitleWidget(StackSwitcher(stack: pages))
        header.packEnd(MenuButton(iconName: "open-menu-symbolic", accessibleName: "Main Menu", items: [("Tags", "win.tags")]))
        window.setTitlebar(header)
        window.setChild(pages)
        window.addClass("appearing")
        window.onFirstActive { window.afterNextPaint { window.removeClass("appearing") } }
        _ = title.grabFocus()
    }

    private static func heading(_ text: String) -> Label {
        let label = Label(text)
        label.alignStart()
        return label
    }

    private static func row(_ widgets: [Widget], spacing: Int32) -> Box {
        let box = Box(.horizontal, spacing: spacing)
        for widget in widgets { box.append(widget) }
        return box
    }
}
