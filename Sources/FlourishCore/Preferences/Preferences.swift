import Foundation

/// The person's remembered choices, in `$XDG_CONFIG_HOME/flourish/preferences` (`key=value` lines,
/// private to the user). Missing or unreadable means the defaults; nothing here is precious.
public final class Preferences: @unchecked Sendable {
    public let path: String
    private var values: [String: String]
    private let lock = NSLock()

    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment,
                                   folderName: String = "flourish") -> String {
        XDGDirectory.config.file("preferences", in: folderName, environment: environment)
    }

    public init(path: String) {
        self.path = path
        values = Self.read(path)
    }

    /// Reads the file again: another process (`flourish --remind`) may have changed it.
    public func reload() {
        let values = Self.read(path)
        lock.withLock { self.values = values }
    }

    private static func read(_ path: String) -> [String: String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
            values[String(line[..<equals]).trimmingCharacters(in: .whitespaces)] =
                String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    /// Whether entries get the current location attached. Off until the person turns it on.
    public var attachLocation: Bool {
        get { lock.withLock { values["attach-location"] == "true" } }
        set { set("attach-location", newValue ? "true" : "false") }
    }

    /// The main window's size when it was last closed, if known.
    public var windowSize: (width: Int, height: Int)? {
        get {
            lock.withLock {
                guard let width = values["window-width"].flatMap(Int.init), let height = values["window-height"].flatMap(Int.init),
                      width > 0, height > 0 else { return nil }
                return (width, height)
            }
        }
        set {
            guard let newValue else { return }
            saved(["window-width": String(newValue.width), "window-height": String(newValue.height)])
        }
    }

    /// Whether the daily reminder is on. Off until the person turns it on.
    public var reminderOn: Bool {
        get { lock.withLock { values["reminder"] == "true" } }
        set { set("reminder", newValue ? "true" : "false") }
    }

    /// The daily reminder's time: 20:00 until another is chosen.
    public var reminderTime: ReminderTime {
        get { lock.withLock { values["reminder-time"].flatMap(ReminderTime.init) ?? .standard } }
        set { set("reminder-time", newValue.description) }
    }

    /// Turns the reminder on or off, at `time` when given, noting when (`setAt`): all at once,
    /// and whether it reached the file.
    public func saveReminder(on: Bool, time: ReminderTime?, setAt: Date) -> Bool {
        var changes = ["reminder": on ? "true" : "false", "reminder-set-at": String(setAt.timeIntervalSince1970)]
        if let time { changes["reminder-time"] = time.description }
        return saved(changes)
    }

    /// What the reminder's rules remember: the day it last came, a Later still to come, and
    /// when it was last set.
    public var reminderMemory: ReminderRules.Memory {
        get {
            lock.withLock {
                ReminderRules.Memory(remindedDay: values["reminded-day"].flatMap { $0.isEmpty ? nil : $0 },
                                     laterAt: values["reminder-later"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)),
                                     setAt: values["reminder-set-at"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)))
            }
        }
        set {
            saved(["reminded-day": newValue.remindedDay ?? "",
                 "reminder-later": newValue.laterAt.map { String($0.timeIntervalSince1970) } ?? ""])
        }
    }

    /// Minutes without activity after which the journal locks itself; nil: never. Five until
    /// the person chooses; a file from before this choice, or a value that makes no sense
    /// (zero, text), reads as five, so the journal never silently stops locking.
    public var lockAfterIdleMinutes: Int? {
        get {
            lock.withLock {
                switch values["lock-after-idle-minutes"] {
                case "never": return nil
                case let text?: return Int(text).flatMap { $0 >= IdleLock.shortestMinutes ? $0 : nil } ?? Self.standardLockAfterIdleMinutes
                case nil: return Self.standardLockAfterIdleMinutes
                }
            }
        }
        set { set("lock-after-idle-minutes", newValue.map(String.init) ?? "never") }
    }

    /// The idle limit until the person chooses another.
    public static let standardLockAfterIdleMinutes = 5

    /// Whether the daily reminder names the oldest memory of the day (its title only). Off
    /// until the person turns it on.
    public var memoriesInReminder: Bool {
        get { lock.withLock { values["reminder-memories"] == "true" } }
        set { set("reminder-memories", newValue ? "true" : "false") }
    }

    /// The day ("2026-11-27", local) the "On this day" card was last closed: it stays closed
    /// until another day.
    public var memoriesDismissedDay: String? {
        get { lock.withLock { values["memories-dismissed-day"].flatMap { $0.isEmpty ? nil : $0 } } }
        set { set("memories-dismissed-day", newValue ?? "") }
    }

    public var windowMaximized: Bool {
        get { lock.withLock { values["window-maximized"] == "true" } }
        set { set("window-maximized", newValue ? "true" : "false") }
    }

    private func set(_ key: String, _ value: String) {
        saved([key: value])
    }

    /// Writes `changes` and returns whether they reached the file. The file is read again first,
    /// under a lock shared with other processes, and only `changes` are changed in it: another
    /// Flourish (a window on another journal, `--remind`, the reminder service) may have
    /// written other keys since this one read it, and they must not be put back as they were.
    @discardableResult
    func saved(_ changes: [String: String]) -> Bool {
        // Under the lock, so two writers in this process cannot rename an older file over a newer one.
        lock.withLock {
            let folder = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            let lockFile = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            defer { if lockFile >= 0 { close(lockFile) } }
            if lockFile >= 0 { flock(lockFile, LOCK_EX) }
            var current = Self.read(path)
            current.merge(changes) { _, new in new }
            values = current
            let text = current.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)\n" }.joined()
            // Best effort for the window's choices: one that cannot be written only means asking
            // again next time. Callers that must know (the reminder) check the answer.
            guard FileManager.default.createFile(atPath: path + ".new", contents: Data(text.utf8),
                                                 attributes: [.posixPermissions: 0o600]) else { return false }
            return rename(path + ".new", path) == 0
        }
    }
}
