@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Every schema upgrade runs on a locked journal as on a plain one: each released schema's
/// fixture, sealed while still at its own version, upgrades through the encrypting VFS to exactly
/// the rows the same fixture upgrades to in the clear (the schema, and every row of every table,
/// the search index's own tables included).
final class LockedMigrationTests: XCTestCase {
    private let folder = TemporaryFolder()

    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures").standardized

    func testAV1JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(1) }
    func testAV2JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(2) }
    func testAV3JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(3) }
    func testAV4JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(4) }
    func testAV5JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(5) }
    func testAV6JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(6) }
    func testAV7JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(7) }
    func testAV8JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(8) }
    func testAV9JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(9) }
    func testAV10JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(10) }
    func testAV11JournalLockedOpensWithTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(11) }
    func testAV12JournalLockedUpgradesToTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(12) }
    func testAV13JournalLockedOpensWithTheSameRowsAsInTheClear() throws { try assertLockedUpgradeMatchesPlain(13) }

    private func assertLockedUpgradeMatchesPlain(_ version: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let fixture = Self.fixtures.appendingPathComponent("journal-v\(version).sqlite").path
        let name = "journal-v\(version)"
        let original = try JournalFile.immutable(fixture)
        let migrations = try original.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        let uuidsGiven = try original.read { db in try !db.columns(in: "entry").contains { $0.name == "uuid" } }

        // The locked copy, still at the fixture's schema: sealed page by page as it is written.
        let cipher = try XCTUnwrap(JournalCipher.random())
        let locked = folder.file("\(name)-locked.sqlite")
        try JournalFile.vacuum(original, intoNewFile: locked, cipher: cipher)
        try original.close()
        XCTAssertFalse(JournalFile.hasSQLiteHeader(locked), "\(name): the copy is sealed", file: file, line: line)
        let sealedMigrations = try JournalFile.immutable(locked, cipher: cipher).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
        XCTAssertEqual(sealedMigrations, migrations, "\(name): the locked copy is still at its own schema", file: file, line: line)

        let lockedStore = try JournalStore(path: locked, cipher: cipher)
        XCTAssertEqual(lockedStore.check(), .healthy, name, file: file, line: line)
        lockedStore.close()

        let plain = folder.file("\(name)-plain.sqlite")
        try FileManager.default.copyItem(atPath: fixture, toPath: plain)
        chmod(plain, 0o600)
        let plainStore = try JournalStore(path: plain)
        XCTAssertEqual(plainStore.check(), .healthy, name, file: file, line: line)
        plainStore.close()

        for copy in [locked, plain] {
            XCTAssertEqual(JournalFile.size(of: copy + "-wal"), 0, "\(name): closing merged the log", file: file, line: line)
        }
        let titles = try JournalFile.immutable(plain).read { db in try String.fetchAll(db, sql: "SELECT title FROM entry WHERE title != ''") }
        let sealed = try Data(contentsOf: URL(fileURLWithPath: locked))
        XCTAssertFalse(JournalFile.hasSQLiteHeader(locked), "\(name): the upgraded journal is still sealed", file: file, line: line)
        XCTAssertEqual(titles.filter { sealed.range(of: Data($0.utf8)) != nil }, [], "\(name): no title in the clear", file: file, line: line)
        // v1 had no uuid: the upgrade gives each entry a random one, different in each copy.
        let setAside: Set<String> = uuidsGiven ? ["uuid"] : []
        let lockedRows = try everyRow(locked, cipher: cipher, settingAside: setAside)
        let plainRows = try everyRow(plain, cipher: nil, settingAside: setAside)
        XCTAssertEqual(lockedRows["grdb_migrations"]?.last, ["text:'\(JournalSchema.templatesMigration)'"],
                       "\(name): every migration ran on the locked copy", file: file, line: line)
        if uuidsGiven {
            let uuids = try JournalFile.immutable(locked, cipher: cipher).read { db in try String.fetchAll(db, sql: "SELECT uuid FROM entry") }
            XCTAssertEqual(Set(uuids).count, uuids.count, "\(name): each entry its own uuid", file: file, line: line)
            XCTAssertTrue(uuids.allSatisfy { UUID(uuidString: $0) != nil }, "\(name): \(uuids)", file: file, line: line)
        }
        XCTAssertEqual(Set(lockedRows.keys), Set(plainRows.keys), "\(name): the same tables", file: file, line: line)
        for (table, rows) in plainRows.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(lockedRows[table], rows, "\(name): table \(table) is the same locked as in the clear", file: file, line: line)
        }
    }

    /// The schema, and every row of every table but the virtual ones (read through their own
    /// tables), each value with its storage class, in each table's own order; the columns named
    /// in `settingAside` read as their name alone.
    private func everyRow(_ path: String, cipher: JournalCipher?, settingAside: Set<String>) throws -> [String: [[String]]] {
        let queue = try JournalFile.immutable(path, cipher: cipher)
        defer { try? queue.close() }
        return try queue.read { db in
            let schema = "SELECT quote(type), quote(name), quote(tbl_name), quote(sql) FROM sqlite_master ORDER BY type, name"
            var tables = ["sqlite_master": try Row.fetchAll(db, sql: schema).map { row in (0..<row.count).map { row[$0] as String } }]
            let names = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
                """)
            for table in names {
                let selection = try db.columns(in: table).map { column -> String in
                    let name = column.name.quotedDatabaseIdentifier
                    return settingAside.contains(column.name) ? "'\(column.name)'" : "typeof(\(name)) || ':' || quote(\(name))"
                }.joined(separator: ", ")
                tables[table] = try Row.fetchAll(db, sql: "SELECT \(selection) FROM \(table.quotedDatabaseIdentifier)").map { row in
                    (0..<row.count).map { row[$0] as String }
                }
            }
            return tables
        }
    }
}
