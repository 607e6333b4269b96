import Foundation
import GRDB

/// Letting go of photos nothing needs any more, at start-up, in the background: first the
/// journal's rows of photos no entry names, then (after the day's backup) the files that
/// neither the journal nor any backup names.
///
/// Photos are only ever let go at start-up, after the kept drafts were read back and before they
/// are forgotten: nothing else (an Undo, a form holding photos not saved yet) can refer to a
/// photo then. What was added in the last hour is kept all the same: another Flourish (an import
/// from a terminal) may be about to save an entry naming it.
extension JournalStore {
    static let photoGrace: TimeInterval = 3600

    /// Forgets the photos no entry, kept draft or earlier version names (added over an hour
    /// before `now`). Returns how many.
    @discardableResult
    public func forgetUnusedPhotos(now: Date = Date()) throws(JournalError) -> Int {
        try writing { db in
            var named = Set(try String.fetchAll(db, sql: "SELECT DISTINCT photo FROM entry_photo"))
            for list in try String.fetchAll(db, sql: "SELECT photos FROM kept_draft UNION ALL SELECT photos FROM entry_version") {
                named.formUnion(EntryPhoto.list(list).map(\.id))
            }
            let before = now.addingTimeInterval(-Self.photoGrace)
            var forgotten = 0
            for name in try String.fetchAll(db, sql: "SELECT name FROM photo WHERE added_at < ?", arguments: [before])
            where !named.contains(name) {
                try db.execute(sql: "DELETE FROM photo WHERE name = ?", arguments: [name])
                forgotten += 1
            }
            return forgotten
        }
    }

    /// Every photo this journal keeps, by name.
    func photoNames() throws(JournalError) -> Set<String> {
        try reading { db in Set(try String.fetchAll(db, sql: "SELECT name FROM photo")) }
    }
}

extension JournalBackups {
    /// Removes the photo files that neither `store`'s journal nor any of its backups names
    /// (written over an hour before `now`), and files a killed write left half done. Every
    /// journal file in the backups folder counts, the one a restore set aside included. When
    /// one cannot be read, nothing is removed: it may name any of them. Returns how many.
    @discardableResult
    public func removeUnusedPhotoFiles(of store: JournalStore, now: Date = Date()) -> Int {
        let folder = store.photoFolder
        folder.removeLeftovers(olderThan: JournalStore.photoGrace, now: now)
        guard var named = try? store.photoNames() else { return 0 }
        for backup in journalFiles() {
            guard let names = try? Self.photoNames(inBackup: backup, cipher: store.cipher) else { return 0 }
            named.formUnion(names)
        }
        var removed = 0
        for name in folder.names() where !named.contains(name) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.file(name))
            guard let modified = attributes?[.modificationDate] as? Date, now.timeIntervalSince(modified) > JournalStore.photoGrace else { continue }
            folder.remove(name)
            removed += 1
        }
        return removed
    }

    /// Every journal file in the backups folder: the daily and weekly backups, and the journal a
    /// restore set aside ("…-before-restore-…").
    func journalFiles() -> [String] {
        let stem = ((journal as NSString).lastPathComponent as NSString).deletingPathExtension
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix(stem + "-") && $0.hasSuffix(".sqlite") }.map { (folder as NSString).appendingPathComponent($0) }
    }

    /// The photos a backup names (none, for one made before photos).
    /// Read as the file stands with its side files (a journal set aside after a crash has part
    /// of itself in its -wal), never writing to it.
    static func photoNames(inBackup path: String, cipher: JournalCipher?) throws -> Set<String> {
        try JournalRescue.withSnapshot(of: path, shownAs: path, cipher: cipher) { queue in
            try queue.read { db in
                guard try db.tableExists("photo") else { return [] }
                return Set(try String.fetchAll(db, sql: "SELECT name FROM photo"))
            }
        }
    }

    /// The day's upkeep at start-up: unused photos forgotten, today's backup written if due (and
    /// old ones let go), then the photo files nothing names removed. Returns the new backup, if any.
    @discardableResult
    public func keepUp(_ store: JournalStore, now: Date = Date()) throws -> String? {
        try store.forgetUnusedPhotos(now: now)
        let written = try backUpIfDue(from: store, now: now)
        removeUnusedPhotoFiles(of: store, now: now)
        return written
    }
}
