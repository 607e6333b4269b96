import Foundation
import GRDB

/// What the window held, unsaved, when the journal was locked: the New Entry form's words and an
/// edit of an entry not yet saved. Kept inside the journal (sealed, for a locked one) and put
/// back on unlock.
public struct KeptDrafts: Sendable, Equatable {
    public var newEntry: EntryDraft?
    /// The entry being edited, and the edit's fields.
    public var edit: (entryID: Int64, draft: EntryDraft)?

    public init(newEntry: EntryDraft? = nil, edit: (entryID: Int64, draft: EntryDraft)? = nil) {
        self.newEntry = newEntry
        self.edit = edit
    }

    public var isEmpty: Bool { newEntry == nil && edit == nil }

    public static func == (lhs: KeptDrafts, rhs: KeptDrafts) -> Bool {
        lhs.newEntry == rhs.newEntry && lhs.edit?.entryID == rhs.edit?.entryID && lhs.edit?.draft == rhs.edit?.draft
    }
}

extension JournalStore {
    /// Keeps what the window held (replacing what was kept before).
    public func keep(_ drafts: KeptDrafts) throws(JournalError) {
        try writing { db in
            try db.execute(sql: "DELETE FROM kept_draft")
            if let draft = drafts.newEntry { try Self.insert(draft, id: 1, entryID: nil, db) }
            if let edit = drafts.edit { try Self.insert(edit.draft, id: 2, entryID: edit.entryID, db) }
        }
    }

    /// Keeps the New Entry form's words alone.
    public func keepDraft(_ draft: EntryDraft) throws(JournalError) {
        try keep(KeptDrafts(newEntry: draft))
    }

    private static func insert(_ draft: EntryDraft, id: Int, entryID: Int64?, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO kept_draft (id, entry_id, title, body, mood, date, tag_ids, photos, measures) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [id, entryID, draft.title, draft.body, draft.mood?.rawValue, draft.date?.timeIntervalSince1970,
                             draft.tagIDs.sorted().map(String.init).joined(separator: " "), EntryPhoto.text(draft.photos ?? []),
                             MeasureValues.text(draft.measures ?? [:])])
    }

    /// What was kept, if anything. Read without writing (start-up writes nothing before the
    /// journal's health check); `forgetKeptDraft` removes it once it is back in the window. Empty
    /// too for a journal from before kept drafts, until it is upgraded.
    public func keptDrafts() -> KeptDrafts {
        guard let rows = try? reading({ db in try Row.fetchAll(db, sql: "SELECT * FROM kept_draft ORDER BY id") }) else {
            return KeptDrafts()
        }
        var kept = KeptDrafts()
        for row in rows {
            let mood = (row["mood"] as Int?).flatMap(Mood.init(rawValue:))
            let date = (row["date"] as Double?).map(Date.init(timeIntervalSince1970:))
            let tags = Set(((row["tag_ids"] as String?) ?? "").split(separator: " ").compactMap { Int64($0) })
            // None kept (or kept before photos, by v8) reads as nil: no photos for a new entry,
            // the entry's own for an edit (an edit that took every photo off gets them back,
            // rather than an edit made before photos taking them off).
            let photos = EntryPhoto.list((row["photos"] as String?) ?? "")
            // Measures' values the same way (none kept by v9, which had none).
            let measures = MeasureValues.values((row["measures"] as String?) ?? "")
            let draft = EntryDraft(title: row["title"], body: row["body"], mood: mood, date: date, tagIDs: tags,
                                   photos: photos.isEmpty ? nil : photos, measures: measures.isEmpty ? nil : measures)
            switch row["id"] as Int {
            case 1: kept.newEntry = draft
            case 2: if let entryID = row["entry_id"] as Int64? { kept.edit = (entryID, draft) }
            default: break
            }
        }
        return kept
    }

    /// The New Entry form's kept words, if any.
    public func keptDraft() -> EntryDraft? { keptDrafts().newEntry }

    public func forgetKeptDraft() throws(JournalError) {
        try writing { db in try db.execute(sql: "DELETE FROM kept_draft") }
    }
}

