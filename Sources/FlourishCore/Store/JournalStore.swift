import Foundation
import GRDB
import GRDBSQLite

/// The only door to the journal file: opens (creating it private to the user), checks, migrates,
/// and offers intent methods. Thread-safe; all methods block, so call them off the GTK thread.
///
/// An existing journal opens for reading only, through a connection that writes nothing (not
/// even side files). Before the first write, `check()` runs SQLite's `quick_check` over the whole
/// file: a healthy journal is then made private (0600, with its -wal and -shm) and opened for
/// writing; a damaged one stays readable and is never written.
public final class JournalStore: JournalStoring, @unchecked Sendable {
    /// The journal's path as the person gave it (named in every message).
    public let path: String
    /// The file SQLite opens: `path` with symbolic links followed.
    public let file: String
    /// A locked journal's key, through which every connection reads and writes; nil for a plain one.
    public let cipher: JournalCipher?
    /// Files found beside a locked journal that Flourish never writes for one, moved out of
    /// SQLite's way unread (now or at an earlier opening) and kept: to be said to the person.
    public let setAside: [SetAsideFiles.Kept]

    private let lock = NSLock()
    /// Held shared by every use of the connections, exclusively by `close()`.
    private let inUse = InUseLock()
    /// Opened by a conversion, which holds the folder's lock (see `init`).
    private let withinConversion: Bool
    /// Whether this opening finished a New Key… cut short: its recovery key may never have been
    /// shown, and the window (or command) makes and shows a new one
    /// (`JournalLock.renewRecoveryKey`).
    public let finishedNewKey: Bool
    /// Closed: every use after it fails with `.closed` (a reader of an earlier window, say).
    private var isClosed = false
    /// Reads go here: the read-only connection until the check, then the writer.
    private var reader: DatabaseQueue
    private var writer: DatabaseQueue?
    private var health: JournalHealth?
    /// Writes made through this store: with SQLite's data_version (others' writes), what tells
    /// cached figures they are stale.
    private var writes = 0
    /// Insights' figures already computed, by period, day, time zone and journal version.
    private var insightsCache: [InsightsKey: Insights] = [:]
    /// Opens another connection like the reader, for the check: a check reads every page, and
    /// the list's reads must not queue behind it.
    private var openChecker: @Sendable () throws -> DatabaseQueue = { throw JournalError.busy }
    /// Held for the whole check, so that a save arriving meanwhile waits for its verdict.
    private let checking = NSLock()
    /// A locked journal's hint for the reminder (`NewestDay`), kept after each write; nil for a
    /// plain journal, which the reminder reads itself.
    private let newestDay: NewestDayKeeper?

    /// Opens the journal at `path`, creating it (folder 0700, file 0600) if it does not exist.
    ///
    /// A file that is not a database, belongs to another program or comes from a newer Flourish
    /// is refused with a `JournalError` and left exactly as it was, side files included.
    ///
    /// A locked journal opens only with its `cipher` (`JournalLock.unlock`); without, `.locked`.
    /// A new journal made with a cipher is locked from its first page.
    public convenience init(path: String, cipher: JournalCipher? = nil) throws(JournalError) {
        try self.init(path: path, cipher: cipher, evenHalfLocked: false)
    }

