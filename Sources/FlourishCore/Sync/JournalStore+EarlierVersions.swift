import Foundation
import GRDB

/// The earlier versions sync kept of an entry, and taking one of them back.
extension JournalStore {
    /// The entry's earlier versions, the most recently kept first. A row a hand edit spoiled is
    /// left out.
    public func earlierVersions(of uuid: String) throws(JournalError) -> [EarlierVersion] {
        try reading { db in
            try Row.fetchAll(db, sql: "SELECT * FROM entry_version WHERE entry_uuid = ? ORDER BY id DESC", arguments: [uuid])
                .compactMap { row -> EarlierVersion? in
                    // NULL: a version without a mood; a number that is no mood, a spoiled row.
                    let number = row["mood"] as Int?
                    let mood = number.flatMap(Mood.init(rawValue:))
                    guard number == nil || mood != nil,
                          let createdAt = StoredDate.parse((row["created_at"] as DatabaseValue).storage) else { return nil }
                    var version = EarlierVersion(id: row["id"], entryUUID: uuid, title: row["title"], body: row["body"], mood: mood,
                                                 createdAt: createdAt, updatedAt: StoredDate.parse((row["updated_at"] as DatabaseValue).storage),
                                                 tags: (row["tags"] as String).split(separator: "\n").map(String.init))
                    version.measures = MeasureValues.valuesByUUID((row["measures"] as String?) ?? "")
                    return version
                }
        }
    }

    /// Makes `version` the entry's words, mood, date and tags again, as an edit stamped
    /// `updatedAt` (so it travels, and wins, like any later edit). The version it replaces is
    /// kept in its place, here and (through the next sync) on every machine: nothing is lost.
    public func useEarlierVersion(_ version: EarlierVersion, forEntry id: Int64, updatedAt: Date) throws(JournalError) -> Entry {
        let tagIDs = try version.tags.map { name throws(JournalError) in try tagID(named: name) }
        // One transaction: a sync applying another machine's edit waits for it, so the version
        // replaced is the one kept, and nothing comes in between.
        return try writing { db in
            guard let replaced = try JournalStore.syncEntries(uuids: [version.entryUUID], db)[version.entryUUID],
                  try Int64.fetchOne(db, sql: "SELECT id FROM entry WHERE uuid = ?", arguments: [version.entryUUID]) == id
            else { throw JournalError.entryMissing }
            try db.execute(sql: """
                INSERT INTO entry_version (entry_uuid, title, body, mood, created_at, updated_at, latitude, longitude, accuracy, tags, kept_at,
                                           measures)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%d %H:%M:%f', 'now'), ?)
                """, arguments: [version.entryUUID, replaced.title, replaced.body, replaced.mood, replaced.createdAt, replaced.updatedAt,
                                 replaced.latitude, replaced.longitude, replaced.accuracy, (replaced.tags ?? []).joined(separator: "\n"),
                                 MeasureValues.text(byUUID: replaced.measures ?? [:])])
            // Synced, the replaced version travels too, so every machine keeps it.
            try db.execute(sql: """
                INSERT INTO sync_change (kind, name) SELECT 'version', ? WHERE EXISTS (SELECT 1 FROM sync_state WHERE key = 'journal')
                """, arguments: [String(db.lastInsertedRowID)])
            // Its values, for the measures still here; a version kept without any leaves the entry's.
            var values: [Int64: Double] = [:]
            for (uuid, value) in version.measures {
                if let measure = try Int64.fetchOne(db, sql: "SELECT id FROM measure WHERE uuid = ?", arguments: [uuid]) { values[measure] = value }
            }
            let entry = try JournalStore.update(id: id, with: NewEntry(title: version.title, body: version.body, mood: version.mood,
                                                                       location: nil, date: version.createdAt, tagIDs: Set(tagIDs),
                                                                       photos: nil, measures: version.measures.isEmpty ? nil : values),
                                                updatedAt: updatedAt, db)
            try db.execute(sql: "DELETE FROM entry_version WHERE id = ?", arguments: [version.id])
            return entry
        }
    }

    /// The tag named `name`, made when the journal has none by that name.
    private func tagID(named name: String) throws(JournalError) -> Int64 {
        if let found = try tags(counted: false).first(where: { TagName.sameName($0.name, name) }) { return found.id }
        return try createTag(named: name).id
    }
}
