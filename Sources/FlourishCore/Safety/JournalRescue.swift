import Foundation
import GRDB

/// The rescue tools behind `flourish --check` and `flourish --recover` and the damaged-journal
/// bar's "Recover…". Neither ever writes to the journal it looks at (nor to its side files).
public enum JournalRescue {
    /// What `--check` says of a journal.
    public struct Verdict: Sendable, Equatable {
        public let healthy: Bool
        /// One line for the person, then what SQLite reported on damage.
        public let lines: [String]
    }

    /// Checks the journal at `path` as Flourish does before its first write: is it a Flourish
    /// journal, and does SQLite's `quick_check` find it whole?
    /// A locked journal is read through its `cipher`.
    public static func check(path: String, cipher: JournalCipher? = nil) -> Verdict {
        let file = JournalFile.resolve(path)
        // A New Key… cut short: the journal may still be sealed under the key it replaces.
        let (reading, newKeyUnfinished) = JournalLock.readingKey(of: file, shownAs: path, cipher: cipher)
        var verdict = checkPages(file, shownAs: path, cipher: reading)
        if newKeyUnfinished {
            verdict = Verdict(healthy: verdict.healthy, lines: verdict.lines + [tr("New Key… was cut short: Flourish finishes sealing the journal under its new key the next time it opens it.")])
        }
        // Files beside a locked journal that are not Flourish's, or a key file beside a plain
        // one: its pages may be whole, but it is not as Flourish left it.
        let notices = reading.map { SetAsideFiles.notices(beside: file, cipher: $0) }
            ?? (JournalLock.isHalfLocked(path) ? [JournalError.halfLocked(path: path).errorDescription ?? ""] : [])
        guard !notices.isEmpty else { return verdict }
        let first = verdict.healthy ? [String(format: tr("not as Flourish left it: %@"), path)] + verdict.lines : verdict.lines
        return Verdict(healthy: false, lines: first + notices)
    }

    private static func checkPages(_ file: String, shownAs path: String, cipher: JournalCipher?) -> Verdict {
        do {
            return try withSnapshot(of: file, shownAs: path, cipher: cipher) { queue in
                let report = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA \(JournalFile.healthCheck(cipher))") }
                let count = try? queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") }
                if report == ["ok"] {
                    return Verdict(healthy: true, lines: [String(format: tr("healthy: %@ (%@ entries)"), path, "\(count ?? 0)")])
                }
                return Verdict(healthy: false, lines: [String(format: tr("damaged: %@"), path)] + report)
            }
        } catch let error as DatabaseError {
            return Verdict(healthy: false, lines: [String(format: tr("damaged: %@"), path), error.message ?? "\(error.resultCode)"])
        } catch {
            let reason = (error as? JournalError)?.errorDescription ?? "\(error)"
            return Verdict(healthy: false, lines: [String(format: tr("damaged: %@"), path), reason])
        }
    }

    /// What a recovery did.
    public struct Recovery: Sendable, Equatable {
        public let recovered: Int
        /// Entries known to have been in the journal (by its id index) that could not be read.
        public let lost: Int
        public let output: String
    }

    /// Copies every entry that can still be read from the journal at `path` into a new journal
    /// at `output` (which must not exist yet), each with its id, identity and stored values.
    /// From a locked journal (read through `cipher`), the new journal is locked with the same key,
    /// its key file copied beside it.
    public static func recover(from path: String, to output: String, cipher: JournalCipher? = nil) throws(JournalError) -> Recovery {
        guard !FileManager.default.fileExists(atPath: output) else {
            throw .other(reason: String(format: tr("%@ already exists: choose a new file for the recovered journal."), output))
        }
        let file = JournalFile.resolve(path)
        let (rows, known, tags, photos, measures): ([Row], Set<Int64>, ReadableTags, ReadablePhotos, ReadableMeasures)
        var spelling: (words: [String], settings: [Row]) = ([], [])
        var templates: [Row]?
        do {
            // A New Key… cut short may have left the journal under the key it was replacing.
            let reading = JournalLock.readingKey(of: file, shownAs: path, cipher: cipher).key
            (rows, known, tags, photos, measures) = try withSnapshot(of: file, shownAs: path, cipher: reading, salvaging: true) { queue in
                let (rows, known) = try readableRows(queue)
                spelling = readableSpelling(queue)
                templates = readableTemplates(queue)
                return (rows, known, readableTags(queue), readablePhotos(queue), readableMeasures(queue))
            }
        } catch {
            throw JournalError(error, path: path) // a JournalError passes through as it is
        }
        if cipher != nil {
            try LockFile.read(JournalLock.keyFile(of: file), journal: path).write(to: JournalLock.keyFile(of: JournalFile.resolve(output)))
        }
        let store = try JournalStore(path: output, cipher: cipher)
        try store.insertStoredRows(rows)
        let recovered = Set(rows.map { $0["id"] as Int64 })
        try restoreTags(tags, of: recovered, into: store)
        try restorePhotos(photos, of: recovered, from: file, into: store)
        try restoreMeasures(measures, of: recovered, into: store)
        try restoreSpelling(spelling, into: store)
        try restoreTemplates(templates, into: store)
        return Recovery(recovered: recovered.count, lost: known.subtracting(recovered).count, output: output)
    }