    /// `evenHalfLocked`: for finishing a lock cut short, which opens the plain journal its key
    /// file is beside (see `JournalError.halfLocked`). `withinConversion`: the store a conversion
    /// opens (`JournalLock.convert`), which holds the folder's lock already; otherwise a locked
    /// journal sealed in an earlier page format is rewritten in today's before anything is
    /// written to it (`inspect`), and connections open holding the folder's lock shared.
    init(path: String, cipher: JournalCipher?, evenHalfLocked: Bool, withinConversion: Bool = false) throws(JournalError) {
        self.path = path
        self.cipher = cipher
        self.withinConversion = withinConversion
        let file = JournalFile.resolve(path)
        self.file = file
        let newestDay = cipher.map { _ in NewestDayKeeper(journal: file) }
        self.newestDay = newestDay
        // Never opened (nor made) in the clear beside a key file: the person says which it is.
        if cipher == nil, !evenHalfLocked, JournalLock.isHalfLocked(path) { throw .halfLocked(path: path) }
        // A New Key… cut short is finished first: the journal (and its side files) may still be
        // sealed under the key it replaced.
        finishedNewKey = try cipher.flatMap { cipher throws(JournalError) in
            withinConversion ? nil : try JournalLock.finishNewKey(file, shownAs: path, cipher: cipher)
        }?.isDone ?? false
        // Before SQLite looks at the file: it would play a rollback journal back into it.
        if let cipher {
            setAside = try SetAsideFiles.setAside(beside: file, shownAs: path, cipher: cipher, holdingFolderLock: withinConversion)
        } else {
            setAside = []
        }
        let (opening, created, kind, inspected) = try Self.inspect(file, shownAs: path, cipher: cipher, withinConversion: withinConversion)
        defer { opening?.release() }
        do {
            switch kind {
            case .new:
                // Nothing in it to check. An empty file may have come with any mode: private first.
                if !created { chmod(file, 0o600) }
                let writer = try Self.openForWriting(file, cipher: cipher, newestDay: newestDay)
                reader = writer
                self.writer = writer
                health = .healthy
            case .journal(let needsMigration):
                // After a crash the -wal holds the latest saves: read through it (read-only, but
                // not immutable). Otherwise the main file is the whole journal.
                let file = file
                let open: @Sendable () throws -> DatabaseQueue
                if JournalFile.size(of: file + "-wal") > 0 {
                    open = { try Self.openReadOnly(file, cipher: cipher) }
                } else {
                    open = { try JournalFile.immutable(file, cipher: cipher) }
                }
                openChecker = open
                reader = try inspected ?? open()
                if needsMigration {
                    // An upgrade rewrites the journal, and the rows read need the new schema: check
                    // and migrate now (once per release that adds a migration).
                    if case .healthy = check(), writer == nil { try promote() }
                }
            }
        } catch {
            throw JournalError(error, path: path)
        }
    }

    /// Takes the folder's lock shared (see `openingLock`), makes the journal's file if there is
    /// none, and looks at it (`JournalFile.inspect`).
    ///
    /// A locked journal sealed in an earlier page format is then rewritten in today's
    /// (`JournalLock.upgradeFormat`, which takes the lock exclusively) and looked at again: before
    /// anything is written to it, as a write would be in the old format too. Not rewritten
    /// (Flourish has it open elsewhere, say), it opens as it is, and is rewritten next time. The
    /// format is asked of the connection that looked, whose VFS opened page 1, so that an opening
    /// reads page 1 no more times for it.
    private static func inspect(_ file: String, shownAs path: String, cipher: JournalCipher?, withinConversion: Bool)
        throws(JournalError) -> (JournalFolderLock.Held?, created: Bool, JournalFile.Kind, DatabaseQueue?) {
        let opening = openingLock(file, withinConversion: withinConversion)
        let created = try JournalFile.prepare(file, shownAs: path)
        let (kind, inspected) = created ? (JournalFile.Kind.new, nil) : try JournalFile.inspect(file, shownAs: path, cipher: cipher)
        guard let cipher, !withinConversion, case .journal = kind,
              let format = inspected.flatMap(JournalCipher.format(of:)) ?? cipher.format(of: file),
              format > 0, format < JournalCipher.format else {
            return (opening, created, kind, inspected)
        }
        try? inspected?.close()
        opening?.release()
        _ = try? JournalLock.upgradeFormat(file, shownAs: path, cipher: cipher)
        let again = openingLock(file, withinConversion: withinConversion)
        let (kindNow, inspectedNow) = try JournalFile.inspect(file, shownAs: path, cipher: cipher)
        return (again, false, kindNow, inspectedNow)
    }

    /// How long a write waits for another program's lock on the journal before it is "busy", in
    /// seconds. Writes run off the GTK thread, so the window stays alive while one waits.
    static let othersWait: TimeInterval = 10

