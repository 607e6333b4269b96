import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// The store's editing intents on a real file: update, delete (returning what it removed) and
/// restore, each checked against the bytes SQLite holds.
final class JournalEditingTests: XCTestCase {
    private let folder = TemporaryFolder()

    private func entry(_ title: String, _ mood: Mood = .okay, body: String = "", location: Location? = nil,
                       date: Date? = nil) -> NewEntry {
        try! EntryDraft(title: title, body: body, mood: mood, location: location, date: date).validated().get()
    }

    /// Every column of every row, as SQLite stores it, by id.
    private func storedRows(_ path: String) throws -> [Int64: [String: DatabaseValue]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var rows: [Int64: [String: DatabaseValue]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM entry") {
                rows[row["id"]] = Dictionary(uniqueKeysWithValues: zip(row.columnNames, row.databaseValues))
            }
            return rows
        }
    }

    func testEveryEntryGetsARandomUUIDAndNoEditTime() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let first = try store.save(entry("one"), createdAt: Date())
        let second = try store.save(entry("two"), createdAt: Date())
        XCTAssertNotEqual(first.uuid, second.uuid)
        XCTAssertNotNil(UUID(uuidString: first.uuid))
        XCTAssertEqual(first.uuid, first.uuid.lowercased())
        XCTAssertNil(first.updatedAt)
        XCTAssertEqual(try store.entries(ids: [first.id]).first?.uuid, first.uuid)
    }

    func testUpdateChangesTextMoodAndStampsTheEditKeepingIdentityAndDate() throws {
        let path = folder.file("j.sqlite")
        let store = try JournalStore(path: path)
        let created = Date(timeIntervalSince1970: 1_700_000_000.123)
        let saved = try store.save(entry("Tpyo", .meh, body: "old"), createdAt: created)
        let storedDate = try storedRows(path)[saved.id]?["created_at"]
        let edited = Date(timeIntervalSince1970: 1_700_000_500)
        let updated = try store.update(id: saved.id, with: entry("Typo", .theBest, body: "new"), updatedAt: edited)
        XCTAssertEqual(updated.id, saved.id)
        XCTAssertEqual(updated.uuid, saved.uuid)
        XCTAssertEqual(updated.title, "Typo")
        XCTAssertEqual(updated.body, "new")
        XCTAssertEqual(updated.mood, .theBest)
        XCTAssertEqual(updated.updatedAt, edited)
        XCTAssertEqual(try storedRows(path)[saved.id]?["created_at"], storedDate, "an untouched date keeps its bytes")
        XCTAssertEqual(try JournalStore(path: path).entries(ids: [saved.id]).first, updated)
    }

    func testAnEditLeavesTheLocationColumnsAsStored() throws {
        let path = folder.file("j.sqlite")
        let store = try JournalStore(path: path)
        let saved = try store.save(entry("Here"), createdAt: Date())
        // A position without an accuracy, as only a hand edit could leave it.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE entry SET latitude = 1.5, longitude = 2.5, accuracy = NULL WHERE id = ?", arguments: [saved.id])
        }
        try queue.close()
        let location = { (rows: [Int64: [String: DatabaseValue]]) in ["latitude", "longitude", "accuracy"].map { rows[saved.id]?[$0] } }
        let before = location(try storedRows(path))
        _ = try store.update(id: saved.id, with: entry("There", location: Location(latitude: 9, longitude: 9, accuracy: 9)), updatedAt: Date())
        XCTAssertEqual(location(try storedRows(path)), before, "editing never rewrites where the entry was written")
        XCTAssertEqual(before.last, .some(.null))
    }

    func testUpdateWithADateMovesTheEntryInTheOrder() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let old = try store.save(entry("old"), createdAt: Date(timeIntervalSince1970: 1_000))
        let new = try store.save(entry("new"), createdAt: Date(timeIntervalSince1970: 3_000))
        XCTAssertEqual(try store.position(of: old.id), 1)
        _ = try store.update(id: old.id, with: entry("old", date: Date(timeIntervalSince1970: 5_000)), updatedAt: Date())
        XCTAssertEqual(try store.entryIDs(), [old.id, new.id])
        XCTAssertEqual(try store.position(of: old.id), 0)
        XCTAssertEqual(try store.position(of: new.id), 1)
        XCTAssertNil(try store.position(of: 999))
    }

    func testPositionsMatchTheListOrderWithSeveralEntriesAtTheSameTime() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let moment = Date(timeIntervalSince1970: 2_000)
        for index in 0..<5 {
            _ = try store.save(entry("e\(index)"), createdAt: index == 2 ? Date(timeIntervalSince1970: 9_000) : moment)
        }
        for (index, id) in try store.entryIDs().enumerated() {
            XCTAssertEqual(try store.position(of: id), index)
        }
    }

    func testDeleteReturnsWhatItRemovedAndRestorePutsBackTheSameBytes() throws {
        let path = folder.file("j.sqlite")
        let store = try JournalStore(path: path)
        let berlin = Location(latitude: 52.52, longitude: 13.405, accuracy: 50)
        let kept = try store.save(entry("kept"), createdAt: Date(timeIntervalSince1970: 1_000))
        let gone = try store.save(entry("Gone 🌧", .theWorst, body: "Line one\nline two", location: berlin),
                                  createdAt: Date(timeIntervalSince1970: 1_762_985_400.999))
        _ = try store.update(id: gone.id, with: entry("Gone 🌧", .theWorst, body: "Edited\nline two", location: berlin),
                             updatedAt: Date(timeIntervalSince1970: 1_762_999_999.5))
        let before = try storedRows(path)

        let deleted = try store.delete(id: gone.id)
        XCTAssertEqual(deleted.entry.title, "Gone 🌧")
        XCTAssertEqual(deleted.entry.location, berlin)
        XCTAssertEqual(try store.entryIDs(), [kept.id])
        XCTAssertThrowsError(try store.delete(id: gone.id)) { XCTAssertEqual($0 as? JournalError, .entryMissing) }

        let restored = try store.restore(deleted)
        XCTAssertEqual(restored, deleted.entry)
        XCTAssertEqual(try storedRows(path), before, "undo puts back every column exactly")
        XCTAssertEqual(try store.entryIDs(), [gone.id, kept.id])
    }

    func testANewEntryNeverReusesTheIdOfADeletedOne() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let first = try store.save(entry("first"), createdAt: Date())
        let last = try store.save(entry("last"), createdAt: Date())
        _ = try store.delete(id: last.id)
        let next = try store.save(entry("next"), createdAt: Date())
        XCTAssertGreaterThan(next.id, last.id, "undo of the deleted entry must still find its id free")
        XCTAssertGreaterThan(last.id, first.id)
    }

    func testEditingAnEntryThatWasDeletedMeanwhileSaysSo() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let saved = try store.save(entry("here"), createdAt: Date())
        _ = try store.delete(id: saved.id)
        XCTAssertThrowsError(try store.update(id: saved.id, with: entry("there"), updatedAt: Date())) {
            XCTAssertEqual($0 as? JournalError, .entryMissing)
        }
        XCTAssertEqual(try store.count(), 0)
    }
}
