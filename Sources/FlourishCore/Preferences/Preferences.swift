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
            set(["window-width": String(newValue.width), "window-height": String(newValue.height)])
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

    /// What the reminder's rules remember: the day it last came, and a Later still to come.
    public var reminderMemory: ReminderRules.Memory {
        get {
            lock.withLock {
                ReminderRules.Memory(remindedDay: values["reminded-day"].flatMap { $0.isEmpty ? nil : $0 },
                                     laterAt: values["reminder-later"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)))
            }
        }
        set {
            set(["reminded-day": newValue.remindedDay ?? "",
                 "reminder-later": newValue.laterAt.map { String($0.timeIntervalSince1970) } ?? ""])
        }
    }

    public var windowMaximized: Bool {
        get { lock.withLock { values["window-maximized"] == "true" } }
        set { set("window-maximized", newValue ? "true" : "false") }
    }

    private func set(_ key: String, _ value: String) {
        set([key: value])
    }

    private func set(_ changes: [String: String]) {
        // Under the lock, so two writers cannot rename an older snapshot over a newer one.
        lock.withLock {
            values.merge(changes) { _, new in new }
            let text = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)\n" }.joined()
            // Best effort: a preference that cannot be written only means asking again next time.
            let folder = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            if FileManager.default.createFile(atPath: path + ".new", contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) {
                _ = rename(path + ".new", path)
            }
        }
    }
}
