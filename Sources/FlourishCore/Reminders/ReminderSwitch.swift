import Foundation

/// Turning the daily reminder on or off, the same from the Preferences window and from
/// `flourish --remind`: the choice is remembered, and the login item that keeps reminders
/// coming while Flourish is closed is installed or removed with it. A running Flourish hears of
/// the change through its preferences file.
public enum ReminderSwitch {
    /// The preferences file could not be written: nothing was turned on or off.
    public struct NotSaved: Error, LocalizedError {
        public let path: String
        public var errorDescription: String? { String(format: tr("the preferences at %@ could not be written"), path) }
    }

    /// On, at `time`, set at `now`. When the login item cannot be written, the choice is kept
    /// (reminders then come while Flourish runs) and the failure thrown for the caller to say.
    public static func turnOn(at time: ReminderTime, preferences: Preferences, loginItem: LoginItem,
                              command: String = LoginItem.command(), now: Date = Date()) throws {
        guard preferences.saveReminder(on: true, time: time, setAt: now) else { throw NotSaved(path: preferences.path) }
        try loginItem.install(command: command, name: "Flourish", comment: tr("Reminds you to write in your journal"))
    }

    /// Off; `time`, when given, is remembered for next time.
    public static func turnOff(preferences: Preferences, loginItem: LoginItem, keeping time: ReminderTime? = nil, now: Date = Date()) throws {
        guard preferences.saveReminder(on: false, time: time, setAt: now) else { throw NotSaved(path: preferences.path) }
        try loginItem.remove()
    }

    /// What is set now, in a sentence: "Daily reminder at 20:00." or "Daily reminder off."
    public static func summary(_ preferences: Preferences) -> String {
        preferences.reminderOn ? String(format: tr("Daily reminder at %@."), preferences.reminderTime.description) : tr("Daily reminder off.")
    }
}
