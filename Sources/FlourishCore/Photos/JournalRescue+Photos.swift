import Foundation
import GRDB

/// What recovering a damaged journal keeps of its photos: every photo row and key that can
/// still be read, on the recovered entries that carried them, and the photos' files, shared
/// with the damaged journal's folder (or copied, across disks). A damaged page loses only what
/// is on it.
extension JournalRescue {
    struct ReadablePhotos {
        var keys: [Row] = []
        var photos: [Row] = []
        var onEntries: [Row] = []
    }

    /// Each table read on its own: one damaged, the others still count.
    static func readablePhotos(_ queue: DatabaseQueue) -> ReadablePhotos {
        var readable = ReadablePhotos()
        readable.keys = (try? queue.read { db in try db.tableExists("photo_key") ? try Row.fetchAll(db, sql: "SELECT * FROM photo_key") : [] }) ?? []
        readable.photos = (try? queue.read { db in try db.tableExists("photo") ? try Row.fetchAll(db, sql: "SELECT * FROM photo") : [] }) ?? []
        readable.onEntries = (try? queue.read { db in
            try db.tableExists("entry_photo") ? try Row.fetchAll(db, sql: "SELECT * FROM entry_photo ORDER BY entry_id, position") : []
        }) ?? []
        return readable
    }

    /// Puts the readable photos into the recovered journal and its photo folder.
    static func restorePhotos(_ readable: ReadablePhotos, of recovered: Set<Int64>, from journal: String,
                              into store: JournalStore) throws(JournalError) {
        guard !readable.photos.isEmpty else { return }
        let keys = Set(readable.keys.map { $0["id"] as Int64 })
        let photos = readable.photos.filter { keys.contains($0["key_id"] as Int64) && PhotoName.isValid($0["name"] as String) }
        let kept = Set(photos.map { $0["name"] as String })
        let source = PhotoFolder(journal: journal)
        for name in kept { try store.photoFolder.adopt(name, from: source) }
        try store.writing { db in
            for row in readable.keys { try insertAsStored(row, into: "photo_key", db) }
            for row in photos { try insertAsStored(row, into: "photo", db) }
            for row in readable.onEntries where recovered.contains(row["entry_id"] as Int64) && kept.contains(row["photo"] as String) {
                try insertAsStored(row, into: "entry_photo", db)
            }
        }
    }

    /// A row as it was stored; one already there is left as it is.
    static func insertAsStored(_ row: Row, into table: String, _ db: Database) throws {
        let names = row.columnNames.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let marks = Array(repeating: "?", count: row.count).joined(separator: ", ")
        try db.execute(sql: "INSERT OR IGNORE INTO \(table) (\(names)) VALUES (\(marks))", arguments: StatementArguments(row.databaseValues))
    }
}
