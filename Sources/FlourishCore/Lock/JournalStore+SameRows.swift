import GRDB

extension JournalStore {
    /// Checks that the journal copy at `copy` (read through `cipher`) holds exactly this journal:
    /// the same schema, and every row of every table the same, value for value, in the same order
    /// (each table's own key order, which a copy keeps whatever its pages). Throws when not.
    func sameRows(as copy: String, cipher copyCipher: JournalCipher?) throws {
        let original = try writable()
        let duplicate = try JournalFile.immutable(copy, cipher: copyCipher)
        defer { try? duplicate.close() }
        let schema = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        try original.read { db in
            try duplicate.read { copyDB in
                guard try Row.fetchAll(db, sql: schema) == Row.fetchAll(copyDB, sql: schema) else { throw Self.differs }
                // Virtual tables (the search index) are read through the tables that store them.
                let tables = try String.fetchAll(db, sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name
                    """)
                for table in tables {
                    let sql = "SELECT * FROM \(table.quotedDatabaseIdentifier)"
                    let rows = try Row.fetchCursor(db, sql: sql)
                    let copies = try Row.fetchCursor(copyDB, sql: sql)
                    while let row = try rows.next() {
                        guard let copied = try copies.next(), copied == row else { throw Self.differs }
                    }
                    guard try copies.next() == nil else { throw Self.differs }
                }
            }
        }
    }

    private static var differs: JournalError {
        .other(reason: tr("The journal's copy did not read back the same as the journal, so Flourish left the journal as it was."))
    }
}
