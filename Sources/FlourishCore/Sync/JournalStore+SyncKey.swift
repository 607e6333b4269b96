import Foundation
import GRDB

/// Which key the journal last synced with (`JournalKey.id`, never the key), and what changes
/// when the journal's key is changed: every file sealed with the old one is gone from the place,
/// so this machine starts again as a new one, with everything it holds to send.
extension JournalStore {
    /// The id of the key this journal last synced with; nil before it was kept.
    func syncKeyID() throws(JournalError) -> String? {
        try reading { db in try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'key'") }
    }

    func recordSyncKey(id: String) throws(JournalError) {
        try writing { db in try Self.setState(["key": id], db) }
    }

    /// The journal now syncs with a new key (`id`): what this machine knew of the files at the
    /// place (sealed with the old key, and removed there) is forgotten, and it takes a new machine
    /// id with its whole journal to send, the changes it had not sent among them. What only this
    /// journal holds (deletions, Undo times, tags gone, earlier versions) stays, and travels.
    func changeSyncKey(id: String) throws(JournalError) {
        try writing { db in
            // The machine ids the old key wrote under: their files left at the place (written in
            // the moment the key changed, or not removed) are dropped by whoever meets them.
            try db.execute(sql: """
                INSERT OR REPLACE INTO sync_state (key, value)
                SELECT 'old ' || machine, '1' FROM sync_applied
                UNION SELECT 'old ' || value, '1' FROM sync_state WHERE key = 'machine'
                """)
            try db.execute(sql: "DELETE FROM sync_applied")
            // Photos' names at the place come from the key: under the new one they are new names.
            try db.execute(sql: "DELETE FROM sync_photo")
            try db.execute(sql: "DELETE FROM sync_photo_unused")
            try db.execute(sql: """
                DELETE FROM sync_state WHERE key LIKE 'read %' OR key LIKE 'expect %' OR key LIKE 'computer %' OR key LIKE 'copy %'
                """)
            // The first sync under the new key writes a snapshot at once: it carries what the
            // change log no longer holds (renames, deletions of tags, Undo times, earlier versions).
            try Self.setState(["key": id, "snapshot now": "1"], db)
            try Self.becomeNewMachine(file: fileIdentity(), db)
        }
    }

    /// The machine ids the journal's old keys wrote under.
    func oldMachines() throws(JournalError) -> Set<String> {
        try reading { db in Set(try String.fetchAll(db, sql: "SELECT substr(key, 5) FROM sync_state WHERE key LIKE 'old %'")) }
    }

    /// Whether a snapshot is due whatever the count of batches (see `changeSyncKey`).
    func snapshotDue() throws(JournalError) -> Bool {
        try reading { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM sync_state WHERE key = 'snapshot now'") ?? false }
    }

    func snapshotWritten() throws(JournalError) {
        try writing { db in try db.execute(sql: "DELETE FROM sync_state WHERE key = 'snapshot now'") }
    }
}
