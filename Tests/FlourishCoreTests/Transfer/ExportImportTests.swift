import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Export to JSON, CSV and Markdown and import from Daylio and Flourish, on real files: a JSON
/// export imported into an empty journal gives back every field; CSV is read back by Python's
/// csv module; Daylio files in both header forms with every awkward case arrive whole; a bad
/// line is named and nothing is imported; importing twice adds nothing; undo takes it back.
final class ExportImportTests: XCTestCase {
    let folder = TemporaryFolder()

    var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// A journal with the awkward cases: text with commas, quotes, line breaks, emoji and
    /// right-to-left script, a location, an edited entry, a tag on no entry, times to the
    /// millisecond (.999 does not survive a trip through a double of seconds unrounded).
    private func awkwardJournal(_ name: String) throws -> JournalStore {
        let store = try JournalStore(path: folder.file(name))
        let work = try XCTUnwrap(try store.tags().first { $0.name == "work" })
        let hiking = try store.createTag(named: "Hiking 🥾")
        _ = try store.createTag(named: "Unused")
        let base = Date(timeIntervalSince1970: 1_763_000_000.999)
        _ = try store.save(try EntryDraft(title: "Commas, \"quotes\"", body: "Line one,\nline \"two\"\nthree", mood: .theBest,
                                          tagIDs: [work.id, hiking.id]).validated().get(), createdAt: base)
        _ = try store.save(try EntryDraft(title: "שלום 👋🏽", body: "", mood: .theWorst).validated().get(), createdAt: base.addingTimeInterval(3_600.5))
        let located = try EntryDraft(title: "Located", body: "Café", mood: .okay,
                                     location: Location(latitude: 52.520008, longitude: 13.404954, accuracy: 12.5)).validated().get()
        let saved = try store.save(located, createdAt: base.addingTimeInterval(86_400 * 40))
        _ = try store.update(id: saved.id, with: try EntryDraft(title: "Located, edited", body: "Café", mood: .meh, tagIDs: [hiking.id]).validated().get(),
                             updatedAt: base.addingTimeInterval(86_400 * 41 + 0.123))
        return store
    }