    /// The tag names that can still be read, and which entries carried which (by name).
    private struct ReadableTags {
        var names: [String] = []
        var onEntries: [Int64: Set<String>] = [:]
    }

    /// What can be read of the tags (a journal from before tags has none; a damaged page of the
    /// tag tables loses only what is on it).
    private static func readableTags(_ queue: DatabaseQueue) -> ReadableTags {
        var tags = ReadableTags()
        try? queue.read { db in
            let names = try String.fetchCursor(db, sql: "SELECT name FROM tag ORDER BY id")
            while let name = try names.next() { tags.names.append(name) }
        }
        try? queue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT entry_tag.entry_id, tag.name FROM entry_tag JOIN tag ON tag.id = entry_tag.tag_id")
            while let row = try rows.next() { tags.onEntries[row[0], default: []].insert(row[1]) }
        }
        return tags
    }

    /// Gives the recovered journal the damaged one's tags (matched by name, without regard to
    /// case, to those it starts with) and puts them back on the recovered entries.
    private static func restoreTags(_ tags: ReadableTags, of recovered: Set<Int64>, into store: JournalStore) throws(JournalError) {
        var byKey = Dictionary(try store.tags().map { (TagName.key($0.name), $0.id) }, uniquingKeysWith: { first, _ in first })
        for name in tags.names + tags.onEntries.values.flatMap({ $0 }) where byKey[TagName.key(name)] == nil {
            guard case .success = TagName.validated(name) else { continue }
            let tag = try store.createTag(named: name)
            byKey[TagName.key(tag.name)] = tag.id
        }
        for (entry, names) in tags.onEntries where recovered.contains(entry) {
            try store.setTags(Set(names.compactMap { byKey[TagName.key($0)] }), forEntry: entry)
        }
    }

    /// Every row of `entry` that reads as a valid entry, found by every way in there is (the
    /// table, the date index, each id up to the highest ever given), and every id seen at all.
    /// Each read has its own transaction: once SQLite meets a damaged page, it ends the
    /// transaction it was in, and what that read had found must not be lost with it.
    private static func readableRows(_ queue: DatabaseQueue) throws -> ([Row], Set<Int64>) {
        var known = Set<Int64>()
        // Each scan stops at the first damaged page; what it saw before that counts.
        for sql in ["SELECT id FROM entry", "SELECT id FROM entry ORDER BY id DESC",
                    "SELECT id FROM entry INDEXED BY entry_by_created_at ORDER BY created_at",
                    "SELECT id FROM entry INDEXED BY entry_by_created_at ORDER BY created_at DESC"] {
            try? queue.read { db in
                let cursor = try Int64.fetchCursor(db, sql: sql)
                while let id = try cursor.next() { known.insert(id) }
            }
        }
        let sequence = (try? queue.read { db in try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'entry'") }) ?? nil
        let highest = max(known.max() ?? 0, sequence ?? 0)
        // Ids past those seen are tried too (a damaged page hides its ids from every scan), up to
        // a bound, so that a garbage sequence number cannot make this run for ever.
        let candidates = known.union(highest > 0 ? Set(1...min(highest, Int64(known.count) + 1_000_000)) : [])
        var rows: [Row] = []
        for id in candidates.sorted() {
            guard let row = try? queue.read({ db in try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id]) }),
                  case .success = StoredEntry.read(row) else { continue }
            rows.append(row)
            known.insert(id)
        }
        return (rows, known)
    }

    /// Runs `work` on a read-only view of the journal that never writes to it: the main file
    /// through an immutable connection, or, when side files hold part of it, a private copy.
    /// A locked journal (or backup) reads through `cipher`.
    /// `salvaging` (a recovery): a locked journal's log is read up to a frame that does not open,
    /// wherever it is, instead of that frame being damage.
    static func withSnapshot<T>(of file: String, shownAs path: String, cipher: JournalCipher? = nil, salvaging: Bool = false,
                                _ work: (DatabaseQueue) throws -> T) throws -> T {
        var status = stat()
        guard stat(file, &status) == 0 else {
            throw JournalError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw JournalError.notAFile(path: path) }
        guard JournalFile.hasPendingSideFiles(file) else {
            let queue = try JournalFile.immutable(file, cipher: cipher)
            defer { try? queue.close() }
            return try work(queue)
        }
        return try JournalFile.withPrivateCopy(of: file, cipher: cipher, salvaging: salvaging, work)
    }
}

