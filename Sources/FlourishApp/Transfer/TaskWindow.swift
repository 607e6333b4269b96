import GtkKit

/// A small window of the main one's for one task (Export, Import): its title in a header bar,
/// kept above the main window and gone with it, a column of content, and the task's buttons at
/// the end, the last one the suggested action.
@MainActor
enum TaskWindow {
    /// With `scrollsPast`, a content taller than that scrolls (Preferences, whose sections do
    /// not all fit a small screen).
    static func make(application: Application, parent: Window, title: String, width: Int32,
                     scrollsPast height: Int32? = nil) -> (window: Window, content: Box) {
        let window = Window(application: application)
        window.title = title
        window.setTransient(for: parent)
        window.setTitlebar(HeaderBar())
        window.setDefaultSize(width: width, height: -1)
        let content = Box(.vertical, spacing: 10)
        content.setMargins(18)
        if let height {
            let scroller = ScrolledWindow(content)
            scroller.setMaxContentHeight(height)
            window.setChild(scroller)
        } else {
            window.setChild(content)
        }
        return (window, content)
    }

    /// The row of buttons at the end of a task window's content; Escape presses the first
    /// (Cancel).
    static func buttons(_ buttons: [Button], in content: Box, of window: Window) {
        let row = Box(.horizontal, spacing: 8)
        row.align(horizontal: .end)
        row.setMargins(top: 8)
        buttons.last?.addClass("suggested-action")
        for button in buttons { row.append(button) }
        content.append(row)
        window.onKeyPressed { [weak cancel = buttons.first] key, _ in
            guard key == .escape, let cancel else { return false }
            cancel.click()
            return true
        }
    }
}
