import FlourishCore
import Foundation
import GtkKit

/// Preferences (main menu, Ctrl+,): the daily reminder, a switch and its time; the lock, a
/// switch and Change Passphrase…. Each change counts at once, as GNOME's preferences do: there
/// is nothing to apply or cancel (the lock's ask for a passphrase first, in a window of their own).
@MainActor
final class PreferencesWindow {
    let window: Window
    let reminderSwitch = Switch()
    /// "Show memories in the daily reminder": the day's oldest memory's title under its line.
    let memoriesSwitch = Switch()
    let hourField = SpinButton(from: 0, to: 23)
    let minuteField = SpinButton(from: 0, to: 59)
    /// What went wrong (the login item could not be written), in words.
    let problem = Label()
    let closeButton = Button(mnemonic: tr("_Close"))
    let lockSwitch = Switch()
    let changePassphraseButton = Button(mnemonic: tr("Change _Passphrase…"))
    let newKeyButton = Button(mnemonic: tr("New _Key…"))
    let loginSwitch = Switch()
    let idleChoice = DropDown(accessibleName: tr("Lock when idle"))
    /// Opens Preferences → Measures.
    let measuresButton = Button(mnemonic: tr("_Measures…"))
    /// Opens Preferences → Templates.
    let templatesButton = Button(mnemonic: tr("_Templates…"))
    /// The idle limits offered, in minutes; nil: never.
    static let idleChoices: [Int?] = [1, 5, 15, 30, 60, nil]
    private let idleChanged: (Int?) -> Void
    /// The lock's question, while one is open.
    private(set) var lockWindow: LockPassphraseWindow?
    private let lock: LockActions?
    private let application: Application

    private let preferences: Preferences
    private let reminders: ReminderService?
    private let loginItem: LoginItem
    /// While the fields are filled from the preferences, their signals change nothing.
    private var isFilling = false

    init(application: Application, parent: Window, preferences: Preferences, reminders: ReminderService?, loginItem: LoginItem,
         lock: LockActions? = nil, idleChanged: @escaping (Int?) -> Void = { _ in },
         showMeasures: @escaping @MainActor () -> Void = {}, showTemplates: @escaping @MainActor () -> Void = {}) {
        self.preferences = preferences
        self.idleChanged = idleChanged
        self.lock = lock
        self.application = application
        self.reminders = reminders
        self.loginItem = loginItem
        let content: Box
        (window, content) = TaskWindow.make(application: application, parent: parent, title: tr("Preferences"), width: 460, scrollsPast: 640)

        let heading = Label(tr("Daily reminder"))
        heading.addClass("heading")
        heading.alignStart()
        content.append(heading)
        reminderSwitch.setAccessibleLabel(tr("Daily reminder"))
        reminderSwitch.align(vertical: .center)
        content.append(Self.row(tr("Remind me to write each day"), spacing: 12, [reminderSwitch]))
        hourField.setAccessibleLabel(tr("Reminder hour"))
        minuteField.setAccessibleLabel(tr("Reminder minute"))
        minuteField.showsLeadingZeros()
        hourField.showsLeadingZeros()
        content.append(Self.row(tr("At"), spacing: 6, [hourField, Label(":"), minuteField]))
        memoriesSwitch.setAccessibleLabel(tr("Show memories in the daily reminder"))
        memoriesSwitch.align(vertical: .center)
        content.append(Self.row(tr("Show memories in the daily reminder"), spacing: 12, [memoriesSwitch]))

        let hint = Label(tr("A notification at this time if you have not written that day, even when Flourish is closed. Later reminds you again an hour on. With memories, it names the oldest entry of this day in earlier years, by its title alone, and never when the journal is locked."))
        hint.enableWrapping()
        hint.alignStart()
        hint.addClass("dim-label")
        content.append(hint)
        problem.enableWrapping()
        problem.alignStart()
        problem.addClass("error")
        problem.isVisible = false
        content.append(problem)
        addSection(tr("Measures"), hint: tr("Track numbers of your own beside the mood, such as hours of sleep or energy from 1 to 5."),
                   button: measuresButton, to: content, open: showMeasures)
        addSection(tr("Templates"),
                   hint: tr("Starts for the days that need one, such as three good things or an evening review, chosen from New Entry’s Template menu."),
                   button: templatesButton, to: content, open: showTemplates)
        if lock != nil { addLockSection(to: content) }
        TaskWindow.buttons([closeButton], in: content, of: window)
        closeButton.onClicked { [unowned self] in window.close() }

        fill()
        reminderSwitch.onToggled { [unowned self] in changed() }
        memoriesSwitch.onToggled { [unowned self] in
            guard !isFilling else { return }
            preferences.memoriesInReminder = memoriesSwitch.isOn
        }
        hourField.onValueChanged { [unowned self] in changed() }
        minuteField.onValueChanged { [unowned self] in changed() }
    }

    /// A section that opens a window of its own: its heading, a line saying what it is for, and
    /// the button that opens it at the end of that line.
    private func addSection(_ title: String, hint words: String, button: Button, to content: Box, open: @escaping @MainActor () -> Void) {
        let heading = Label(title)
        heading.addClass("heading")
        heading.alignStart()
        heading.setMargins(top: 12)
        content.append(heading)
        let hint = Label(words)
        hint.enableWrapping()
        hint.alignStart()
        hint.expand(horizontally: true)
        hint.addClass("dim-label")
        button.align(vertical: .center)
        let row = Box(.horizontal, spacing: 12)
        row.append(hint)
        row.append(button)
        content.append(row)
        button.onClicked { open() }
    }