    private func storedRows(_ path: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT quote(uuid), quote(title), quote(body), quote(mood), quote(created_at), quote(latitude), quote(longitude),
                       quote(accuracy), quote(updated_at),
                       (SELECT group_concat(name, '|') FROM (SELECT tag.name FROM entry_tag JOIN tag ON tag.id = tag_id
                        WHERE entry_id = entry.id ORDER BY tag.key))
                FROM entry ORDER BY uuid
                """).map { row in (0..<row.count).map { (row[$0] as String?) ?? "NULL" } }
        }
    }

    func testAJSONExportImportedIntoAnEmptyJournalGivesBackTheSameJournal() throws {
        let store = try awkwardJournal("from.sqlite")
        let path = folder.file("journal.json")
        let result = try store.export(.json, to: path, calendar: utc)
        XCTAssertEqual(result.entries, 3)
        XCTAssertEqual(result.files, [path])
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "readable by its owner only")

        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        XCTAssertEqual(document?["format"] as? String, "flourish-journal")
        XCTAssertEqual(document?["version"] as? Int, 1)
        let first = try XCTUnwrap((document?["entries"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["created_at"] as? String, "2025-11-13T02:13:20.999Z")
        XCTAssertEqual(first["mood_title"] as? String, "the best")
        XCTAssertEqual(first["tags"] as? [String], ["Hiking 🥾", "work"])

        guard case .flourish(let entries, let tags, _, _) = try ImportFile.read(path: path) else { return XCTFail("read as Flourish JSON") }
        XCTAssertTrue(tags.contains("Unused"))
        let empty = try JournalStore(path: folder.file("to.sqlite"))
        let summary = try empty.importSummary(entries)
        XCTAssertEqual(summary, ImportSummary(entries: 3, already: 0, tags: 2, newTags: 1), "work is a starter tag already")
        let receipt = try empty.importEntries(entries, tags: tags)
        XCTAssertEqual(receipt.entryIDs.count, 3)
        XCTAssertEqual(try storedRows(empty.path), try storedRows(store.path), "every field, byte for byte")
        XCTAssertEqual(Set(try empty.tags().map(\.name)), Set(try store.tags().map(\.name)), "every tag, the unused one too")

        let again = try empty.importEntries(entries, tags: tags)
        XCTAssertEqual(again.entryIDs, [], "importing the same file twice adds nothing")
        XCTAssertEqual(try empty.importSummary(entries).already, 3)
    }

    func testCSVIsReadBackWholeByPythonsCSVModule() throws {
        let store = try awkwardJournal("csv.sqlite")
        let path = folder.file("journal.csv")
        _ = try store.export(.csv, to: path, calendar: utc)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))))", path]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String]])
        XCTAssertEqual(rows.first, ["date", "time", "weekday", "mood", "mood title", "tags", "title", "body", "latitude", "longitude"])
        XCTAssertEqual(rows.count, 4)
        XCTAssertEqual(rows[1], ["2025-11-13", "02:13", "Thursday", "0", "the best", "Hiking 🥾 | work", "Commas, \"quotes\"",
                                 "Line one,\nline \"two\"\nthree", "", ""])
        XCTAssertEqual(rows[2][6], "שלום 👋🏽")
        XCTAssertEqual(rows[3][4...], ["meh", "Hiking 🥾", "Located, edited", "Café", "52.520008", "13.404954"])
    }

    func testCSVQuotesWhatItMustAndReadsBackWhatItWrote() throws {
        let fields = ["plain", "comma, here", "quote \" here", "line\nbreak", "crlf\r\nbreak", "", "👋🏽 שלום"]
        let text = CSV.record(fields) + CSV.record(["second"])
        XCTAssertTrue(text.hasPrefix("plain,\"comma, here\",\"quote \"\" here\",\"line\nbreak\",\"crlf\r\nbreak\",,👋🏽 שלום\r\n"))
        let records = try CSV.records(text)
        XCTAssertEqual(records.map(\.fields), [fields, ["second"]])
        XCTAssertEqual(records.map(\.line), [1, 4], "a record's line counts the breaks inside the one before")
    }

    func testMarkdownHeadsEachDayAndCanBeOneFileAYear() throws {
        let store = try awkwardJournal("md.sqlite")
        let path = folder.file("journal.md")
        _ = try store.export(.markdown, to: path, calendar: utc)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# Flourish journal\n"))
        XCTAssertTrue(text.contains("\n## Thursday 13 November 2025\n\n### 02:13 · the best · Hiking 🥾, work\n\n**Commas, \"quotes\"**\n\nLine one,\nline \"two\"\nthree\n"), text)
        XCTAssertEqual(text.components(separatedBy: "\n## ").count - 1, 2, "two days")

        let years = folder.file("years")
        try FileManager.default.createDirectory(atPath: years, withIntermediateDirectories: true)
        let result = try store.export(.markdownByYear, to: years, calendar: utc)
        XCTAssertEqual(result.files.map { ($0 as NSString).lastPathComponent }, ["Flourish journal 2025.md"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: years), ["Flourish journal 2025.md"], "no partial file is left")
    }

    func testAFailedOrCancelledExportLeavesNothingAndTouchesNoFileThatWasThere() throws {
        let store = try awkwardJournal("fail.sqlite")
        XCTAssertThrowsError(try store.export(.json, to: folder.file("no such folder/journal.json"))) { error in
            guard case ExportFailure.file(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(path.hasSuffix("no such folder/journal.json"))
        }
        let existing = folder.file("kept.csv")
        try Data("what was there".utf8).write(to: URL(fileURLWithPath: existing))
        XCTAssertThrowsError(try store.export(.csv, to: existing, progress: { _, _ in false })) { error in
            XCTAssertEqual(error as? ExportFailure, .cancelled)
        }
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "what was there")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".part") }, [])
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let path = folder.file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let daylio = """
        full_date,date,weekday,time,mood,activities,note_title,note\r
        2023-05-14,May 14,Sunday,20:15,rad,"work | friends","Big day, finally","Quotes ""here"", commas, and<br>a break<br/>two"\r
        2023-05-14,May 14,Sunday,8:15 am,good,,"",\r
        2023-05-13,May 13,Saturday,11:59 PM,super tired,"Sleep Well | gym",Title,"A note
        across lines &amp; more"\r
        2023-05-12,May 12,Friday,12:05 a.m.,awful,gym,,\r

        """

    func testADaylioExportArrivesWholeWithItsMoodsMappedAndItsActivitiesAsTags() throws {
        guard case .daylio(let export) = try ImportFile.read(path: try write(Self.daylio, "daylio.csv"), calendar: utc) else {
            return XCTFail("read as Daylio")
        }
        XCTAssertEqual(export.moods.map(\.name), ["rad", "good", "super tired", "awful"])
        XCTAssertEqual(export.moods.map(\.count), [1, 1, 1, 1])
        XCTAssertEqual(export.moods.map(\.proposed), [.theBest, .reallyGood, .okay, .theWorst], "a custom name is proposed as okay")
        let entries = export.entries(mapping: ["super tired": .notSoGreat])
        XCTAssertEqual(entries.map(\.mood), [.theBest, .reallyGood, .notSoGreat, .theWorst])
        XCTAssertEqual(entries.map(\.createdAt.iso8601), ["2023-05-14T20:15:00.000Z", "2023-05-14T08:15:00.000Z",
                                                          "2023-05-13T23:59:00.000Z", "2023-05-12T00:05:00.000Z"])
        XCTAssertEqual(entries[0].title, "Big day, finally")
        XCTAssertEqual(entries[0].body, "Quotes \"here\", commas, and\na break\ntwo")
        XCTAssertEqual(entries[0].tags, ["work", "friends"])
        XCTAssertEqual(entries[2].body, "A note\nacross lines & more")
        XCTAssertEqual(entries[2].tags, ["Sleep Well", "gym"])

        let store = try JournalStore(path: folder.file("daylio.sqlite"))
        XCTAssertEqual(try store.importSummary(entries), ImportSummary(entries: 4, already: 0, tags: 4, newTags: 2))
        let receipt = try store.importEntries(entries)
        let saved = try store.entries(ids: receipt.entryIDs)
        XCTAssertEqual(saved.map(\.title), ["Big day, finally", "", "Title", ""])
        let tagNames = Dictionary(uniqueKeysWithValues: try store.tags().map { ($0.id, $0.name) })
        XCTAssertEqual(Set(saved[2].tagIDs.compactMap { tagNames[$0] }), ["Sleep Well", "gym"])
        XCTAssertEqual(Set(saved[0].tagIDs.compactMap { tagNames[$0] }), ["work", "friends"], "the starter tags are used, not doubled")

        // The same file again: every entry is found already there.
        guard case .daylio(let again) = try ImportFile.read(path: try write(Self.daylio, "daylio-again.csv"), calendar: utc) else { return XCTFail() }
        XCTAssertEqual(try store.importSummary(again.entries()).already, 4)
        XCTAssertEqual(try store.importEntries(again.entries()).entryIDs, [])

        // Undo, right after: the entries and the tags the import made go; the starter tags stay.
        try store.undoImport(receipt)
        XCTAssertEqual(try store.count(), 0)
        XCTAssertEqual(Set(try store.tags().map(\.name)).intersection(["Sleep Well", "gym"]), [])
        XCTAssertTrue(try store.tags().contains { $0.name == "work" })
    }

    func testTheOlderDaylioHeaderAndTwelveHourTimes() throws {
        let text = "year,date,weekday,time,mood,activities,note\n2018,30 December,Sunday,9:09 PM,meh,movies,\"Cinema, then home\"\n2018,Dec 31,Monday,12:00 pm,bad,,\n"
        guard case .daylio(let export) = try ImportFile.read(path: try write(text, "old.csv"), calendar: utc) else { return XCTFail() }
        let entries = export.entries()
        XCTAssertEqual(entries.map(\.createdAt.iso8601), ["2018-12-30T21:09:00.000Z", "2018-12-31T12:00:00.000Z"])
        XCTAssertEqual(entries.map(\.mood), [.okay, .notSoGreat])
        XCTAssertEqual(entries[0].body, "Cinema, then home")
        XCTAssertEqual(entries[0].title, "")
    }

    func testABadFileIsRefusedNamingTheLineAndNothingIsImported() throws {
        let cases: [(text: String, line: Int?, contains: String)] = [
            ("full_date,date,weekday,time,mood,activities,note_title,note\n2023-05-14,May 14,Sunday,20:15,rad,,,\n2023-05-13,May 13,Saturday,25:99,rad,,,\n",
             3, "25:99"),
            ("full_date,date,weekday,time,mood,activities,note_title,note\n2023-02-30,Feb 30,Monday,20:15,rad,,,\n", 2, "2023-02-30"),
            ("full_date,date,weekday,time,mood,activities,note_title,note\n2023-05-14,May 14,Sunday,20:15,,,,\n", 2, "mood"),
            ("full_date,date,weekday,time,mood,activities,note_title,note\n2023-05-14,May 14,Sunday,20:15,rad,\"unclosed,,\n", 2, "never closed"),
            ("full_date,date,weekday,time,mood,activities,note_title,note\n2023-05-14,May 14,Sunday,20:15,rad,,,,surplus\n", 2, "fields"),
            ("date,mood,note\n2023-05-14,rad,hello\n", 1, "not a Daylio export"),
            ("{\"format\": \"flourish-journal\", \"version\": 1, \"exported_at\": \"2025-01-01T00:00:00Z\", \"tags\": [],\n \"entries\": [\n"
                + "{\"uuid\": \"a\", \"title\": \"\", \"body\": \"\", \"mood\": 9, \"mood_title\": \"?\", \"created_at\": \"2025-01-01T00:00:00Z\", \"tags\": []}\n]}",
             3, "mood 9"),
            ("{\"format\": \"something else\", \"version\": 1, \"exported_at\": \"\", \"tags\": [], \"entries\": []}", 1, "something else"),
            ("{\"format\": \"flourish-journal\", \"entries\": [", nil, "JSON"),
        ]
        let store = try JournalStore(path: folder.file("bad.sqlite"))
        for (index, (text, line, contains)) in cases.enumerated() {
            XCTAssertThrowsError(try ImportFile.read(path: try write(text, "bad\(index).csv"), calendar: utc), text) { error in
                let problem = error as? ImportProblem
                XCTAssertEqual(problem?.line, line, text)
                XCTAssertTrue(problem?.message.contains(contains) ?? false, problem?.message ?? "\(error)")
                if let line { XCTAssertTrue(problem?.message.hasPrefix("Line \(line): ") ?? false, problem?.message ?? "") }
            }
        }
        XCTAssertEqual(try store.count(), 0)
    }
}
