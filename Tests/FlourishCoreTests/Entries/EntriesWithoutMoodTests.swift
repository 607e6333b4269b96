import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// An entry may come without a mood (imported from a journal that has none): it is kept with
/// none (NULL, never a made-up mood), an edit may leave it so, and everything that reads moods
/// takes "no mood" as a state of its own: the search's "No mood", Insights counting it apart,
/// exports writing null or nothing, import of those exports, and sync.
final class EntriesWithoutMoodTests: XCTestCase {
    private let folder = TemporaryFolder()

    private var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    private func entry(_ title: String, _ mood: Mood?, tags: Set<Int64> = []) -> NewEntry {
        NewEntry(title: title, body: "", mood: mood, tagIDs: tags)
    }

    /// Each entry's stored mood, as SQLite keeps it ("NULL" for none), by title.
    private func storedMoods(_ path: String) throws -> [String: String] {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT title, quote(mood) FROM entry").map { ($0[0], $0[1]) })
        }
    }

    func testAnEntryWithoutAMoodIsKeptWithNoneAndAnEditMayLeaveItSoOrGiveItOne() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        let saved = try store.save(entry("Imported", nil), createdAt: Date(timeIntervalSince1970: 1_000))
        XCTAssertNil(saved.mood)
        XCTAssertEqual(try storedMoods(path), ["Imported": "NULL"], "stored as NULL: no mood made up")
        XCTAssertNil(try JournalStore(path: path).entries(ids: [saved.id]).first?.mood, "read back without one")

        // The form asks for a mood; the Edit page of an entry without one does not.
        var draft = EntryDraft(title: "Imported, edited")
        XCTAssertEqual(draft.problems(), [.missingMood])
        XCTAssertEqual(draft.problems(requiringMood: false), [])
        let edited = try store.update(id: saved.id, with: try draft.validated(requiringMood: false).get(), updatedAt: Date(timeIntervalSince1970: 2_000))
        XCTAssertNil(edited.mood)
        XCTAssertEqual(try storedMoods(path), ["Imported, edited": "NULL"])
        draft.mood = .reallyGood
        _ = try store.update(id: saved.id, with: try draft.validated(requiringMood: false).get(), updatedAt: Date(timeIntervalSince1970: 3_000))
        XCTAssertEqual(try store.entries(ids: [saved.id]).first?.mood, .reallyGood, "given one on the Edit page")
        XCTAssertEqual(store.check(), .healthy)
    }

    func testTheMoodsCheckStillRefusesANumberThatIsNoMood() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        _ = try store.save(entry("One", .okay), createdAt: Date(timeIntervalSince1970: 1_000))
        store.close()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        XCTAssertThrowsError(try queue.write { db in try db.execute(sql: "UPDATE entry SET mood = 6") }, "6 is no mood")
        XCTAssertThrowsError(try queue.write { db in try db.execute(sql: "UPDATE entry SET mood = -1") })
        try queue.write { db in try db.execute(sql: "UPDATE entry SET mood = NULL") }
        try queue.read { db in
            XCTAssertEqual(try db.columns(in: "entry").first { $0.name == "mood" }?.isNotNull, false)
            XCTAssertEqual(try db.columns(in: "entry_version").first { $0.name == "mood" }?.isNotNull, false)
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
        }
    }

    func testTheSearchFindsEntriesWithoutAMoodThroughTheirOwnChoice() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let okay = try store.save(entry("walk okay", .okay), createdAt: Date(timeIntervalSince1970: 1_000))
        _ = try store.save(entry("walk meh", .meh), createdAt: Date(timeIntervalSince1970: 2_000))
        let none = try store.save(entry("walk none", nil), createdAt: Date(timeIntervalSince1970: 3_000))
        var query = JournalQuery()
        query.withoutMood = true
        XCTAssertEqual(try store.matches(query), [none.id], "“No mood” alone: only them")
        query.moods = [.okay]
        XCTAssertEqual(Set(try store.matches(query)), [okay.id, none.id], "beside a mood: either")
        query.withoutMood = false
        XCTAssertEqual(try store.matches(query), [okay.id], "a mood alone never finds them")
        XCTAssertEqual(try store.matches(JournalQuery(text: "walk")).count, 3, "words find them as any other")
        query = JournalQuery(text: "walk")
        query.withoutMood = true
        XCTAssertEqual(try store.matches(query), [none.id])
        XCTAssertEqual(try store.search(query), [none.id])
    }

    func testInsightsCountThemApartAndLeaveThemOutOfEveryAverageAndChart() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let tag = try store.createTag(named: "garden")
        let day = 86_400.0, start = 1_767_225_600.0 + 12 * 3_600 // 1 January 2026, noon UTC
        for offset in 0..<5 { _ = try store.save(entry("good \(offset)", .theBest, tags: [tag.id]), createdAt: Date(timeIntervalSince1970: start + Double(offset) * 60)) }
        _ = try store.save(entry("no mood, same day", nil, tags: [tag.id]), createdAt: Date(timeIntervalSince1970: start + 3_600))
        _ = try store.save(entry("no mood, next day", nil, tags: [tag.id]), createdAt: Date(timeIntervalSince1970: start + day))
        let now = Date(timeIntervalSince1970: start + 10 * day)
        let insights = try store.insights(for: .year(2026), now: now, calendar: utc)
        XCTAssertEqual(insights.withoutMood, 2, "“2 entries without a mood”")
        XCTAssertEqual(insights.moodCounts, [5, 0, 0, 0, 0, 0], "no mood counted as a mood")
        XCTAssertEqual(insights.total.count, 5, "left out of the averages")
        XCTAssertEqual(insights.days.map(\.mood.count), [5], "the chart: only the day with moods")
        XCTAssertEqual(insights.tags.first?.with.count, 5, "a tag's mood only from entries with one")
        let first = Insights.Day(year: 2026, month: 1, day: 1).number, second = Insights.Day(year: 2026, month: 1, day: 2).number
        XCTAssertEqual(Set(insights.pixelDays.keys), [first])
        XCTAssertEqual(insights.pixelDaysWithoutMood, [second], "written, with no mood: a day of its own")
        XCTAssertEqual(insights.streaks.longest, 2, "still days written, for the streaks")
        XCTAssertEqual(try store.insights(for: .year(2025), now: now, calendar: utc).withoutMood, 0)
    }

    func testAMeasuresValuesOnEntriesWithoutAMoodCountButStayOutOfTheMoodsByBand() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let sleep = try store.createMeasure(MeasureDefinition(name: "Sleep", kind: .scale))
        let start = 1_767_225_600.0 + 12 * 3_600
        _ = try store.save(NewEntry(title: "Good", body: "", mood: .theBest, measures: [sleep.id: 4]), createdAt: Date(timeIntervalSince1970: start))
        _ = try store.save(NewEntry(title: "Imported", body: "", mood: nil, measures: [sleep.id: 4]), createdAt: Date(timeIntervalSince1970: start + 86_400))
        let insight = try XCTUnwrap(try store.measureInsights(for: .year(2026), now: Date(timeIntervalSince1970: start + 10 * 86_400), calendar: utc).first)
        XCTAssertEqual(insight.count, 2, "both values count")
        XCTAssertEqual(insight.days.count, 2, "each on its day")
        XCTAssertEqual(insight.bands[3].mood.count, 1, "the mood by band only from the entry with one")
    }

    func testExportsWriteNullOrNothingAndTheJSONComesBackWithoutAMood() throws {
        let path = folder.file("from.sqlite")
        let store = try JournalStore(path: path)
        _ = try store.save(entry("With", .meh), createdAt: Date(timeIntervalSince1970: 1_763_000_000))
        _ = try store.save(entry("Without", nil), createdAt: Date(timeIntervalSince1970: 1_763_000_060))

        let json = folder.file("journal.json")
        _ = try store.export(.json, to: json, calendar: utc)
        let text = try String(contentsOfFile: json, encoding: .utf8)
        let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let entries = try XCTUnwrap(document?["entries"] as? [[String: Any]])
        let without = try XCTUnwrap(entries.first { $0["title"] as? String == "Without" })
        XCTAssertTrue(without["mood"] is NSNull, "\"mood\": null, written, not left out")
        XCTAssertTrue(without["mood_title"] is NSNull)
        XCTAssertEqual(entries.first { $0["title"] as? String == "With" }?["mood"] as? Int, 3)

        let csv = folder.file("journal.csv")
        _ = try store.export(.csv, to: csv, calendar: utc)
        let records = try CSV.records(try String(contentsOfFile: csv, encoding: .utf8)).map(\.fields)
        XCTAssertEqual(records.first { $0.contains("Without") }?[3...4], ["", ""], "empty in CSV")
        XCTAssertEqual(records.first { $0.contains("With") }?[3...4], ["3", "meh"])

        let markdown = folder.file("journal.md")
        _ = try store.export(.markdown, to: markdown, calendar: utc)
        let written = try String(contentsOfFile: markdown, encoding: .utf8)
        XCTAssertTrue(written.contains("### 02:14\n\n**Without**"), written)
        XCTAssertTrue(written.contains("### 02:13 · meh\n\n**With**"), written)

        // Imported into an empty journal: still without one, and said before it is.
        guard case .flourish(let read, let tags, _, _) = try ImportFile.read(path: json, calendar: utc) else { return XCTFail("not Flourish's") }
        XCTAssertEqual(read.withoutMood, 1)
        let target = folder.file("to.sqlite")
        let other = try JournalStore(path: target)
        _ = try other.importEntries(read, tags: tags)
        XCTAssertEqual(try storedMoods(target), ["With": "3", "Without": "NULL"])
        // A number that is no mood is refused in words, and nothing is imported.
        try Data(text.replacingOccurrences(of: "\"mood\":null", with: "\"mood\":9").utf8).write(to: URL(fileURLWithPath: json))
        XCTAssertThrowsError(try ImportFile.read(path: json, calendar: utc)) { error in
            XCTAssertTrue((error as? ImportProblem)?.message.contains("its mood 9 is not one of 0 (the best) to 5 (the worst).") ?? false, "\(error)")
        }
    }

    func testAnEntryWithoutAMoodTravelsBySyncAndAnEarlierVersionKeepsNone() throws {
        let place = FolderPlace(path: folder.file("Flourish"))
        let laptop = try SyncMachine(folder.file("laptop.sqlite")), desktop = try SyncMachine(folder.file("desktop.sqlite"))
        let saved = try laptop.store.save(entry("Imported on the laptop", nil), createdAt: Date(timeIntervalSince1970: 1_000))
        (laptop.sync, _) = try JournalSync.setUp(laptop.store, at: place, passphrase: "a long sync passphrase", cost: .interactive)
        try laptop.syncNow()
        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: place, passphrase: "a long sync passphrase", cost: .interactive)
        try desktop.syncNow()
        XCTAssertEqual(try desktop.entry(saved.uuid)?.mood, .some(nil), "arrived, without a mood")
        XCTAssertEqual(try laptop.contents(), try desktop.contents())

        // Edited on both while apart, one giving it a mood: the loser, without one, is kept.
        let id = try XCTUnwrap(try desktop.entry(saved.uuid)).id
        _ = try laptop.store.update(id: saved.id, with: NewEntry(title: "Laptop: still none", body: "", mood: nil),
                                    updatedAt: Date(timeIntervalSince1970: 5_000))
        _ = try desktop.store.update(id: id, with: NewEntry(title: "Desktop: okay", body: "", mood: .okay),
                                     updatedAt: Date(timeIntervalSince1970: 6_000))
        try laptop.syncNow()
        try desktop.syncNow()
        try laptop.syncNow()
        XCTAssertEqual(try laptop.entry(saved.uuid)?.mood, .okay, "the later edit wins")
        let kept = try laptop.store.earlierVersions(of: saved.uuid)
        XCTAssertEqual(kept.map(\.title), ["Laptop: still none"])
        XCTAssertEqual(kept.first?.mood, .some(nil), "kept without a mood")
        XCTAssertEqual(try desktop.store.earlierVersions(of: saved.uuid).map(\.mood), [nil])
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
    }
}
