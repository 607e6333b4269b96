import Foundation
import GRDB

/// Rolling backups in `backups/` beside the journal: one a day at most, written when Flourish
/// starts (after the journal passed its health check), keeping the last 7 daily backups and one
/// for each of the 4 weeks before. Each is a whole, compacted copy made by SQLite's
/// `VACUUM INTO`, private (0600, folder 0700) from its first byte.
public struct JournalBackups: Sendable {
    /// The journal's file (symbolic links followed).
    public let journal: String
    public static let dailyKept = 7
    public static let weeklyKept = 4

    public init(journal: String) {
        self.journal = JournalFile.resolve(journal)
    }

    public var folder: String {
        ((journal as NSString).deletingLastPathComponent as NSString).appendingPathComponent("backups")
    }

    private var stem: String { ((journal as NSString).lastPathComponent as NSString).deletingPathExtension }

    /// "journal-2026-11-22.sqlite" (the person's own day): sorts by date, and says which day it holds.
    func name(for day: Date) -> String { "\(stem)-\(Self.dayFormatter.string(from: day)).sqlite" }

    /// The backups there are, newest first, with the day each was made.
    public func list() -> [(path: String, day: Date)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name -> (String, Date)? in
            guard name.hasPrefix(stem + "-"), name.hasSuffix(".sqlite") else { return nil }
            let day = String(name.dropFirst(stem.count + 1).dropLast(".sqlite".count))
            guard let date = Self.dayFormatter.date(from: day) else { return nil }
            return ((folder as NSString).appendingPathComponent(name), date)
        }.sorted { $0.1 > $1.1 }
    }

    /// Writes today's backup if there is none yet (and the journal has entries), then lets go of
    /// those past the rule.
    /// Returns the new backup's path, or nil when today's was already there.
    @discardableResult
    public func backUpIfDue(from store: JournalStore, now: Date = Date()) throws -> String? {
        let target = (folder as NSString).appendingPathComponent(name(for: now))
        // Nothing to keep yet in a journal without entries.
        guard !FileManager.default.fileExists(atPath: target), try store.count() > 0 else { return nil }
        try write(from: store, to: target)
        prune(now: now)
        return target
    }

    /// A whole copy of the journal at `target` (which must not exist), written beside it under a
    /// temporary name and renamed into place once complete: a backup is never half a file.
    public func write(from store: JournalStore, to target: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(folder, 0o700)
        let partial = target + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        do {
            // A locked journal's backups are sealed with its key; its key file has a copy here.
            if store.cipher != nil, let lockFile = try? LockFile.read(JournalLock.keyFile(of: store.file), journal: store.path) {
                try JournalLock.writeBackupKeyFile(lockFile, of: store.file)
            }
            try store.vacuum(intoNewFile: partial)
            guard rename(partial, target) == 0 else {
                throw JournalError.cannotOpen(path: target, reason: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
    }

    /// Keeps the newest `dailyKept` backups, and the newest backup of each of the
    /// `weeklyKept` weeks before them; removes the rest.
    func prune(now: Date) {
        let backups = list()
        var keep = Set(backups.prefix(Self.dailyKept).map(\.path))
        var weeks: [Int] = []
        for backup in backups.dropFirst(Self.dailyKept) {
            let week = Self.weekNumber(backup.day)
            guard !weeks.contains(week) else { continue }
            guard weeks.count < Self.weeklyKept else { break }
            weeks.append(week)
            keep.insert(backup.path)
        }
        for backup in backups where !keep.contains(backup.path) {
            try? FileManager.default.removeItem(atPath: backup.path)
        }
    }

    /// The ISO week as one number (year × 100 + week), for grouping backups by week.
    private static func weekNumber(_ day: Date) -> Int {
        let calendar = Calendar(identifier: .iso8601)
        let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: day)
        return (parts.yearForWeekOfYear ?? 0) * 100 + (parts.weekOfYear ?? 0)
    }

    // Formatting only ever happens through this one configured value, never mutated after.
    nonisolated(unsafe) private static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()
}
