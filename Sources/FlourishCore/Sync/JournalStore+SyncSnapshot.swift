import Foundation
import GRDB

/// The store's side of snapshots (see `SyncSnapshot`): the journal read whole at one moment,
/// and a snapshot applied like a batch, whole or not at all.
extension JournalStore {
    /// Stands for "no later than anything" where a snapshot must give a time it does not know:
    /// when a tag made before sync kept such times was made. A name deleted or renamed on the
    /// machine applying the snapshot stays gone.
    static let longAgo = "1970-01-01 00:00:00.000"

    /// The journal as a snapshot's changes, and the batches it holds: one read, so both agree.
    func snapshotContents() throws(JournalError) -> (changes: [SyncChange], holds: [(machine: String, number: Int)]) {
        try reading { db in
            // Every measure deleted, then every measure (see `SyncBatch.measures`); the same of
            // templates; every word of one's own.
            var changes = try Self.measureChanges(db) + Self.templateChanges(db)
            changes += try String.fetchAll(db, sql: "SELECT word FROM own_word ORDER BY word").map(SyncChange.word)
            // A name that is a tag again was made after it went: the tag stands, not its going.
            let tags = try Row.fetchAll(db, sql: "SELECT name, key FROM tag ORDER BY id")
            let keys = Set(tags.map { $0["key"] as String })
            for row in try Row.fetchAll(db, sql: "SELECT key, gone_at, renamed_to FROM sync_tag_gone ORDER BY gone_at, key")
            where !keys.contains(row["key"]) {
                let renamedTo: String? = row["renamed_to"]
                changes.append(.tag(renamedTo == nil ? .deleteTag : .rename, row["key"], to: renamedTo, at: row["gone_at"]))
            }
            let made = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, made_at FROM sync_tag_made").map {
                ($0["key"] as String, $0["made_at"] as String)
            })
            changes += tags.map { .tag(.tag, $0["name"], at: made[$0["key"]] ?? Self.longAgo) }
            let uuids = try String.fetchAll(db, sql: "SELECT uuid FROM entry ORDER BY id")
            let entries = try Self.syncEntries(uuids: uuids, db)
            let revivals = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT uuid, revived_at FROM sync_revival").map {
                ($0["uuid"] as String, $0["revived_at"] as String)
            })
            changes += uuids.compactMap { uuid in
                var entry = entries[uuid]
                entry?.revivedAt = revivals[uuid]
                return entry
            }
            changes += try Row.fetchAll(db, sql: "SELECT uuid, deleted_at FROM sync_tombstone ORDER BY uuid").map {
                .deleted($0["uuid"], at: $0["deleted_at"])
            }
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM entry_version ORDER BY id") {
                if let version = try Self.keptVersion(id: id, db) { changes.append(version) }
            }
            let holds = try Row.fetchAll(db, sql: "SELECT machine, batch FROM sync_applied").map { ($0["machine"] as String, $0["batch"] as Int) }
            return (changes, holds)
        }
    }

    /// Applies another machine's snapshot, whole or not at all, and records every batch it holds
    /// as applied here.
    func apply(_ snapshot: SyncSnapshot, fileName: String) throws(SyncError) -> SyncReceipt {
        try apply(snapshot.changes, extras: SyncExtras(snapshot), fileName: fileName, fromSnapshot: true, holding: snapshot.batches)
    }

    /// The snapshots of other machines read here already: each is needed once at most.
    func snapshotsRead() throws(JournalError) -> Set<String> {
        try reading { db in
            Set(try String.fetchAll(db, sql: "SELECT substr(key, 6) FROM sync_state WHERE key LIKE 'read %'"))
        }
    }

    func recordRead(snapshot name: String) throws(JournalError) {
        try writing { db in
            try db.execute(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, '1')", arguments: ["read \(name)"])
        }
    }
}