    private static func openForWriting(_ file: String, cipher: JournalCipher?, newestDay: NewestDayKeeper?) throws -> DatabaseQueue {
        var configuration = JournalFile.configuration(cipher)
        configuration.label = "journal"
        // The file is shared: the reminder's service reads it (as soon as a new journal's file
        // appears, while it is being made), a terminal's import or sync writes it. Their locks
        // last moments; wait for them rather than fail the opening or the save with "busy".
        configuration.busyMode = .timeout(Self.othersWait)
        configuration.prepareDatabase { db in
            // FULL syncs each commit, so a saved entry survives a power cut.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let queue = try DatabaseQueue(path: JournalFile.location(file, cipher: cipher), configuration: configuration)
        // WAL (recorded in the file's header) lets the journal list read while a save writes.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try JournalSchema.migrator.migrate(queue)
        if let newestDay { try queue.read { db in newestDay.refresh(db) } }
        return queue
    }

    /// The folder's lock, shared, for opening connections to `file`: none for a conversion's own
    /// store, whose conversion holds it exclusively.
    private static func openingLock(_ file: String, withinConversion: Bool) -> JournalFolderLock.Held? {
        withinConversion ? nil : JournalFolderLock.take(file, exclusive: false)
    }

    private static func openReadOnly(_ file: String, cipher: JournalCipher?) throws -> DatabaseQueue {
        var configuration = JournalFile.configuration(cipher)
        configuration.readonly = true
        configuration.label = "journal (read-only)"
        return try DatabaseQueue(path: JournalFile.location(file, cipher: cipher), configuration: configuration)
    }

    /// Runs SQLite's `quick_check` over the journal once (later calls return the verdict) and,
    /// when it is healthy, opens it for writing. Slow on a large journal (every page is read):
    /// call it off the GTK thread, after the first frame. Writes call it themselves.
    @discardableResult
    public func check() -> JournalHealth {
        checking.lock()
        defer { checking.unlock() }
        if let health = lock.withLock({ health }) { return health }
        // Closed meanwhile: no verdict to give (nobody is waiting for one).
        return (try? using { () -> JournalHealth in checkNow() }) ?? .healthy
    }

    private func checkNow() -> JournalHealth {
        let verdict: JournalHealth
        do {
            let checker = try openChecker()
            defer { try? checker.close() }
            let report = try checker.read { db in try String.fetchAll(db, sql: "PRAGMA \(JournalFile.healthCheck(cipher))") }
            verdict = report == ["ok"] ? .healthy : .damaged(report: report)
        } catch {
            verdict = .damaged(report: [(error as? DatabaseError)?.message ?? "\(error)"])
        }
        lock.withLock { health = verdict }
        if verdict == .healthy { try? promote() }
        return verdict
    }

    /// Makes a healthy journal private and opens it for writing (migrating it if it needs to).
    /// A failure (a read-only file, say) is thrown to the write that asked, and tried again by
    /// the next one.
    private func promote() throws(JournalError) {
        // Private before the first byte is written: SQLite gives a new -wal or -shm the
        // journal's own mode, and an existing one is made private too.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: file + suffix) {
            chmod(file + suffix, 0o600)
        }
        let opening = Self.openingLock(file, withinConversion: withinConversion)
        defer { opening?.release() }
        do {
            let writer = try Self.openForWriting(file, cipher: cipher, newestDay: newestDay)
            lock.withLock {
                self.writer = writer
                reader = writer
            }
        } catch {
            throw JournalError(error, path: path)
        }
    }

    /// Closes the journal: SQLite merges the -wal into the file and removes it, so the next start
    /// finds one whole file (a -wal left behind is read as a crash's). Call it last.
    public func close() {
        inUse.exclusive {
            let (reader, writer): (DatabaseQueue, DatabaseQueue?) = lock.withLock {
                isClosed = true
                return (self.reader, self.writer)
            }
            try? writer?.close()
            try? reader.close()
        }
    }

    /// Runs `work` with the journal held open; `.closed` once it was closed.
    func using<T>(_ work: () throws(JournalError) -> T) throws(JournalError) -> T {
        try inUse.shared { () throws(JournalError) -> T in
            if lock.withLock({ isClosed }) { throw .closed }
            return try work()
        }
    }

    /// Writes a whole, compacted, private copy of the journal into a new file at `target`. Only
    /// from a journal that passed its health check.
    /// A locked journal's copy is sealed with its key.
    func vacuum(intoNewFile target: String) throws(JournalError) {
        try vacuum(intoNewFile: target, sealedBy: cipher)
    }

    /// The copy sealed by `target` (plain when nil), whatever this journal's own cipher.
    func vacuum(intoNewFile target: String, sealedBy targetCipher: JournalCipher?) throws(JournalError) {
        try using { () throws(JournalError) in
            let queue = try writable()
            try worded { try JournalFile.vacuum(queue, intoNewFile: target, cipher: targetCipher) }
        }
    }

