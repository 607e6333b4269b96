import FlourishCore
import Foundation
import GtkKit

/// "From" or "To" beside the search: a button reading "Any day" until a day is picked in its
/// popover's calendar (the results follow as the day changes); "Clear" there goes back to any day.
@MainActor
final class DayFilter {
    let button: Button
    let popover: Popover
    /// The popover's calendar and Clear button, made when it first opens: the search has two
    /// filters, and most starts never open either.
    var calendar: GtkKit.Calendar { controls.calendar }
    var clearButton: Button { controls.clear }
    private var made: (calendar: GtkKit.Calendar, clear: Button)?
    private var controls: (calendar: GtkKit.Calendar, clear: Button) { made ?? makeControls() }
    /// Where the controls go once made.
    private let content = Box(.vertical, spacing: 8)
    /// The day chosen (its start, local time), or nil for any day.
    private(set) var day: Date?
    var onChange: (@MainActor () -> Void)?
    private var filling = false

    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
        return formatter
    }()

    /// - Parameter name: what a screen reader calls it ("From", "To").
    init(name: String) {
        button = Button(tr("Any day"))
        button.accessibleName = name
        button.addClass("day-filter")
        content.setMargins(6)
        popover = Popover(attachedTo: button, child: content)
        describe()
        button.onClicked { [unowned self] in
            filling = true
            let shown = day ?? Date()
            let parts = Foundation.Calendar.current.dateComponents([.year, .month, .day], from: shown)
            calendar.day = (parts.year ?? 2000, parts.month ?? 1, parts.day ?? 1)
            filling = false
            popover.open()
            calendar.grabFocus()
        }
    }

    private func makeControls() -> (calendar: GtkKit.Calendar, clear: Button) {
        let controls = (calendar: GtkKit.Calendar(), clear: Button(mnemonic: tr("_Clear")))
        made = controls
        let (calendar, clearButton) = controls
        content.append(calendar)
        clearButton.align(horizontal: .end)
        content.append(clearButton)
        calendar.onDaySelected { [unowned self] in
            guard !filling else { return }
            let picked = calendar.day
            // Arrow keys select days too: the filter follows, and the popover stays open until
            // Escape or a click outside.
            set(Foundation.Calendar.current.date(from: DateComponents(year: picked.year, month: picked.month, day: picked.day)))
        }
        clearButton.onClicked { [unowned self] in
            set(nil)
            popover.close()
        }
        return controls
    }

    /// Sets the day (nil: any day) and tells `onChange` if it changed.
    func set(_ newDay: Date?) {
        guard newDay != day else { return }
        day = newDay
        describe()
        onChange?()
    }

    private func describe() {
        let text = day.map(Self.formatter.string(from:)) ?? tr("Any day")
        button.label = text
        button.setAccessibleDescription(text)
    }
}
