import Foundation
import GRDB

/// What recovering a damaged journal keeps of its spelling: the words the person added and the
/// journal's settings (its language, Check Spelling), as far as they can still be read.
extension JournalRescue {
    static func readableSpelling(_ queue: DatabaseQueue) -> (words: [String], settings: [Row]) {
        let words = (try? queue.read { db in
            try db.tableExists("own_word") ? try String.fetchAll(db, sql: "SELECT word FROM own_word") : []
        }) ?? []
        let settings = (try? queue.read { db in
            try db.tableExists("journal_setting") ? try Row.fetchAll(db, sql: "SELECT key, value FROM journal_setting") : []
        }) ?? []
        return (words, settings)
    }

    static func restoreSpelling(_ readable: (words: [String], settings: [Row]), into store: JournalStore) throws(JournalError) {
        guard !readable.words.isEmpty || !readable.settings.isEmpty else { return }
        try store.writing { db in
            for word in readable.words { try db.execute(sql: "INSERT OR IGNORE INTO own_word (word) VALUES (?)", arguments: [word]) }
            for row in readable.settings {
                try db.execute(sql: "INSERT OR REPLACE INTO journal_setting (key, value) VALUES (?, ?)", arguments: [row["key"], row["value"]])
            }
        }
    }
}
