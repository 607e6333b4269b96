import Foundation
import GRDB

/// Whether the journal has an entry for a day, read through a read-only connection: the
/// reminder asks from the background service, which keeps no journal open, and must never
/// create, upgrade or lock the file to ask.
public enum JournalDay {
    /// An entry dated from `start` (inclusive) to `end` (exclusive): a day, from local midnight
    /// to the next. A journal not made yet has none; nil when it could not be read now (busy,
    /// or being written), for the caller to ask again rather than guess.
    public static func hasEntry(journal path: String, from start: Date, to end: Date) -> Bool? {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        // A locked journal cannot be read without its key: the time of its newest entry, kept
        // beside it, tells whether the day is written.
        if JournalLock.isLocked(path) {
            guard let newest = NewestDay.read(journal: JournalFile.resolve(path)) else { return false }
            return newest >= start && newest < end
        }
        guard let queue = readOnly(path) else { return nil }
        defer { try? queue.close() }
        // The stored text sorts as time does (see `ExportedTime.stored`), through the date index.
        // No row is "not written" (false), inside the read: `try?` flattens optionals, and a
        // nil from the row let out of it would read as "could not read" and be asked again
        // for ever, so a journal without today's entry was never reminded.
        return try? queue.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM entry WHERE created_at >= ? AND created_at < ? LIMIT 1",
                              arguments: [ExportedTime(start).stored, ExportedTime(end).stored]) ?? false
        }
    }

    /// The journal, for reading only; nil when it cannot be opened now.
    private static func readOnly(_ path: String) -> DatabaseQueue? {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "journal (reminder)"
        configuration.busyMode = .timeout(2)
        return try? DatabaseQueue(path: path, configuration: configuration)
    }

    /// For the reminder: the oldest memory of `now`'s day (see `JournalStore.memories`) that has
    /// a title, with how many years ago it was written. Only a title, never an entry's words;
    /// and nothing of a locked journal, whose entries stay sealed while no one unlocks it.
    public static func oldestMemory(journal path: String, on now: Date, calendar: Calendar) -> (yearsAgo: Int, title: String)? {
        guard FileManager.default.fileExists(atPath: path), !JournalLock.isLocked(path),
              let queue = readOnly(path) else { return nil }
        defer { try? queue.close() }
        return try? queue.read { db -> (Int, String)? in
            for (yearsAgo, id) in try JournalStore.memoryIDs(db, on: now, calendar: calendar).reversed() {
                if let title = try String.fetchOne(db, sql: "SELECT title FROM entry WHERE id = ?", arguments: [id]), !title.isEmpty {
                    return (yearsAgo, title.preview(limit: Memory.titleLimit))
                }
            }
            return nil
        }
    }

    /// Whether the journal has an entry for the day `now` falls on, in `calendar`.
    public static func hasEntry(journal path: String, on now: Date, calendar: Calendar) -> Bool? {
        let start = calendar.startOfDay(for: now)
        guard let end = calendar.date(byAdding: .day, value: 1, to: start) else { return nil }
        return hasEntry(journal: path, from: start, to: end)
    }
}
