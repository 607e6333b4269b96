import Foundation
import GRDB

/// What this machine knows for itself of the files at the place, kept in `sync_state` so that
/// nothing at the place has to be believed for it: which of its own files it wrote, the newest
/// snapshot of its own, what other machines' sealed files said must exist (`expect <machine>`),
/// and the names of the computers behind the machine ids (`computer <machine>`).
extension JournalStore {
    /// The numbers of the batches this machine wrote, in order.
    func ownBatches(machine: String) throws(JournalError) -> [Int] {
        try reading { db in
            try Int.fetchAll(db, sql: "SELECT batch FROM sync_applied WHERE machine = ? ORDER BY batch", arguments: [machine])
        }
    }

    /// The number of this machine's newest snapshot (0: none yet).
    func ownSnapshot() throws(JournalError) -> Int {
        try reading { db in
            try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'snapshot'").flatMap(Int.init) ?? 0
        }
    }

    /// A snapshot this machine wrote (or, written by a sync cut off before it could say so, found
    /// at the place and opened with the key): the newest, unless a newer one is known already.
    func recordOwn(snapshot number: Int, name: String) throws(JournalError) {
        try writing { db in
            let newest = try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'snapshot'").flatMap(Int.init) ?? 0
            try db.execute(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES ('snapshot', ?)",
                           arguments: [String(max(newest, number))])
            try db.execute(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, '1')", arguments: ["read \(name)"])
            try Self.forgetWriting(name, db)
        }
    }

    /// For each machine, the highest number of its batches applied here (this machine's own
    /// left out): what a batch written now says its writer has heard of.
    func heard(besides machine: String) throws(JournalError) -> [String: Int] {
        try reading { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                SELECT machine, max(batch) FROM sync_applied WHERE machine != ? GROUP BY machine
                """, arguments: [machine]).map { ($0[0] as String, $0[1] as Int) })
        }
    }

    /// The files other machines' sealed files said exist, by machine: the highest number each.
    func expected() throws(JournalError) -> [String: Int] {
        try reading { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                SELECT substr(key, 8), value FROM sync_state WHERE key LIKE 'expect %'
                """).compactMap { row in Int(row[1] as String).map { (row[0] as String, $0) } })
        }
    }

    /// Adds what sealed files said exist, and the computer names they gave.
    func record(expected: [String: Int], computers: [String: String]) throws(JournalError) {
        guard !expected.isEmpty || !computers.isEmpty else { return }
        try writing { db in
            for (machine, number) in expected {
                try db.execute(sql: """
                    INSERT INTO sync_state (key, value) VALUES (?, ?)
                    ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))
                    """, arguments: ["expect \(machine)", String(number)])
            }
            for (machine, computer) in computers {
                try db.execute(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)",
                               arguments: ["computer \(machine)", computer])
            }
        }
    }

    /// The computer names sealed files gave, by machine id.
    func computers() throws(JournalError) -> [String: String] {
        try reading { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                SELECT substr(key, 10), value FROM sync_state WHERE key LIKE 'computer %'
                """).map { ($0[0] as String, $0[1] as String) })
        }
    }
}
