import Foundation
import GRDB

/// What recovering a damaged journal keeps of its measures: every definition that can still be
/// read, as it was stored (id, identity, order), and the recovered entries' values for them.
/// Each table is read on its own: a damaged page loses only what is on it.
extension JournalRescue {
    struct ReadableMeasures {
        var measures: [Row] = []
        var values: [Row] = []
    }

    static func readableMeasures(_ queue: DatabaseQueue) -> ReadableMeasures {
        var readable = ReadableMeasures()
        readable.measures = (try? queue.read { db in
            try db.tableExists("measure") ? try Row.fetchAll(db, sql: "SELECT * FROM measure ORDER BY id") : []
        }) ?? []
        readable.values = (try? queue.read { db in
            try db.tableExists("entry_measure") ? try Row.fetchAll(db, sql: "SELECT * FROM entry_measure") : []
        }) ?? []
        return readable
    }

    static func restoreMeasures(_ readable: ReadableMeasures, of recovered: Set<Int64>, into store: JournalStore) throws(JournalError) {
        guard !readable.measures.isEmpty else { return }
        try store.writing { db in
            for row in readable.measures { try insertAsStored(row, into: "measure", db) }
            for row in readable.values where recovered.contains(row["entry_id"] as Int64) {
                // A value whose measure was on a lost page has nothing to belong to.
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM measure WHERE id = ?", arguments: [row["measure_id"] as Int64]) != nil
                else { continue }
                try insertAsStored(row, into: "entry_measure", db)
            }
        }
    }
}