    private func addLockSection(to content: Box) {
        let heading = Label(tr("Lock"))
        heading.addClass("heading")
        heading.alignStart()
        heading.setMargins(top: 12)
        content.append(heading)
        lockSwitch.setAccessibleLabel(tr("Lock journal with a passphrase"))
        lockSwitch.align(vertical: .center)
        content.append(Self.row(tr("Lock journal with a passphrase"), spacing: 12, [lockSwitch]))
        loginSwitch.setAccessibleLabel(tr("Unlock when I log in"))
        loginSwitch.align(vertical: .center)
        content.append(Self.row(tr("Unlock when I log in"), spacing: 12, [loginSwitch]))
        idleChoice.items = Self.idleChoices.map { minutes in
            guard let minutes else { return tr("Never") }
            return String(format: minutes == 1 ? tr("After %@ minute") : tr("After %@ minutes"), "\(minutes)")
        }
        content.append(Self.row(tr("Lock when idle"), spacing: 12, [idleChoice]))
        let keyButtons = Box(.horizontal, spacing: 12)
        keyButtons.append(changePassphraseButton)
        keyButtons.append(newKeyButton)
        keyButtons.align(horizontal: .start)
        content.append(keyButtons)
        let hint = Label(tr("Locked, the journal, its search index and its backups are encrypted on disk: Flourish asks for the passphrase when it starts and after Lock (Ctrl+L). With “Unlock when I log in”, the desktop’s keyring keeps the journal’s key and Flourish opens without asking while you are logged in. A forgotten passphrase cannot be recovered."))
        hint.enableWrapping()
        hint.alignStart()
        hint.addClass("dim-label")
        content.append(hint)
        lockSwitch.onToggled { [unowned self] in lockToggled() }
        idleChoice.onSelected { [unowned self] in
            guard !isFilling, let index = idleChoice.selected, Self.idleChoices.indices.contains(index) else { return }
            preferences.lockAfterIdleMinutes = Self.idleChoices[index]
            idleChanged(Self.idleChoices[index])
        }
        loginSwitch.onToggled { [unowned self] in
            guard !isFilling, let lock else { return }
            loginSwitch.isSensitive = false
            lock.setUnlocksAtLogin(loginSwitch.isOn) { [weak self] done in
                guard let self else { return }
                fill()
                problem.text = tr("The desktop’s keyring did not keep the journal’s key: Flourish asks for the passphrase when it starts.")
                problem.isVisible = !done
            }
        }
        changePassphraseButton.onClicked { [unowned self] in ask(.change) }
        newKeyButton.onClicked { [unowned self] in ask(.newKey) }
    }

    /// The switch asks first: it shows the journal's state again until the question is answered
    /// (the journal then opens anew, and so does this window).
    private func lockToggled() {
        guard !isFilling, let lock else { return }
        let wanted = lockSwitch.isOn
        isFilling = true
        lockSwitch.isOn = lock.isOn()
        isFilling = false
        guard wanted != lock.isOn() else { return }
        ask(wanted ? .turnOn : .turnOff)
    }

    private func ask(_ purpose: LockPassphraseWindow.Purpose) {
        guard let lock else { return }
        lockWindow?.window.destroy()
        let made = LockPassphraseWindow(application: application, parent: window, purpose: purpose) { current, new, done in
            switch purpose {
            case .turnOn: lock.turnOn(new, done)
            case .turnOff: lock.turnOff(current, done)
            case .change: lock.changePassphrase(current, new, done)
            case .newKey: lock.newKey(current, new, done)
            }
        }
        lockWindow = made
        made.present()
    }

    /// The lock's question goes (with this window, while this window is still there).
    func letGoOfLockWindow() {
        lockWindow?.window.destroy()
        lockWindow = nil
    }

    /// A line of the window: its words at the start, taking the room, its controls at the end.
    private static func row(_ words: String, spacing: Int32, _ controls: [Widget]) -> Box {
        let row = Box(.horizontal, spacing: spacing)
        let label = Label(words)
        label.alignStart()
        label.expand(horizontally: true)
        row.append(label)
        for control in controls { row.append(control) }
        return row
    }

    func present() {
        fill()
        window.present()
        reminderSwitch.grabFocus()
    }

    /// The fields as the preferences have them (another process may have changed them).
    private func fill() {
        preferences.reload()
        isFilling = true
        reminderSwitch.isOn = preferences.reminderOn
        memoriesSwitch.isOn = preferences.memoriesInReminder
        hourField.value = preferences.reminderTime.hour
        minuteField.value = preferences.reminderTime.minute
        if let lock {
            lockSwitch.isOn = lock.isOn()
            changePassphraseButton.isSensitive = lock.isOn()
            newKeyButton.isSensitive = lock.isOn()
            loginSwitch.isOn = lock.unlocksAtLogin()
            loginSwitch.isSensitive = lock.isOn()
            idleChoice.selected = Self.idleChoices.firstIndex(of: preferences.lockAfterIdleMinutes) ?? 1
            idleChoice.isSensitive = lock.isOn()
        }
        isFilling = false
    }

    private func changed() {
        guard !isFilling, let time = ReminderTime(hour: hourField.value, minute: minuteField.value) else { return }
        do {
            if reminderSwitch.isOn {
                try ReminderSwitch.turnOn(at: time, preferences: preferences, loginItem: loginItem)
            } else {
                try ReminderSwitch.turnOff(preferences: preferences, loginItem: loginItem, keeping: time)
            }
            problem.isVisible = false
        } catch {
            problem.text = error is ReminderSwitch.NotSaved
                ? String(format: tr("The reminder could not be changed: %@."), error.localizedDescription)
                : String(format: tr("The login item at %@ could not be changed (%@). Reminders come while Flourish runs."),
                         loginItem.path, error.localizedDescription)
            problem.isVisible = true
        }
        reminders?.preferencesChanged()
    }
}
