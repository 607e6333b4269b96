import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Rows edited by hand outside Flourish: each bad one is reported alone, with its reason in
/// words, and never shown as a valid entry; its neighbours read as usual.
final class BadRowTests: XCTestCase {
    let folder = TemporaryFolder()

    /// A journal of `count` good entries, one a second from 1970, and its path.
    private func journal(count: Int, name: String = "j.sqlite") throws -> (String, [Entry]) {
        let path = folder.file(name)
        let store = try JournalStore(path: path)
        let saved = try (0..<count).map {
            try store.save(EntryDraft(title: "good \($0)", body: "body \($0)", mood: .okay).validated().get(),
                           createdAt: Date(timeIntervalSince1970: Double($0)))
        }
        return (path, saved)
    }

    /// Runs `sql` on the file as a hand edit would: check constraints off.
    private func handEdit(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: sql, arguments: arguments)
        }
        try queue.close()
    }

    private func readAll(_ path: String) throws -> EntryBatch {
        let store = try JournalStore(path: path)
        return try store.read(ids: try store.entryIDs())
    }

    func testEachKindOfBadValueMakesOnlyItsRowUnreadable() throws {
        let cases: [(sql: String, reason: String)] = [
            ("UPDATE entry SET created_at = 'garbage' WHERE id = ?", "Its date is not a valid date."),
            ("UPDATE entry SET created_at = '2024-13-45 99:99:99' WHERE id = ?", "Its date is not a valid date."),
            ("UPDATE entry SET created_at = '2024-02-30 10:00:00.000' WHERE id = ?", "Its date is not a valid date."),
            ("UPDATE entry SET mood = 'abc' WHERE id = ?", "Its mood is not one of Flourish’s six moods."),
            ("UPDATE entry SET mood = 9 WHERE id = ?", "Its mood is not one of Flourish’s six moods."),
            ("UPDATE entry SET mood = 2.5 WHERE id = ?", "Its mood is not one of Flourish’s six moods."),
            ("UPDATE entry SET latitude = 'north', longitude = 13.4 WHERE id = ?", "Its place is not a valid location."),
            ("UPDATE entry SET latitude = 52.5 WHERE id = ?", "Its place is not a valid location."),
            ("UPDATE entry SET latitude = 95, longitude = 13.4 WHERE id = ?", "Its place is not a valid location."),
            ("UPDATE entry SET title = x'00ff' WHERE id = ?", "Its title is missing or is not text."),
            ("UPDATE entry SET body = x'00' WHERE id = ?", "Its text is missing or is not text."),
            ("UPDATE entry SET updated_at = 'yesterday' WHERE id = ?", "The date of its last edit is not a valid date."),
        ]
        for (index, (sql, reason)) in cases.enumerated() {
            let (path, saved) = try journal(count: 70, name: "j\(index).sqlite")
            let bad = saved[35]
            try handEdit(path, sql, [bad.id])
            let batch = try readAll(path)
            XCTAssertEqual(batch.unreadable, [UnreadableEntry(id: bad.id, reason: reason)], sql)
            XCTAssertEqual(Set(batch.entries.map(\.id)), Set(saved.map(\.id)).subtracting([bad.id]), sql)
            XCTAssertEqual(batch.entries.first { $0.id == saved[36].id }, saved[36], "a neighbour reads whole: \(sql)")
        }
    }

    func testAMissingTitleIsUnreadableNotEmpty() throws {
        let (path, saved) = try journal(count: 3)
        // NOT NULL is in the schema; a hand edit of the schema itself is what lets a NULL in.
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_master SET sql = replace(sql, '\"title\" TEXT NOT NULL', '\"title\" TEXT') WHERE name = 'entry'")
        }
        try queue.close()
        try handEdit(path, "UPDATE entry SET title = NULL WHERE id = ?", [saved[1].id])
        let batch = try readAll(path)
        XCTAssertEqual(batch.unreadable.map(\.id), [saved[1].id])
        XCTAssertEqual(batch.unreadable.first?.reason, "Its title is missing or is not text.")
        XCTAssertEqual(batch.entries.count, 2)
    }

    func testValidDatesInEveryStoredFormReadAsThemselves() throws {
        let (path, saved) = try journal(count: 1)
        for (text, seconds) in [("2024-02-29 23:59:59.999", 1_709_251_199.999), ("2024-02-29T23:59:59", 1_709_251_199.0),
                                ("2024-02-29 23:59", 1_709_251_140.0)] {
            try handEdit(path, "UPDATE entry SET created_at = ? WHERE id = ?", [text, saved[0].id])
            let entry = try XCTUnwrap(readAll(path).entries.first, text)
            XCTAssertEqual(entry.createdAt.timeIntervalSince1970, seconds, accuracy: 0.0005, text)
        }
    }

    func testAnUnreadableEntryIsNotDeletedOrEditedAsIfItWereValid() throws {
        let (path, saved) = try journal(count: 2)
        try handEdit(path, "UPDATE entry SET mood = 'abc' WHERE id = ?", [saved[0].id])
        let store = try JournalStore(path: path)
        XCTAssertThrowsError(try store.delete(id: saved[0].id)) { error in
            XCTAssertEqual(error as? JournalError, .unreadableEntry)
        }
        XCTAssertEqual(try store.count(), 2, "the unreadable row is left as it is")
    }
}
