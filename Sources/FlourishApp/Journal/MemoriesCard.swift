import FlourishCore
import Foundation
import GtkKit

/// "On this day", above the journal: a line for each earlier year with an entry on today's
/// date ("1 year ago · feeling really good · First snow"), each opening its entry. Closed, it
/// stays closed until the next day; with nothing to remember, it is not there at all.
@MainActor
final class MemoriesCard {
    let view = Box(.vertical, spacing: 4, groupNamed: tr("On this day"))
    let closeButton = Button(iconName: "window-close-symbolic", accessibleName: tr("Close today's memories"))
    private let lines = Box(.vertical, spacing: 2)
    /// The lines scroll past about five of them: a journal kept for twenty years has twenty
    /// memories on most days, and the card must leave the window to the journal below it.
    let linesScroll: ScrolledWindow
    static let linesMaxHeight: Int32 = 180
    /// The memories shown, in order; empty while the card is hidden.
    private(set) var memories: [Memory] = []
    /// The buttons, one a memory shown, for tests.
    private(set) var buttons: [Button] = []
    /// The lines made at first: twenty years of memories. The rest wait behind "Show 12 more
    /// years": the sample journal of 100,000 entries (back to 1807) has 219 memories on most
    /// days, and their lines were 3 MiB of the window's memory, for a card that shows five.
    static let linesAtFirst = 20
    /// "Show 12 more years", after the first lines when there are more.
    private(set) var moreButton: Button?
    /// Told when a memory is activated.
    var onOpen: (@MainActor (Entry) -> Void)?
    /// Told when the card is closed from its own button: the focus has to go somewhere.
    var onClosed: (@MainActor () -> Void)?

    private let model: JournalModel
    private let preferences: Preferences
    /// Counts look-ups, so that an answer overtaken by a newer question is dropped.
    private var generation = 0
    /// The day last looked up ("2026-11-27"), and the timer that looks again once it is over:
    /// a window left open overnight shows the new day's memories, not yesterday's.
    private var lookedUpDay: String?
    private var nextDayTimer: UInt32 = 0
    /// The longest wait between two looks at the day. GLib's timers count only the time the
    /// machine is awake, so a laptop asleep over midnight would otherwise wait on past it.
    static let longestWaitSeconds: UInt32 = 3_600

    init(model: JournalModel, preferences: Preferences) {
        self.model = model
        self.preferences = preferences
        linesScroll = ScrolledWindow(lines)
        linesScroll.setMaxContentHeight(Self.linesMaxHeight)
        view.addClass("memories")
        let header = Box(.horizontal, spacing: 8)
        let title = Label(tr("On this day"))
        title.addClass("memories-title")
        title.alignStart()
        title.expand(horizontally: true)
        // The group is named by it already.
        title.setAccessibleHidden(true)
        header.append(title)
        closeButton.hasFrame = false
        closeButton.tooltip = tr("Close until tomorrow")
        header.append(closeButton)
        view.append(header)
        view.append(linesScroll)
        view.isVisible = false
        closeButton.onClicked { [unowned self] in
            preferences.memoriesDismissedDay = Self.dayKey(model.today)
            show([])
            onClosed?()
        }
    }

    /// Looks today's memories up again (after the first frame, and whenever entries change).
    func refresh() {
        generation += 1
        let asked = generation
        let today = model.today
        lookedUpDay = Self.dayKey(today)
        lookAgain(after: today)
        preferences.reload()
        guard preferences.memoriesDismissedDay != lookedUpDay else { return show([]) }
        model.memories { [weak self] result in
            guard let self, asked == generation else { return }
            // A journal that cannot be read now says so elsewhere; the card simply stays away.
            show((try? result.get()) ?? [])
        }
    }

    /// Looks again when the day `now` falls on is over (or within the hour, whichever is first).
    private func lookAgain(after now: Date) {
        MainLoop.cancel(nextDayTimer)
        let calendar = Calendar.current
        let midnight = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now
        let seconds = UInt32(clamping: max(1, Int(midnight.timeIntervalSince(now).rounded(.up))))
        nextDayTimer = MainLoop.after(seconds: min(seconds, Self.longestWaitSeconds)) { [weak self] in
            guard let self else { return }
            nextDayTimer = 0
            let today = model.today
            if Self.dayKey(today) != lookedUpDay { refresh() } else { lookAgain(after: today) }
        }
    }

    private func show(_ memories: [Memory]) {
        guard memories != self.memories else { return }
        self.memories = memories
        lines.removeAll()
        buttons = []
        moreButton = nil
        addLines(for: memories.prefix(Self.linesAtFirst))
        let rest = memories.dropFirst(Self.linesAtFirst)
        if !rest.isEmpty {
            let words = rest.count == 1 ? tr("Show 1 more year") : String(format: tr("Show %@ more years"), rest.count.formatted())
            let more = Self.flatButton(saying: words, wrapping: false)
            more.addClass("memories-more")
            more.onClicked { [unowned self, unowned more] in
                lines.remove(more)
                moreButton = nil
                addLines(for: rest)
                // The keyboard stays where the button was: on the first of the new lines.
                buttons[Self.linesAtFirst].grabFocus()
            }
            lines.append(more)
            moreButton = more
        }
        view.isVisible = !memories.isEmpty
    }

    private func addLines<Memories: Sequence>(for memories: Memories) where Memories.Element == Memory {
        buttons += memories.map { memory in
            let button = Self.flatButton(saying: Self.line(memory), wrapping: true)
            button.addClass("memory")
            button.addClass(memory.mood.map(Theme.moodClass) ?? Theme.noMoodClass)
            button.onClicked { [unowned self] in onOpen?(memory.entry) }
            lines.append(button)
            return button
        }
    }

    /// A button without a frame showing `words` from the line's start, named by them for a
    /// screen reader: a memory's line, or the one that shows the earlier years.
    private static func flatButton(saying words: String, wrapping: Bool) -> Button {
        let button = Button(accessibleName: words)
        let label = Label(words)
        label.alignStart()
        if wrapping { label.enableWrapping() }
        button.setChild(label)
        button.hasFrame = false
        return button
    }

    /// "1 year ago · feeling really good · First snow".
    static func line(_ memory: Memory) -> String {
        let feeling = memory.mood.map { String(format: tr("%@ · feeling %@"), yearsAgo(memory.yearsAgo), $0.title) }
            ?? String(format: tr("%@ · no mood"), yearsAgo(memory.yearsAgo))
        return memory.title.isEmpty ? feeling : feeling + " · " + memory.title
    }

    /// "1 year ago", "3 years ago".
    static func yearsAgo(_ years: Int) -> String {
        years == 1 ? tr("1 year ago") : String(format: tr("%@ years ago"), years.formatted())
    }

    /// The local day of `date`, as the preference keeps it: "2026-11-27".
    static func dayKey(_ date: Date) -> String {
        let day = Insights.Day(date)
        return String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
    }
}
