import Foundation
import GRDB

/// What recovering a damaged journal keeps of its templates: every one that can still be read,
/// as it was (uuid, order, default and stamp), in place of the three a new journal starts with.
/// A journal from before templates, or whose templates cannot be read at all, keeps those three
/// (nil); one whose person deleted them all keeps none.
extension JournalRescue {
    static func readableTemplates(_ queue: DatabaseQueue) -> [Row]? {
        try? queue.read { db in
            try db.tableExists("template") ? try Row.fetchAll(db, sql: "SELECT * FROM template ORDER BY position, uuid") : nil
        }
    }

    static func restoreTemplates(_ rows: [Row]?, into store: JournalStore) throws(JournalError) {
        guard let rows else { return }
        try store.writing { db in
            try db.execute(sql: "DELETE FROM template")
            for row in rows {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO template (uuid, name, title, body, mood, tags, measures, position, is_default, changed_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [row["uuid"], row["name"], row["title"], row["body"], row["mood"], row["tags"], row["measures"],
                                     row["position"], row["is_default"], row["changed_at"]])
            }
        }
    }
}
