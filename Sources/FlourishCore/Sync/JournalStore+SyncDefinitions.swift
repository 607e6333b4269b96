import GRDB

/// What measures and templates share as they travel: each is a row by uuid or, once deleted, a
/// line of its table of deletions with when.
extension JournalStore {
    /// Where one kind lives: its table, its table of deletions, and the change a deletion is.
    struct SyncedTable {
        let table: String
        let gone: String
        let deletion: SyncChange.Kind
        /// Which rows travel in a snapshot ("1": all).
        var travels = "1"
    }

    /// The row with `uuid` as it is now (through `change`), or its deletion; nil for neither
    /// (made and deleted again before it was sent, with sync off meanwhile).
    static func change(of uuid: String, in synced: SyncedTable, _ db: Database, _ change: (Row) -> SyncChange) throws -> SyncChange? {
        if let row = try Row.fetchOne(db, sql: "SELECT * FROM \(synced.table) WHERE uuid = ?", arguments: [uuid]) {
            return change(row)
        }
        guard let gone = try String.fetchOne(db, sql: "SELECT gone_at FROM \(synced.gone) WHERE uuid = ?", arguments: [uuid]) else {
            return nil
        }
        var deletion = SyncChange(kind: synced.deletion)
        deletion.uuid = uuid
        deletion.at = gone
        return deletion
    }

    /// Every deletion, then every row that travels, in the person's order: what a snapshot holds.
    static func changes(in synced: SyncedTable, _ db: Database, _ change: (Row) -> SyncChange) throws -> [SyncChange] {
        var changes: [SyncChange] = []
        for uuid in try String.fetchAll(db, sql: "SELECT uuid FROM \(synced.gone) ORDER BY uuid") {
            if let deletion = try Self.change(of: uuid, in: synced, db, change) { changes.append(deletion) }
        }
        changes += try Row.fetchAll(db, sql: "SELECT * FROM \(synced.table) WHERE \(synced.travels) ORDER BY position, uuid").map(change)
        return changes
    }
}
