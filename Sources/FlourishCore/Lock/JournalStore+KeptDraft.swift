import Foundation
import GRDB

extension JournalStore {
    /// Keeps the New Entry form's half-written entry in the journal (replacing any kept before):
    /// locking the journal closes the window, and the words come back in the form on unlock.
    public func keepDraft(_ draft: EntryDraft) throws(JournalError) {
        try writing { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO kept_draft (id, title, body, mood, date, tag_ids) VALUES (1, ?, ?, ?, ?, ?)
                """, arguments: [draft.title, draft.body, draft.mood?.rawValue, draft.date?.timeIntervalSince1970,
                                 draft.tagIDs.sorted().map(String.init).joined(separator: " ")])
        }
    }

    /// The kept draft, if there is one. Read without writing (start-up writes nothing before the
    /// journal's health check); `forgetKeptDraft` removes it once it is back in the form. Nil
    /// too for a journal from before kept drafts, until it is upgraded.
    public func keptDraft() -> EntryDraft? {
        guard let row = try? reading({ db in try Row.fetchOne(db, sql: "SELECT * FROM kept_draft WHERE id = 1") }) else {
            return nil
        }
        let mood = (row["mood"] as Int?).flatMap(Mood.init(rawValue:))
        let date = (row["date"] as Double?).map(Date.init(timeIntervalSince1970:))
        let tags = Set(((row["tag_ids"] as String?) ?? "").split(separator: " ").compactMap { Int64($0) })
        return EntryDraft(title: row["title"], body: row["body"], mood: mood, date: date, tagIDs: tags)
    }

    public func forgetKeptDraft() throws(JournalError) {
        try writing { db in try db.execute(sql: "DELETE FROM kept_draft") }
    }
}
