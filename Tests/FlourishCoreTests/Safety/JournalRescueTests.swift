import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// `--check` and `--recover`, through the same core functions the command line calls.
final class JournalRescueTests: XCTestCase {
    let folder = TemporaryFolder()

    func testTheCheckCallsAHealthyJournalHealthyAndADamagedOneDamaged() throws {
        let path = folder.file("journal.sqlite")
        try DamagedJournals.journal(at: path, count: 120)
        let healthy = JournalRescue.check(path: path)
        XCTAssertTrue(healthy.healthy)
        XCTAssertEqual(healthy.lines, ["healthy: \(path) (120 entries)"])

        try DamagedJournals.zeroMiddleLeafPage(of: path)
        let before = try DamagedJournals.snapshot(of: folder.path)
        let damaged = JournalRescue.check(path: path)
        XCTAssertFalse(damaged.healthy)
        XCTAssertEqual(damaged.lines.first, "damaged: \(path)")
        XCTAssertGreaterThan(damaged.lines.count, 1, "with what SQLite reported")
        XCTAssertEqual(try DamagedJournals.snapshot(of: folder.path), before)
    }

    func testRecoveryCopiesEveryReadableEntryWhole() throws {
        let path = folder.file("journal.sqlite")
        let saved = try DamagedJournals.journal(at: path, count: 300)
        // Tags on the first and the last entries (those far from the damaged middle page).
        let tagging = try JournalStore(path: path)
        let swim = try tagging.createTag(named: "Swimming")
        let work = try XCTUnwrap(try tagging.tags().first { $0.name == "work" })
        for entry in saved.prefix(3) + saved.suffix(3) { try tagging.setTags([swim.id, work.id], forEntry: entry.id) }
        // Measures too, with values on the same entries.
        let steps = try tagging.createMeasure(MeasureDefinition(name: "Steps", kind: .number))
        let sleep = try tagging.createMeasure(MeasureDefinition(name: "Sleep", kind: .number, unit: "hours", range: 0...24))
        try tagging.moveMeasure(id: sleep.id, to: 0)
        for (index, entry) in (saved.prefix(3) + saved.suffix(3)).enumerated() {
            let draft = EntryDraft(title: entry.title, body: entry.body, mood: entry.mood, tagIDs: [swim.id, work.id],
                                   measures: [sleep.id: Double(index) + 0.5])
            _ = try tagging.update(id: entry.id, with: try draft.validated().get(), updatedAt: entry.createdAt)
        }
        let valued = try tagging.entries(ids: saved.prefix(3).map(\.id) + saved.suffix(3).map(\.id))
        tagging.close()
        try DamagedJournals.zeroMiddleLeafPage(of: path)
        let before = try DamagedJournals.snapshot(of: folder.path)
        let output = folder.file("out/recovered.sqlite")

        let recovery = try JournalRescue.recover(from: path, to: output)
        XCTAssertEqual(try DamagedJournals.snapshot(of: folder.path).filter { $0.key != "out" }, before, "the damaged file is only read")
        XCTAssertEqual(recovery.recovered + recovery.lost, 300, "every entry is either recovered or counted lost")
        XCTAssertGreaterThan(recovery.recovered, 200)
        XCTAssertGreaterThan(recovery.lost, 0)

        let copy = try JournalStore(path: output)
        XCTAssertEqual(copy.check(), .healthy)
        let entries = try copy.entries(ids: try copy.entryIDs())
        XCTAssertEqual(entries.count, recovery.recovered)
        let original = Dictionary(uniqueKeysWithValues: saved.map { ($0.id, $0) })
        let edited = Dictionary(uniqueKeysWithValues: valued.map { ($0.id, $0) })
        for entry in entries {
            XCTAssertEqual(entry.withTags([]), edited[entry.id]?.withTags([]) ?? original[entry.id],
                           "id, identity, words, mood, dates and values as they were")
        }
        XCTAssertEqual(try copy.measures(), [sleep, steps], "the measures, in their order, with their identities")
        XCTAssertEqual(entries.filter { !$0.measures.isEmpty }.count, 6)
        let tags = try copy.tags()
        XCTAssertEqual(tags.first { $0.name == "Swimming" }?.entryCount, 6, "the tags come with their entries")
        XCTAssertEqual(tags.first { $0.name == "work" }?.entryCount, 6)
        XCTAssertEqual(tags.filter { $0.name.lowercased() == "work" }.count, 1, "matched to the starting tag, not doubled")
        XCTAssertThrowsError(try JournalRescue.recover(from: path, to: output), "never over an existing file")
    }
}
