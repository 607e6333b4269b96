import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Every Daylio file under Tests/Fixtures/Daylio (CSV exports in each layout and several
/// languages, with and without header, BOM, CRLF, no final newline, fewer fields, re-saved by a
/// spreadsheet; backups built by `make-backups.py`) is imported into a real journal and every
/// field of every entry is compared with the file's `.expected.json`, written by hand: title,
/// body, mood, created date and time, tags; then the same file again adds nothing.
final class DaylioFixtureTests: XCTestCase {
    private let folder = TemporaryFolder()

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/Daylio").standardized

    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    static func fixtureNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
            .filter { $0.hasSuffix(".csv") || $0.hasSuffix(".daylio") }.sorted()
    }

    /// Each entry as the journal file holds it, in the order imported, its tags by name.
    private func storedEntries(_ path: String) throws -> [[String: Any]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT title, body, mood, created_at, uuid, updated_at, latitude,
                       (SELECT group_concat(name, char(31)) FROM (SELECT tag.name FROM entry_tag JOIN tag ON tag.id = tag_id
                        WHERE entry_id = entry.id ORDER BY tag.name)) AS tags
                FROM entry ORDER BY id
                """).map { row in
                ["title": row["title"] as String, "body": row["body"] as String, "mood": row["mood"] as Int,
                 "created_at": row["created_at"] as String, "uuid": row["uuid"] as String,
                 "never edited": (row["updated_at"] as String?) == nil, "no location": (row["latitude"] as Double?) == nil,
                 "tags": ((row["tags"] as String?) ?? "").split(separator: "\u{1F}").map(String.init).sorted()]
            }
        }
    }

    /// "2023-05-14T20:15:00.000Z" as the journal stores it: "2023-05-14 20:15:00.000".
    private func stored(_ iso: String) -> String {
        String(iso.dropLast()).replacingOccurrences(of: "T", with: " ")
    }

    func testTheFixtureFolderHoldsEveryKindOfFileWithWhatEachShouldGive() throws {
        let names = try Self.fixtureNames()
        XCTAssertGreaterThanOrEqual(names.filter { $0.hasSuffix(".csv") }.count, 12, "\(names)")
        XCTAssertGreaterThanOrEqual(names.filter { $0.hasSuffix(".daylio") }.count, 2, "\(names)")
        for name in names {
            let expected = (name as NSString).deletingPathExtension + ".expected.json"
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.fixtures.appendingPathComponent(expected).path), "\(name) has \(expected)")
        }
        let bytes = { (name: String) in try Data(contentsOf: Self.fixtures.appendingPathComponent(name)) }
        XCTAssertTrue(try bytes("pl-older.csv").starts(with: [0xEF, 0xBB, 0xBF]), "a byte order mark")
        XCTAssertNotEqual(try bytes("pl-older.csv").last, 0x0A, "no newline at the end")
        XCTAssertTrue(try String(decoding: bytes("en-current.csv"), as: UTF8.self).contains("\r\n"), "CRLF")
        XCTAssertFalse(try String(decoding: bytes("en-older.csv"), as: UTF8.self).contains("\r"), "LF")
    }

    func testEveryFixtureArrivesWholeAndASecondImportAddsNothing() throws {
        let names = try Self.fixtureNames()
        XCTAssertFalse(names.isEmpty)
        for name in names {
            try check(name)
        }
    }

    private func check(_ name: String) throws {
        let path = Self.fixtures.appendingPathComponent(name).path
        let expectedPath = Self.fixtures.appendingPathComponent((name as NSString).deletingPathExtension + ".expected.json").path
        let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: expectedPath))) as? [String: Any])
        let file: ImportFile
        do {
            file = try ImportFile.read(path: path, calendar: Self.utc)
        } catch {
            return XCTFail("\(name): \((error as? ImportProblem)?.message ?? "\(error)")")
        }
        guard case .daylio(let export) = file else { return XCTFail("\(name) is read as Daylio") }
        XCTAssertEqual(export.headerMissing, expected["header_missing"] as? Bool, name)
        XCTAssertEqual(export.photos, expected["photos"] as? Int, name)
        XCTAssertEqual(export.photosLeftBehind, expected["photos_left_behind"] as? Int ?? 0, name)
        XCTAssertEqual(export.voiceNotesNotImported, expected["voice_notes"] as? Int, name)
        let moods = try XCTUnwrap(expected["moods"] as? [[Any]])
        XCTAssertEqual(export.moods.map(\.name), moods.map { $0[0] as? String ?? "" }, name)
        XCTAssertEqual(export.moods.map(\.count), moods.map { $0[1] as? Int ?? -1 }, name)
        XCTAssertEqual(export.moods.map(\.proposed.rawValue), moods.map { $0[2] as? Int ?? -1 }, "\(name): proposals")

        let journal = try JournalStore(path: folder.file("\(name).sqlite"))
        let entries = export.entries()
        XCTAssertEqual(Set(entries.map(\.uuid)).count, entries.count, "\(name): each entry its own identity")
        let receipt = try journal.importEntries(entries)
        let wanted = try XCTUnwrap(expected["entries"] as? [[String: Any]])
        XCTAssertEqual(receipt.entryIDs.count, wanted.count, name)
        let saved = try storedEntries(journal.path)
        XCTAssertEqual(saved.count, wanted.count, name)
        for (index, (entry, want)) in zip(saved, wanted).enumerated() {
            let at = "\(name), entry \(index + 1)"
            XCTAssertEqual(entry["title"] as? String, want["title"] as? String, at)
            XCTAssertEqual(entry["body"] as? String, want["body"] as? String, at)
            XCTAssertEqual(entry["mood"] as? Int, want["mood"] as? Int, at)
            XCTAssertEqual(entry["created_at"] as? String, stored(want["created_at"] as? String ?? ""), at)
            XCTAssertEqual(entry["tags"] as? [String], (want["tags"] as? [String])?.sorted(), at)
            XCTAssertEqual((entry["uuid"] as? String)?.count, 36, at)
            XCTAssertEqual(entry["never edited"] as? Bool, true, at)
            XCTAssertEqual(entry["no location"] as? Bool, true, at)
        }

        // The same file again: every entry is there already.
        guard case .daylio(let again) = try ImportFile.read(path: path, calendar: Self.utc) else { return XCTFail(name) }
        XCTAssertEqual(try journal.importSummary(again.entries()).adding, 0, "\(name): nothing new the second time")
        XCTAssertEqual(try journal.importEntries(again.entries()).entryIDs, [], name)
        XCTAssertEqual(try journal.count(), wanted.count, name)
    }
}
