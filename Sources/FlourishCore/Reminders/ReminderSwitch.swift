import Foundation

/// Turning the daily reminder on or off, the same from the Preferences window and from
/// `flourish --remind`: the choice is remembered, and the login item that keeps reminders
/// coming while Flourish is closed is installed or removed with it. A running Flourish hears of
/// the change through its preferences file.
public enum ReminderSwitch {
    /// On, at `time`. The choice is kept even when the login item cannot be written (reminders
    /// then come while Flourish runs); that failure is thrown for the caller to say.
    public static func turnOn(at time: ReminderTime, preferences: Preferences, loginItem: LoginItem,
                              command: String = LoginItem.command()) throws {
        preferences.reminderTime = time
        preferences.reminderOn = true
        try loginItem.install(command: command, name: "Flourish", comment: tr("Reminds you to write in your journal"))
    }

    public static func turnOff(preferences: Preferences, loginItem: LoginItem) throws {
        preferences.reminderOn = false
        try loginItem.remove()
    }

    /// What is set now, in a sentence: "Daily reminder at 20:00." or "Daily reminder off."
    public static func summary(_ preferences: Preferences) -> String {
        preferences.reminderOn ? String(format: tr("Daily reminder at %@."), preferences.reminderTime.description) : tr("Daily reminder off.")
    }
}
