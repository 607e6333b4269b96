import Foundation
import GRDB

/// The store's intents for tags. Each write is one transaction.
extension JournalStore {
    /// Every tag, by name, with how many entries carry it (counted: the Tags window's list) or
    /// not (the forms' toggles, which must not wait on counting a ten-year journal's tags).
    public func tags(counted: Bool = true) throws(JournalError) -> [Tag] {
        try reading { db in
            guard counted else {
                return try Row.fetchAll(db, sql: "SELECT id, name FROM tag ORDER BY key").map { Tag(id: $0["id"], name: $0["name"]) }
            }
            return try Row.fetchAll(db, sql: """
                SELECT tag.id, tag.name, (SELECT count(*) FROM entry_tag WHERE entry_tag.tag_id = tag.id) AS entries
                FROM tag ORDER BY tag.key
                """).map { Tag(id: $0["id"], name: $0["name"], entryCount: $0["entries"]) }
        }
    }

    /// A new tag named `name` (see `TagName`); a name taken already, whatever its case, is refused.
    public func createTag(named name: String) throws(JournalError) -> Tag {
        let name = try Self.validTagName(name)
        return try writing { db in
            try Self.refuseTaken(name, except: nil, db)
            try db.execute(sql: "INSERT INTO tag (name, key) VALUES (?, ?)", arguments: [name, TagName.key(name)])
            return Tag(id: db.lastInsertedRowID, name: name)
        }
    }

    /// Gives the tag a new name; its entries keep it.
    public func renameTag(id: Int64, to name: String) throws(JournalError) {
        let name = try Self.validTagName(name)
        try writing { db in
            try Self.refuseTaken(name, except: id, db)
            try db.execute(sql: "UPDATE tag SET name = ?, key = ? WHERE id = ?", arguments: [name, TagName.key(name), id])
        }
    }

    /// Moves every entry of tag `id` to tag `target` and removes `id`. Returns how many entries
    /// now carry `target` because of it.
    @discardableResult
    public func mergeTag(id: Int64, into target: Int64) throws(JournalError) -> Int {
        guard id != target else { return 0 }
        return try writing { db in
            let source = try String.fetchOne(db, sql: "SELECT key FROM tag WHERE id = ?", arguments: [id])
            try db.execute(sql: "INSERT OR IGNORE INTO entry_tag (entry_id, tag_id) SELECT entry_id, ? FROM entry_tag WHERE tag_id = ?",
                           arguments: [target, id])
            let moved = db.changesCount
            // Synced, the merge travels as one (the deletion alone would take the tag off entries
            // elsewhere instead of moving them).
            try db.execute(sql: """
                INSERT INTO sync_change (kind, name, detail) SELECT 'merge-tag', source.name, target.name
                FROM tag AS source, tag AS target
                WHERE source.id = ? AND target.id = ? AND EXISTS (SELECT 1 FROM sync_state WHERE key = 'journal')
                """, arguments: [id, target])
            try db.execute(sql: "DELETE FROM tag WHERE id = ?", arguments: [id])
            // The deletion's trigger noted the name as deleted: a merge is not a deletion.
            try db.execute(sql: "DELETE FROM sync_change WHERE kind = 'delete-tag' AND seq = (SELECT max(seq) FROM sync_change)")
            // Its name now means the tag it went into (recorded only while synced).
            try db.execute(sql: "UPDATE sync_tag_gone SET renamed_to = (SELECT name FROM tag WHERE id = ?) WHERE key = ?",
                           arguments: [target, source])
            return moved
        }
    }

    /// Removes the tag from every entry and from the list; the entries keep everything else.
    /// Returns how many entries carried it.
    @discardableResult
    public func deleteTag(id: Int64) throws(JournalError) -> Int {
        try writing { db in
            let carried = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry_tag WHERE tag_id = ?", arguments: [id]) ?? 0
            try db.execute(sql: "DELETE FROM tag WHERE id = ?", arguments: [id])
            return carried
        }
    }

    /// The entry carries exactly these tags from now on.
    public func setTags(_ tagIDs: Set<Int64>, forEntry entryID: Int64) throws(JournalError) {
        try writing { db in try Self.setTags(tagIDs, forEntry: entryID, db) }
    }

    /// The tags each of these entries carries, by entry id (entries without tags are left out).
    public func tagIDs(forEntries ids: [Int64]) throws(JournalError) -> [Int64: Set<Int64>] {
        try reading { db in try Self.tagIDs(forEntries: ids, db) }
    }

    static func tagIDs(forEntries ids: [Int64], _ db: Database) throws -> [Int64: Set<Int64>] {
        guard !ids.isEmpty else { return [:] }
        var tags: [Int64: Set<Int64>] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT entry_id, tag_id FROM entry_tag WHERE entry_id IN (\(ids.map(String.init).joined(separator: ",")))")
        while let row = try rows.next() { tags[row["entry_id"], default: []].insert(row["tag_id"]) }
        return tags
    }

    /// The entry carries exactly these tags. A tag deleted meanwhile (in the Tags window, while
    /// the form was open) is left out rather than failing the save.
    static func setTags(_ tagIDs: Set<Int64>, forEntry entryID: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM entry_tag WHERE entry_id = ?", arguments: [entryID])
        for tag in tagIDs.sorted() {
            try db.execute(sql: "INSERT INTO entry_tag (entry_id, tag_id) SELECT ?, id FROM tag WHERE id = ?", arguments: [entryID, tag])
        }
    }

    private static func validTagName(_ text: String) throws(JournalError) -> String {
        switch TagName.validated(text) {
        case .success(let name): return name
        case .failure(let problem): throw .tagName(problem)
        }
    }

    private static func refuseTaken(_ name: String, except id: Int64?, _ db: Database) throws {
        if let existing = try Row.fetchOne(db, sql: "SELECT id, name FROM tag WHERE key = ?", arguments: [TagName.key(name)]),
           existing["id"] as Int64 != id {
            throw JournalError.tagName(.taken(existing: existing["name"]))
        }
    }
}
