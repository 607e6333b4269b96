import Foundation
import GRDB

/// What spelling keeps in the journal: the words a person added ("Add to Dictionary"), the
/// language its text is checked in, and whether it is checked at all. Inside the journal, so sealed with it when it is locked;
/// Enchant is given the words for the session only and writes none of them to its own files.
extension JournalStore {
    /// The words added, in order.
    public func ownWords() -> [String] {
        (try? reading { db in try String.fetchAll(db, sql: "SELECT word FROM own_word ORDER BY word") }) ?? []
    }

    /// Adds a word (nothing if it is there, or empty, or longer than 100 characters).
    public func addOwnWord(_ word: String) throws(JournalError) {
        let word = word.trimmingCharacters(in: .whitespacesAndNewlines)
        // Counted as SQLite's length() counts, in Unicode scalars (the table's CHECK).
        guard (1...100).contains(word.unicodeScalars.count) else { return }
        try writing { db in try db.execute(sql: "INSERT OR IGNORE INTO own_word (word) VALUES (?)", arguments: [word]) }
    }

    /// The language the journal is checked in ("fr_FR"), nil for the desktop's.
    public func spellingLanguage() -> String? {
        try? reading { db in
            try String.fetchOne(db, sql: "SELECT value FROM journal_setting WHERE key = 'spelling-language'")
        }
    }

    /// Sets it; nil goes back to the desktop's language.
    public func setSpellingLanguage(_ language: String?) throws(JournalError) {
        try writing { db in
            if let language {
                try db.execute(sql: "INSERT OR REPLACE INTO journal_setting (key, value) VALUES ('spelling-language', ?)", arguments: [language])
            } else {
                try db.execute(sql: "DELETE FROM journal_setting WHERE key = 'spelling-language'")
            }
        }
    }

    /// Whether spelling is checked (it is unless the person turned it off).
    public func isSpellingChecked() -> Bool {
        (try? reading { db in
            try String.fetchOne(db, sql: "SELECT value FROM journal_setting WHERE key = 'spelling-checked'")
        }).flatMap { $0 } != "no"
    }

    public func setSpellingChecked(_ checked: Bool) throws(JournalError) {
        try writing { db in
            if checked {
                try db.execute(sql: "DELETE FROM journal_setting WHERE key = 'spelling-checked'")
            } else {
                try db.execute(sql: "INSERT OR REPLACE INTO journal_setting (key, value) VALUES ('spelling-checked', 'no')")
            }
        }
    }
}