    public func dataVersion() -> Int? {
        // Only a connection that sees others' commits can tell of them: not the immutable reader.
        guard let writer = lock.withLock({ writer }) else { return nil }
        return try? using { () throws(JournalError) in try worded { try writer.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") } } }
    }

    /// The verdict of the check, if it has run.
    public var checkedHealth: JournalHealth? { lock.withLock { health } }

    var currentReader: DatabaseQueue { lock.withLock { reader } }

    /// The connection to write with: after the check; never for a damaged journal.
    func writable() throws(JournalError) -> DatabaseQueue {
        if case .damaged = check() { throw .damagedJournal(path: path) }
        if let writer = lock.withLock({ writer }) { return writer }
        try promote()
        guard let writer = lock.withLock({ writer }) else { throw .readOnly(path: path) }
        return writer
    }

    // MARK: - Intents

    public func save(_ entry: NewEntry, createdAt: Date = Date()) throws(JournalError) -> Entry {
        try writing { db in
            var record = EntryRecord(entry, createdAt: createdAt)
            try record.insert(db)
            let id = db.lastInsertedRowID
            if !entry.tagIDs.isEmpty { try Self.setTags(entry.tagIDs, forEntry: id, db) }
            if let photos = entry.photos, !photos.isEmpty { try Self.setPhotos(photos, forEntry: id, db) }
            if let measures = entry.measures, !measures.isEmpty { try Self.setMeasures(measures, forEntry: id, db) }
            return try Self.readBack(db, id: id)
        }
    }

    /// Saves many entries, each with its own date, in one transaction: all or none. For journals
    /// made in one go (the benchmark's sample journal; imports). Returns how many were saved.
    @discardableResult
    public func save(_ entries: [(entry: NewEntry, createdAt: Date)]) throws(JournalError) -> Int {
        try writing { db in
            for (entry, createdAt) in entries {
                var record = EntryRecord(entry, createdAt: createdAt)
                try record.insert(db)
                let id = db.lastInsertedRowID
                if !entry.tagIDs.isEmpty { try Self.setTags(entry.tagIDs, forEntry: id, db) }
                if let photos = entry.photos, !photos.isEmpty { try Self.setPhotos(photos, forEntry: id, db) }
                if let measures = entry.measures, !measures.isEmpty { try Self.setMeasures(measures, forEntry: id, db) }
            }
            return entries.count
        }
    }

    public func update(id: Int64, with entry: NewEntry, updatedAt: Date) throws(JournalError) -> Entry {
        try writing { db in try Self.update(id: id, with: entry, updatedAt: updatedAt, db) }
    }

    /// An edit inside a write transaction (see `update(id:with:updatedAt:)`).
    static func update(id: Int64, with entry: NewEntry, updatedAt: Date, _ db: Database) throws -> Entry {
        // Only the columns an edit changes are written: the location is never edited, and an
        // untouched date keeps its stored bytes.
        // An edit is stamped after the version it replaces, even on a machine whose clock is
        // behind the one that made that version: sync orders an entry's versions by stamp.
        var updatedAt = updatedAt
        let previous = try DatabaseValue.fetchOne(db, sql: "SELECT coalesce(updated_at, created_at) FROM entry WHERE id = ?", arguments: [id])
        if let previous = StoredDate.parse(previous?.storage), previous >= updatedAt {
            updatedAt = previous.addingTimeInterval(0.001)
        }
        var assignments = "title = ?, body = ?, mood = ?, updated_at = ?"
        var arguments: StatementArguments = [entry.title, entry.body, entry.mood?.rawValue, updatedAt]
        if let date = entry.date {
            assignments += ", created_at = ?"
            arguments += [date]
        }
        arguments += [id]
        try db.execute(sql: "UPDATE entry SET \(assignments) WHERE id = ?", arguments: arguments)
        guard db.changesCount > 0 else { throw JournalError.entryMissing }
        try setTags(entry.tagIDs, forEntry: id, db)
        if let photos = entry.photos { try setPhotos(photos, forEntry: id, db) }
        if let measures = entry.measures { try setMeasures(measures, forEntry: id, db) }
        return try readBack(db, id: id)
    }

    public func delete(id: Int64) throws(JournalError) -> DeletedEntry {
        try writing { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id]) else {
                throw JournalError.entryMissing
            }
            guard case .success(let entry) = StoredEntry.read(row) else { throw JournalError.unreadableEntry }
            let stored = Dictionary(uniqueKeysWithValues: zip(row.columnNames, row.databaseValues))
            let tags = try Self.tagIDs(forEntries: [id], db)[id] ?? []
            let photos = try Self.photos(forEntries: [id], db)[id] ?? []
            let measures = try Self.measureValues(forEntries: [id], db)[id] ?? [:]
            try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [id])
            return DeletedEntry(entry: entry, storedRow: stored, tagIDs: tags, photos: photos, measures: measures)
        }
    }

    public func restore(_ deleted: DeletedEntry) throws(JournalError) -> Entry {
        try writing { db in
            try Self.insert(deleted.storedRow.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, db)
            try Self.setTags(deleted.tagIDs, forEntry: deleted.entry.id, db)
            try Self.setPhotos(deleted.photos, forEntry: deleted.entry.id, db)
            try Self.setMeasures(deleted.measures, forEntry: deleted.entry.id, db)
            return try Self.readBack(db, id: deleted.entry.id)
        }
    }

    /// Inserts rows read from another journal as they were stored (ids, identities and all), in
    /// one transaction: for recovering a damaged journal into a new one.
    func insertStoredRows(_ rows: [Row]) throws(JournalError) {
        try writing { db in
            for row in rows { try Self.insert(Array(zip(row.columnNames, row.databaseValues)), db) }
        }
    }

    public func entryIDs() throws(JournalError) -> [Int64] {
        try reading { db in try Self.ids(db, sql: "SELECT id FROM entry ORDER BY created_at DESC, id DESC") }
    }

    /// The first column of every row, stepped by hand: for every entry of a journal (the list's
    /// ids, a search matching most of it), GRDB's generic decoding of each row costs more than
    /// SQLite reading it (it was a quarter of a 100,000-entry start-up).
    static func ids(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Int64] {
        var ids: [Int64] = []
        try step(db, sql: sql, arguments: arguments) { row in ids.append(sqlite3_column_int64(row, 0)) }
        return ids
    }

    /// Steps `sql`'s rows by hand, calling `each` with the statement on every row (read its
    /// columns with `sqlite3_column_…`): for queries over a whole journal.
    static func step(_ db: Database, sql: String, arguments: StatementArguments = [], each: (OpaquePointer) throws -> Void) throws {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let handle = statement.sqliteStatement
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: try each(handle)
            case SQLITE_DONE: return
            case let code:
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
        }
    }

    public func read(ids: [Int64]) throws(JournalError) -> EntryBatch {
        guard !ids.isEmpty else { return EntryBatch() }
        return try using { () throws(JournalError) in try read(ids: ids, from: currentReader) }
    }

    private func read(ids: [Int64], from reader: DatabaseQueue) throws(JournalError) -> EntryBatch {
        do {
            return try reader.read { db in
                try Self.read(db, sql: "SELECT * FROM entry WHERE id IN (\(ids.map(String.init).joined(separator: ",")))")
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            // A damaged page fails every read that crosses it: read one by one (each in its own
            // transaction, which the damage ends), so only the entries on that page are lost.
            var batch = EntryBatch()
            for id in ids {
                do {
                    let one = try reader.read { db in try Self.read(db, sql: "SELECT * FROM entry WHERE id = \(id)") }
                    batch.entries += one.entries
                    batch.unreadable += one.unreadable
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
                    batch.unreadable.append(UnreadableEntry(id: id, reason: tr("It is in a damaged part of the journal file.")))
                } catch {
                    throw JournalError(error, path: path)
                }
            }
            return batch
        } catch {
            throw JournalError(error, path: path)
        }
    }

    /// The rows `sql` selects, row by row, each with its tags: one bad row is reported as such
    /// and the others read.
    private static func read(_ db: Database, sql: String) throws -> EntryBatch {
        var batch = EntryBatch()
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
            switch StoredEntry.read(row) {
            case .success(let entry): batch.entries.append(entry)
            case .failure(let unreadable): batch.unreadable.append(unreadable)
            }
        }
        // A failed read of the tags fails the read (tried again, or one by one on a damaged
        // page): an entry shown without the tags it has would lose them at its next edit.
        let tags = try tagIDs(forEntries: batch.entries.map(\.id), db)
        let photos = try photos(forEntries: batch.entries.map(\.id), db)
        let measures = try measureValues(forEntries: batch.entries.map(\.id), db)
        for index in batch.entries.indices {
            batch.entries[index].tagIDs = tags[batch.entries[index].id] ?? []
            batch.entries[index].photos = photos[batch.entries[index].id] ?? []
            batch.entries[index].measures = measures[batch.entries[index].id] ?? [:]
        }
        return batch
    }

    public func position(of id: Int64) throws(JournalError) -> Int? {
        try reading { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM entry WHERE id = ?", arguments: [id]) != nil else { return nil }
            // Counts the entries that come before it in the list's order, along the date index.
            return try Int.fetchOne(db, sql: """
                SELECT count(*) FROM entry
                WHERE (created_at, id) > (SELECT created_at, id FROM entry WHERE id = ?)
                """, arguments: [id])
        }
    }

    /// Inserts a row of `entry` exactly as stored elsewhere: each column's value, byte for byte.
    private static func insert(_ values: [(column: String, value: DatabaseValue)], _ db: Database) throws {
        let names = values.map(\.column.quotedDatabaseIdentifier).joined(separator: ", ")
        let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
        try db.execute(sql: "INSERT INTO entry (\(names)) VALUES (\(marks))", arguments: StatementArguments(values.map(\.value)))
    }

    /// The entry with `id` as stored, inside the transaction that just wrote it.
    private static func readBack(_ db: Database, id: Int64) throws -> Entry {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id]),
              case .success(let entry) = StoredEntry.read(row) else {
            throw JournalError.other(reason: tr("The saved entry could not be read back."))
        }
        var read = entry.withTags(try tagIDs(forEntries: [id], db)[id] ?? [])
        read.photos = try photos(forEntries: [id], db)[id] ?? []
        read.measures = try measureValues(forEntries: [id], db)[id] ?? [:]
        return read
    }

    /// How many entries the journal holds.
    public func count() throws(JournalError) -> Int {
        try reading { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0 }
    }

    /// Runs `work` in a write transaction (after the health check; never on a damaged journal),
    /// with SQLite's errors in the person's terms.
    func writing<T>(_ work: (Database) throws -> T) throws(JournalError) -> T {
        try using { () throws(JournalError) in try writingNow(work) }
    }

    private func writingNow<T>(_ work: (Database) throws -> T) throws(JournalError) -> T {
        let queue = try writable()
        // Counted before and after: figures computed meanwhile belong to neither version.
        lock.withLock { writes += 1 }
        defer { lock.withLock { writes += 1 } }
        // As DatabaseQueue.write, then the reminder's hint once the write is committed: kept here
        // rather than by a transaction observer, which cost each save of a locked journal about
        // 35 µs of GRDB's bookkeeping of every row changed.
        return try worded {
            try queue.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction {
                    result = try work(db)
                    return .commit
                }
                newestDay?.refresh(db)
                return result!
            }
        }
    }

    /// What identifies a set of Insights figures: they hold until the journal changes.
    struct InsightsKey: Hashable {
        let period: InsightsPeriod
        let day: Int
        let zone: String
        let writes: Int
        let dataVersion: Int
    }

    /// The key for `period` now, or nil while the journal's version cannot be told (before it
    /// is open for writing): then nothing is cached.
    func insightsKey(_ period: InsightsPeriod, now: Date, calendar: Calendar) -> InsightsKey? {
        guard let version = dataVersion() else { return nil }
        let day = Int((now.timeIntervalSince1970 + Double(calendar.timeZone.secondsFromGMT(for: now))) / 86_400)
        return InsightsKey(period: period, day: day, zone: calendar.timeZone.identifier, writes: lock.withLock { writes }, dataVersion: version)
    }

    func cachedInsights(_ key: InsightsKey) -> Insights? { lock.withLock { insightsCache[key] } }

    func cache(_ insights: Insights, for key: InsightsKey) {
        lock.withLock {
            // Only the current version's figures are worth keeping.
            insightsCache = insightsCache.filter { $0.key.writes == key.writes && $0.key.dataVersion == key.dataVersion && $0.key.day == key.day }
            insightsCache[key] = insights
        }
    }

    /// Runs `work` in a read transaction on the current reader, with errors in the person's terms.
    func reading<T>(_ work: (Database) throws -> T) throws(JournalError) -> T {
        try using { () throws(JournalError) in try worded { try currentReader.read(work) } }
    }

    /// Runs `work`, turning SQLite's errors into the person's terms.
    func worded<T>(_ work: () throws -> T) throws(JournalError) -> T {
        do {
            return try work()
        } catch {
            throw JournalError(error, path: path)
        }
    }

    /// The SQLite settings in force, for tests and diagnostics.
    public func pragma(_ name: String) throws -> String? {
        try currentReader.read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }
}
