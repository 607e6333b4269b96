import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Journals made by each released schema, kept under Tests/Fixtures, open and upgrade without
/// losing a byte. `journal-v1.sqlite` was written by Flourish's v1 store (seven entries: a
/// location, emoji, right-to-left and combining text, a long body, two on one day).
final class MigrationTests: XCTestCase {
    private let folder = TemporaryFolder()

    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures").standardized

    /// A copy of the fixture to work on: the fixture itself is never opened for writing.
    private func copy(_ name: String) throws -> String {
        let path = folder.file(name)
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent(name).path, toPath: path)
        chmod(path, 0o600)
        return path
    }

    private let v1Columns = ["id", "title", "body", "mood", "created_at", "latitude", "longitude", "accuracy"]

    /// Each v1 column of every entry as SQLite stores it, with its storage class.
    private func v1Values(_ path: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        let selection = v1Columns.map { "typeof(\($0)) || ':' || quote(\($0))" }.joined(separator: ", ")
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT \(selection) FROM entry ORDER BY id").map { row in
                (0..<row.count).map { row[$0] as String }
            }
        }
    }

    func testAV1JournalUpgradesKeepingEveryEntryByteForByte() throws {
        let path = try copy("journal-v1.sqlite")
        let before = try v1Values(path)
        XCTAssertEqual(before.count, 7)

        let store = try JournalStore(path: path)
        XCTAssertEqual(try v1Values(path), before, "every v1 column of every entry is unchanged")
        let entries = try store.entries(ids: try store.entryIDs())
        XCTAssertEqual(entries.count, 7)
        XCTAssertEqual(Set(entries.map(\.uuid)).count, 7, "each entry gets its own uuid")
        for entry in entries {
            let uuid = try XCTUnwrap(UUID(uuidString: entry.uuid), entry.uuid)
            XCTAssertEqual(entry.uuid, uuid.uuidString.lowercased())
            XCTAssertEqual(Array(entry.uuid)[14], "4", "a version 4 (random) UUID")
            XCTAssertTrue("89ab".contains(Array(entry.uuid)[19]), "the RFC 4122 variant")
            XCTAssertNil(entry.updatedAt)
        }
        XCTAssertEqual(entries.first { $0.title == "שלום עולם" }?.location,
                       Location(latitude: -33.8688, longitude: 151.2093, accuracy: 2500))

        let queue = try DatabaseQueue(path: path)
        try queue.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"),
                           ["v1: entry", "v2: entry uuid and updated_at"])
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
            XCTAssertTrue(try db.indexes(on: "entry").contains { $0.name == "entry_by_created_at" })
            XCTAssertTrue(try db.indexes(on: "entry").contains { $0.isUnique && $0.columns == ["uuid"] })
            let uuid = try db.columns(in: "entry").first { $0.name == "uuid" }
            XCTAssertEqual(uuid?.isNotNull, true)
        }
        try queue.close()

        // The uuids are kept across reopening: given once, by the migration.
        let reopened = try JournalStore(path: path)
        XCTAssertEqual(Set(try reopened.entries(ids: try reopened.entryIDs()).map(\.uuid)), Set(entries.map(\.uuid)))
        XCTAssertEqual(try v1Values(path), before)
    }

    func testAfterTheUpgradeNewIdsContinueFromTheOldHighWaterMark() throws {
        let path = try copy("journal-v1.sqlite")
        let store = try JournalStore(path: path)
        let saved = try store.save(try EntryDraft(title: "after", mood: .okay).validated().get(), createdAt: Date())
        XCTAssertEqual(saved.id, 8)
        XCTAssertEqual(try store.position(of: saved.id), 0)
    }
}
