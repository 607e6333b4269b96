import FlourishCore
import Foundation
import GtkKit

/// The form's "Date" control: a button that reads "Now" (or, when editing, the entry's date)
/// until the person picks another time in its popover: a calendar, and hour and minute fields.
@MainActor
final class DatePicker {
    /// On the form; a screen reader calls it "Date" and reads its text as the description.
    let button = Button(tr("Now"))
    let popover: Popover
    /// The popover's calendar, hour and minute fields and Now button, made the first time they
    /// are needed (the popover opening): a calendar is some sixty widgets, and the New Entry form
    /// and the Edit page each have a picker that most starts never open.
    var calendar: GtkKit.Calendar { controls.calendar }
    var hour: SpinButton { controls.hour }
    var minute: SpinButton { controls.minute }
    /// Back to "Now" (or to the entry's own date when editing).
    var resetButton: Button { controls.reset }
    private struct Controls {
        let calendar: GtkKit.Calendar
        let hour: SpinButton
        let minute: SpinButton
        let reset: Button
    }
    private var made: Controls?
    private var controls: Controls { made ?? makeControls() }
    /// Where the controls go once made.
    private let content = Box(.vertical, spacing: 8)

    /// The time the person chose; nil while the button still reads its starting text.
    private(set) var date: Date?
    /// What the button reads, and the popover starts from, while nothing is chosen.
    private var original: Date?
    /// Set while the controls are filled in by code, so that doing so is not taken as a choice.
    private var filling = false
    /// Called whenever the chosen date changes.
    var onChange: (@MainActor () -> Void)?

    /// What is wrong with the date, if anything; a screen reader hears it after the button's text.
    var problem: String? {
        didSet { describe() }
    }

    init() {
        content.setMargins(6)
        popover = Popover(attachedTo: button, child: content)
        button.addClass("date-button")
        button.accessibleName = tr("Date")
        button.tooltip = tr("When this happened")
        button.onClicked { [unowned self] in open() }
        describe()
    }

    private func makeControls() -> Controls {
        let controls = Controls(calendar: GtkKit.Calendar(), hour: SpinButton(from: 0, to: 23), minute: SpinButton(from: 0, to: 59),
                                reset: Button(mnemonic: tr("_Now")))
        made = controls
        let (calendar, hour, minute, resetButton) = (controls.calendar, controls.hour, controls.minute, controls.reset)
        let timeRow = Box(.horizontal, spacing: 6)
        let hourLabel = Label()
        hourLabel.setMnemonic(tr("_Hour"), for: hour)
        let minuteLabel = Label()
        minuteLabel.setMnemonic(tr("M_inute"), for: minute)
        for widget in [hourLabel, hour, minuteLabel, minute] as [Widget] { timeRow.append(widget) }
        resetButton.expand(horizontally: true)
        resetButton.align(horizontal: .end)
        timeRow.append(resetButton)
        content.append(calendar)
        content.append(timeRow)
        calendar.setAccessibleLabel(tr("Day"))
        calendar.setAccessibleDescription(tr("Arrow keys change the day, Page Up and Page Down the month."))
        // GTK's own calendar keys move a focus ring that Space must then confirm, starting from
        // its month arrows; here the arrows change the chosen day itself, wherever the focus is
        // inside the calendar.
        calendar.onKeyPressed(beforeChildren: true) { [unowned self] key, modifiers in
            guard modifiers.meaningful.isEmpty, let step = Self.steps[key.rawValue] else { return false }
            move(by: step)
            return true
        }
        calendar.onDaySelected { [unowned self] in chooseFromControls() }
        hour.onValueChanged { [unowned self] in chooseFromControls() }
        minute.onValueChanged { [unowned self] in chooseFromControls() }
        resetButton.onClicked { [unowned self] in
            reset(to: original)
            popover.close()
            onChange?()
        }
        return controls
    }

    /// Starts over from `original`: "Now" for nil, else that date.
    func reset(to original: Date?) {
        self.original = original
        date = nil
        button.label = original.map(Self.format) ?? tr("Now")
        describe()
    }

    func open() {
        fill(from: date ?? original ?? Date())
        popover.open()
        calendar.grabFocus()
    }

    private func fill(from date: Date) {
        filling = true
        defer { filling = false }
        let parts = Foundation.Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        calendar.day = (parts.year ?? 2000, parts.month ?? 1, parts.day ?? 1)
        hour.value = parts.hour ?? 0
        minute.value = parts.minute ?? 0
    }

    /// How far each calendar key moves the chosen day.
    private static let steps: [UInt32: DateComponents] = [
        Key.left.rawValue: DateComponents(day: -1), Key.right.rawValue: DateComponents(day: 1),
        Key.up.rawValue: DateComponents(day: -7), Key.down.rawValue: DateComponents(day: 7),
        Key.pageUp.rawValue: DateComponents(month: -1), Key.pageDown.rawValue: DateComponents(month: 1),
    ]

    private func move(by step: DateComponents) {
        let day = calendar.day
        let calendarSystem = Foundation.Calendar.current
        guard let current = calendarSystem.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)),
              let moved = calendarSystem.date(byAdding: step, to: current) else { return }
        let parts = calendarSystem.dateComponents([.year, .month, .day], from: moved)
        calendar.day = (parts.year ?? day.year, parts.month ?? day.month, parts.day ?? day.day)
    }

    private func chooseFromControls() {
        guard !filling else { return }
        let day = calendar.day
        let parts = DateComponents(year: day.year, month: day.month, day: day.day, hour: hour.value, minute: minute.value)
        guard let chosen = Foundation.Calendar.current.date(from: parts) else { return }
        // Back on the entry's own minute is no change: its seconds are kept, not cut off.
        let unchanged = original.map { Self.minute(of: $0) == Self.minute(of: chosen) } ?? false
        date = unchanged ? nil : chosen
        button.label = Self.format(unchanged ? original ?? chosen : chosen)
        describe()
        onChange?()
    }

    private func describe() {
        button.setAccessibleDescription([button.label, problem].compactMap { $0 }.joined(separator: ". "))
        button.setAccessibleInvalid(problem != nil)
    }

    static func format(_ date: Date) -> String { formatter.string(from: date) }

    private static func minute(of date: Date) -> DateComponents {
        Foundation.Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    }

    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter
    }()
}
