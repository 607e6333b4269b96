import Foundation
import GRDB
import GRDBSQLite

/// The only door to the journal file: opens (creating it private to the user), migrates, and
/// offers intent methods. Thread-safe; all methods block, so call them off the GTK thread.
public final class JournalStore: JournalStoring {
    public let path: String
    private let queue: DatabaseQueue

    /// Opens the journal at `path`, creating it (folder 0700, file 0600) if it does not exist.
    ///
    /// A file that is damaged, is not a database, belongs to another program or comes from a newer
    /// Flourish is refused with a `JournalError` and left exactly as it was.
    public init(path: String) throws(JournalError) {
        self.path = path
        let created = try Self.prepareFile(at: path)
        var configuration = Configuration()
        configuration.label = "journal"
        configuration.prepareDatabase { db in
            // FULL syncs each commit, so a saved entry survives a power cut.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrate(queue, path: path)
        } catch {
            throw JournalError(error, path: path)
        }
        // Only a file now known to be a journal is made private again (one made world-readable
        // by hand or by a copy); a refused file keeps its mode.
        if !created { chmod(path, 0o600) }
    }

    private static func migrate(_ queue: DatabaseQueue, path: String) throws {
        let migrator = JournalSchema.migrator
        // The checks only read: a file Flourish must refuse is never written to. A journal is
        // either empty (new) or has Flourish's first migration recorded.
        try queue.read { db in
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
            if tables > 0 {
                let ours = try db.tableExists("grdb_migrations")
                    && migrator.appliedIdentifiers(db).contains(JournalSchema.firstMigration)
                if !ours { throw JournalError.notAJournal(path: path) }
            }
            if try migrator.hasBeenSuperseded(db) { throw JournalError.newerVersion(path: path) }
        }
        // Only now, with the file known to be ours: WAL (recorded in the file's header) lets the
        // journal list read while a save writes.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try migrator.migrate(queue)
    }