extension JournalRescue {
    /// Makes the backup at `backup` the journal at `journal`. The backup is checked first (a
    /// Flourish journal, healthy) and copied whole (SQLite's VACUUM INTO, from a view that never
    /// writes to it) beside the journal under a temporary name; then the current journal is kept,
    /// byte for byte with its side files, in `backups/` as "…-before-restore-…", and the copy is
    /// renamed over it. Quit Flourish first. Returns where the old journal was kept.
    /// A locked journal's backups are sealed with its key: `cipher` reads the backup and seals
    /// the restored journal.
    public static func restore(backup: String, to journal: String, cipher: JournalCipher? = nil,
                               now: Date = Date()) throws(JournalError) -> String? {
        let target = JournalFile.resolve(journal)
        let incoming = target + ".restoring"
        let files = FileManager.default
        // The backups of a New Key… cut short may still be sealed under the key it was replacing.
        if let cipher { try JournalLock.finishNewKey(target, shownAs: journal, cipher: cipher) }
        do {
            try? files.removeItem(atPath: incoming)
            try files.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                      withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try checkedCopy(of: backup, into: incoming, cipher: cipher)
            let kept = try keepAside(target, now: now)
            // The old journal's side files belong to its old contents (kept above).
            for suffix in ["-wal", "-shm"] { try? files.removeItem(atPath: target + suffix) }
            guard rename(incoming, target) == 0 else {
                throw JournalError.cannotOpen(path: target, reason: String(cString: strerror(errno)))
            }
            return kept
        } catch {
            try? files.removeItem(atPath: incoming)
            throw JournalError(error, path: journal)
        }
    }

    /// Checks that `backup` is a healthy Flourish journal and copies it whole into the new private
    /// file `incoming` (VACUUM INTO, from a view that never writes to it). Every failure names
    /// the backup.
    private static func checkedCopy(of backup: String, into incoming: String, cipher: JournalCipher?) throws(JournalError) {
        do {
            try withSnapshot(of: JournalFile.resolve(backup), shownAs: backup, cipher: cipher) { queue in
                guard case .journal = try JournalFile.classify(queue, shownAs: backup) else {
                    throw JournalError.notAJournal(path: backup)
                }
                guard try queue.read({ db in try String.fetchAll(db, sql: "PRAGMA \(JournalFile.healthCheck(cipher))") }) == ["ok"] else {
                    throw JournalError.damaged(path: backup)
                }
                try JournalFile.vacuum(queue, intoNewFile: incoming, cipher: cipher)
            }
        } catch {
            throw JournalError(error, path: backup)
        }
    }

    /// Copies the journal and its side files, byte for byte, into `backups/` as
    /// "…-before-restore-…" (private); nil when there is no journal yet.
    private static func keepAside(_ target: String, now: Date) throws -> String? {
        let files = FileManager.default
        guard files.fileExists(atPath: target) else { return nil }
        let backups = JournalBackups(journal: target)
        try files.createDirectory(atPath: backups.folder, withIntermediateDirectories: true,
                                  attributes: [.posixPermissions: 0o700])
        let stamp = ISO8601DateFormatter.string(from: now, timeZone: .current, formatOptions: [.withFullDate, .withTime])
        let stem = ((target as NSString).lastPathComponent as NSString).deletingPathExtension
        let keep = (backups.folder as NSString).appendingPathComponent("\(stem)-before-restore-\(stamp).sqlite")
        for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: target + suffix) {
            try JournalFile.copyPrivately(target + suffix, to: keep + suffix)
        }
        return keep
    }
}
