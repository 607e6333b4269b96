import FlourishCore
import Foundation
import GtkKit

/// The daily reminder, in whichever process holds the application's id: the window's, or the
/// background service the login item starts. While reminders are on it keeps the application
/// running with no window, looks at the rules (`ReminderRules`) when a timer is due, when the
/// computer wakes and when the preferences change (the Preferences window, or `flourish
/// --remind` in another process), and shows or withdraws the notification.
@MainActor
final class ReminderService {
    static let notificationID = "daily-reminder"
    /// The notification's actions (`app.…`).
    static let writeAction = "reminder-write"
    static let laterAction = "reminder-later"
    /// The longest a timer waits before the rules are looked at again: a change of time zone
    /// or of the clock is then caught within the hour, at the cost of one wake-up an hour.
    static let longestWait: UInt32 = 3_600

    private let application: Application
    private let preferences: Preferences
    private let journalPath: String
    private let applicationID: String
    var rules = ReminderRules()
    /// The clock; tests move it.
    var now: () -> Date = Date.init
    private var timer: UInt32 = 0
    private var isHolding = false
    private var preferencesWatch: FileWatch?
    private var journalWatches: [FileWatch] = []
    private var sleepWatch: SleepWatch?
    /// Whether the rules follow the system's time zone as it changes (not in tests, which set
    /// their own calendar).
    var followsSystemTimeZone = true
    /// Whether a reminder is on screen (sent, and neither withdrawn nor answered).
    private(set) var isShowing = false
    /// Counts looks: an answer about the journal from before a newer look is dropped.
    private var looks = 0

    init(application: Application, preferences: Preferences, journalPath: String, applicationID: String) {
        self.application = application
        self.preferences = preferences
        self.journalPath = journalPath
        self.applicationID = applicationID
    }

    /// Starts listening (after the application registered with the session bus).
    func start() {
        // The folder must exist for its file to be watched.
        try? FileManager.default.createDirectory(atPath: (preferences.path as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Only the preferences are watched while reminders are off: turning them on (here or from
        // a terminal) is all there is to hear, and start-up pays for nothing more.
        preferencesWatch = FileWatch(path: preferences.path) { [weak self] in self?.preferencesChanged() }
        preferencesChanged()
    }

    /// The preferences may have changed: reminders on or off, another time.
    func preferencesChanged() {
        preferences.reload()
        if preferences.reminderOn {
            if !isHolding {
                isHolding = true
                application.hold()
                // Entries written with no window open here (an import from a terminal, a sync in
                // another process) reach the journal file or its write-ahead log: today may be
                // written now. And timers count only time awake.
                journalWatches = [journalPath, journalPath + "-wal"].compactMap { path in
                    FileWatch(path: path) { [weak self] in self?.journalChanged() }
                }
                sleepWatch = SleepWatch { [weak self] in self?.look() }
            }
            look()
        } else {
            MainLoop.cancel(timer)
            timer = 0
            withdraw()
            if isHolding {
                isHolding = false
                journalWatches = []
                sleepWatch = nil
                application.release()
            }
        }
    }

    /// Something in the journal changed (a save, an import, an entry synced in): a reminder on
    /// screen goes once today is written.
    func journalChanged() {
        guard preferences.reminderOn else { return }
        look()
    }

    /// Later (the notification's button): again in an hour.
    func later() {
        isShowing = false
        preferences.reminderMemory = rules.later(now: now(), memory: preferences.reminderMemory)
        look()
    }

    /// Write entry (the notification, or its button): the server closed it.
    func answered() {
        isShowing = false
    }

    /// Asks the journal whether today is written (off the GTK thread), then the rules.
    func look() {
        guard preferences.reminderOn else { return }
        if followsSystemTimeZone {
            // Foundation keeps the zone it first read for the whole run: read it again, so a
            // laptop taken to another zone is reminded at its new evening.
            NSTimeZone.resetSystemTimeZone()
            rules.calendar.timeZone = TimeZone.current
        }
        looks += 1
        let (look, path, moment, calendar) = (looks, journalPath, now(), rules.calendar)
        let withMemory = preferences.memoriesInReminder
        DispatchQueue.global(qos: .utility).async {
            let written = JournalDay.hasEntry(journal: path, on: moment, calendar: calendar)
            let memory = withMemory && written == false ? JournalDay.oldestMemory(journal: path, on: moment, calendar: calendar) : nil
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard look == self.looks else { return }
                    guard let written else {
                        // Not readable just now: ask again shortly rather than remind on a guess.
                        self.arm(seconds: Self.retrySeconds)
                        return
                    }
                    self.decide(at: moment, wroteToday: written, memory: memory)
                }
            }
        }
    }

    private func decide(at moment: Date, wroteToday: Bool, memory: (yearsAgo: Int, title: String)?) {
        guard preferences.reminderOn else { return }
        let decision = rules.decide(now: moment, time: preferences.reminderTime, memory: preferences.reminderMemory, wroteToday: wroteToday)
        if decision.memory != preferences.reminderMemory { preferences.reminderMemory = decision.memory }
        if wroteToday { withdraw() }
        if decision.remindNow { show(memory: memory) }
        guard let next = decision.next else {
            MainLoop.cancel(timer)
            timer = 0
            return
        }
        arm(seconds: UInt32(clamping: max(1, Int(next.timeIntervalSince(moment).rounded(.up)))))
    }

    /// How soon to ask the journal again when it could not be read.
    static let retrySeconds: UInt32 = 30

    /// The next look in `seconds`, or within the hour.
    private func arm(seconds: UInt32) {
        MainLoop.cancel(timer)
        timer = MainLoop.after(seconds: min(seconds, Self.longestWait)) { [weak self] in
            self?.timer = 0
            self?.look()
        }
    }

    /// The reminder, with the day's oldest memory under its line when the person asked for it.
    private func show(memory: (yearsAgo: Int, title: String)?) {
        let line = tr("A minute for your journal: choose a mood, write a line.")
        let remembered = memory.map { String(format: tr("On this day, %@: %@"), MemoriesCard.yearsAgo($0.yearsAgo), $0.title) }
        application.send(DesktopNotification(
            title: tr("How are you today?"),
            body: remembered.map { line + "\n" + $0 } ?? line,
            iconName: applicationID,
            buttons: [(tr("Write entry"), Self.writeAction), (tr("Later"), Self.laterAction)],
            defaultAction: Self.writeAction), id: Self.notificationID)
        isShowing = true
    }

    private func withdraw() {
        guard isShowing else { return }
        application.withdrawNotification(id: Self.notificationID)
        isShowing = false
    }
}