    /// Makes sure the folder exists (created 0700) and, for a new journal, creates the empty file
    /// 0600 before SQLite sees it, so the journal and its -wal and -shm companions (which copy the
    /// file's mode) are private. An existing path is only looked at: it must be a regular file.
    /// Returns whether the file was created here.
    private static func prepareFile(at path: String) throws(JournalError) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        let files = FileManager.default
        if !folder.isEmpty, !files.fileExists(atPath: folder) {
            do {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                          attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotCreateFolder(path: folder, reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
            }
        }
        var status = stat()
        if stat(path, &status) == 0 {
            // A FIFO or device would hang or mislead SQLite; a folder cannot be a journal.
            guard status.st_mode & S_IFMT == S_IFREG else { throw .notAJournal(path: path) }
            return false
        }
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // Made by someone else since the stat: treat it as the existing file it is.
            if errno == EEXIST { return false }
            let reason = String(cString: strerror(errno))
            if errno == EACCES || errno == EROFS { throw .readOnly(path: path) }
            throw .cannotOpen(path: path, reason: reason)
        }
        close(descriptor)
        return true
    }

    // MARK: - Intents

    public func save(_ entry: NewEntry, createdAt: Date = Date()) throws(JournalError) -> Entry {
        try worded {
            try queue.write { db in
                var record = EntryRecord(entry, createdAt: createdAt)
                try record.insert(db)
                guard let saved = record.entry else { throw JournalError.other(reason: tr("The saved entry could not be read back.")) }
                return saved
            }
        }
    }

    /// Saves many entries, each with its own date, in one transaction: all or none. For journals
    /// made in one go (the benchmark's sample journal; imports). Returns how many were saved.
    @discardableResult
    public func save(_ entries: [(entry: NewEntry, createdAt: Date)]) throws(JournalError) -> Int {
        try worded {
            try queue.write { db in
                for (entry, createdAt) in entries {
                    var record = EntryRecord(entry, createdAt: createdAt)
                    try record.insert(db)
                }
                return entries.count
            }
        }
    }

    public func update(id: Int64, with entry: NewEntry, updatedAt: Date) throws(JournalError) -> Entry {
        try worded {
            try queue.write { db in
                guard var record = try EntryRecord.fetchOne(db, key: id) else { throw JournalError.entryMissing }
                record.title = entry.title
                record.body = entry.body
                record.mood = entry.mood.rawValue
                record.updatedAt = updatedAt
                // Only the columns an edit changes are written: the location is never edited, and an
                // untouched date keeps its stored bytes.
                var columns = ["title", "body", "mood", "updated_at"]
                if let date = entry.date {
                    record.createdAt = date
                    columns.append("created_at")
                }
                try record.update(db, columns: columns)
                return try Self.readBack(db, id: id)
            }
        }
    }

    public func delete(id: Int64) throws(JournalError) -> DeletedEntry {
        try worded {
            try queue.write { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id]),
                      let entry = try EntryRecord(row: row).entry else { throw JournalError.entryMissing }
                let stored = Dictionary(uniqueKeysWithValues: zip(row.columnNames, row.databaseValues))
                try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [id])
                return DeletedEntry(entry: entry, storedRow: stored)
            }
        }
    }

    public func restore(_ deleted: DeletedEntry) throws(JournalError) -> Entry {
        try worded {
            try queue.write { db in
                let columns = deleted.storedRow.keys.sorted()
                let names = columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")
                let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                try db.execute(sql: "INSERT INTO entry (\(names)) VALUES (\(marks))",
                               arguments: StatementArguments(columns.map { deleted.storedRow[$0] ?? .null }))
                return try Self.readBack(db, id: deleted.entry.id)
            }
        }
    }

    public func entryIDs() throws(JournalError) -> [Int64] {
        try worded {
            try queue.read { db in
                // Stepped by hand: for every entry of the journal, GRDB's generic decoding of each
                // row costs more than SQLite reading it (a quarter of a 100,000-entry start-up).
                let statement = try db.makeStatement(sql: "SELECT id FROM entry ORDER BY created_at DESC, id DESC")
                let handle = statement.sqliteStatement
                var ids: [Int64] = []
                while true {
                    switch sqlite3_step(handle) {
                    case SQLITE_ROW: ids.append(sqlite3_column_int64(handle, 0))
                    case SQLITE_DONE: return ids
                    case let code: throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                    }
                }
            }
        }
    }

    public func entries(ids: [Int64]) throws(JournalError) -> [Entry] {
        guard !ids.isEmpty else { return [] }
        return try worded {
            try queue.read { db in try EntryRecord.fetchAll(db, keys: ids).compactMap(\.entry) }
        }
    }

    public func position(of id: Int64) throws(JournalError) -> Int? {
        try worded {
            try queue.read { db in
                guard try EntryRecord.exists(db, key: id) else { return nil }
                // Counts the entries that come before it in the list's order, along the date index.
                return try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM entry
                    WHERE (created_at, id) > (SELECT created_at, id FROM entry WHERE id = ?)
                    """, arguments: [id])
            }
        }
    }

    /// The entry with `id` as stored, inside the transaction that just wrote it.
    private static func readBack(_ db: Database, id: Int64) throws -> Entry {
        guard let entry = try EntryRecord.fetchOne(db, key: id)?.entry else {
            throw JournalError.other(reason: tr("The saved entry could not be read back."))
        }
        return entry
    }

    /// How many entries the journal holds.
    public func count() throws(JournalError) -> Int {
        try worded { try queue.read { db in try EntryRecord.fetchCount(db) } }
    }

    /// Runs `work`, turning SQLite's errors into the person's terms.
    private func worded<T>(_ work: () throws -> T) throws(JournalError) -> T {
        do {
            return try work()
        } catch {
            throw JournalError(error, path: path)
        }
    }

    /// The SQLite settings in force, for tests and diagnostics.
    public func pragma(_ name: String) throws -> String? {
        try queue.read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }
}
