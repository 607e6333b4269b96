import GRDB

/// The journal's schema, as named, append-only migrations. Never edit a shipped migration:
/// add a new one, so every journal on every machine upgrades the same way.
enum JournalSchema {
    /// Every Flourish journal has this one applied; a database without it is not a journal.
    static let firstMigration = "v1: entry"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(firstMigration) { db in
            try db.create(table: "entry") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull().defaults(to: "")
                table.column("body", .text).notNull().defaults(to: "")
                table.column("mood", .integer).notNull().check { $0 >= 0 && $0 <= 5 }
                table.column("created_at", .datetime).notNull()
                // Room for where the person was; filled only with their consent.
                table.column("latitude", .double)
                table.column("longitude", .double)
                table.column("accuracy", .double)
            }
            try db.create(index: "entry_by_created_at", on: "entry", columns: ["created_at", "id"])
        }
        return migrator
    }
}
