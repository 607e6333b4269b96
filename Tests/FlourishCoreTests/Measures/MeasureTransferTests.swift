import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Measures through export and import: the JSON lists the definitions at the top and each
/// entry's values, CSV gives each a column, Markdown a line, and Flourish's own export comes
/// back identical.
final class MeasureTransferTests: XCTestCase {
    let folder = TemporaryFolder()
    private let utc: Calendar = { var c = Calendar(identifier: .gregorian); c.timeZone = TimeZone(identifier: "UTC")!; return c }()
    private let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// Three measures with values, one without, on three entries (one with none).
    private func journal(_ name: String) throws -> (JournalStore, [String: Measure]) {
        let store = try JournalStore(path: folder.file(name))
        var measures: [String: Measure] = [:]
        for definition in [MeasureDefinition(name: "Sleep", kind: .number, unit: "hours", range: 0...24),
                           MeasureDefinition(name: "Energy", kind: .scale),
                           MeasureDefinition(name: "Steps", kind: .number),
                           MeasureDefinition(name: "Pain", kind: .scale)] {
            measures[definition.name] = try store.createMeasure(definition)
        }
        let (sleep, energy, steps) = (measures["Sleep"]!.id, measures["Energy"]!.id, measures["Steps"]!.id)
        for (index, (title, values)) in [("Rested", [sleep: 8.25, energy: 4, steps: 12_000]), ("Tired", [sleep: 5, energy: 1]),
                                         ("Untracked", [:])].enumerated() {
            _ = try store.save(try EntryDraft(title: title, mood: .okay, measures: values).validated().get(),
                               createdAt: Date(timeIntervalSince1970: 1_780_000_000 + Double(index) * 86_400))
        }
        return (store, measures)
    }

    private func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func testTheJSONExportListsTheMeasuresAndComesBackIdentical() throws {
        let (store, measures) = try journal("from.sqlite")
        let path = folder.file("journal.json")
        _ = try store.export(.json, to: path, calendar: utc, now: now)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let listed = try XCTUnwrap(document?["measures"] as? [[String: Any]])
        XCTAssertEqual(listed.map { $0["name"] as? String }, ["Sleep", "Energy", "Steps", "Pain"], "in the journal's order, unused ones too")
        XCTAssertEqual(listed[0]["uuid"] as? String, measures["Sleep"]?.uuid)
        XCTAssertEqual(listed[0]["unit"] as? String, "hours")
        XCTAssertEqual(listed[0]["highest"] as? Double, 24)
        XCTAssertEqual(listed[1]["kind"] as? String, "scale")
        let entries = try XCTUnwrap(document?["entries"] as? [[String: Any]])
        XCTAssertEqual(entries[0]["measures"] as? [String: Double], ["Sleep": 8.25, "Energy": 4, "Steps": 12_000])
        XCTAssertNil(entries[2]["measures"], "an entry without values has no measures object")

        guard case .flourish(let read, let tags, let brought, _) = try ImportFile.read(path: path) else { return XCTFail("Flourish JSON") }
        XCTAssertEqual(brought.count, 4)
        let fresh = try JournalStore(path: folder.file("to.sqlite"))
        let receipt = try fresh.importEntries(read, tags: tags, measures: brought)
        XCTAssertEqual(receipt.measureIDs.count, 4)
        XCTAssertEqual(try fresh.measures().map { [$0.uuid, $0.name] }, try store.measures().map { [$0.uuid, $0.name] },
                       "the same measures, identities and order")
        let again = folder.file("again.json")
        _ = try fresh.export(.json, to: again, calendar: utc, now: now)
        XCTAssertEqual(try text(again), try text(path), "exported again, the same file")

        XCTAssertEqual(try fresh.importEntries(read, tags: tags, measures: brought).measureIDs, [], "imported twice, nothing new")
        XCTAssertEqual(try fresh.measures().count, 4)
    }

    func testAnImportFindsTheJournalsMeasuresByNameAndUndoTakesBackOnlyWhatItMade() throws {
        let (store, _) = try journal("from.sqlite")
        let path = folder.file("journal.json")
        _ = try store.export(.json, to: path, calendar: utc, now: now)
        guard case .flourish(let read, let tags, let brought, _) = try ImportFile.read(path: path) else { return XCTFail() }
        let other = try JournalStore(path: folder.file("other.sqlite"))
        let sleep = try other.createMeasure(MeasureDefinition(name: "SLEEP", kind: .number))
        let receipt = try other.importEntries(read, tags: tags, measures: brought)
        XCTAssertEqual(try other.measures().map(\.name), ["SLEEP", "Energy", "Steps", "Pain"], "Sleep is the journal's own")
        let rested = try XCTUnwrap(try other.entries(ids: try other.entryIDs()).first { $0.title == "Rested" })
        XCTAssertEqual(rested.measures[sleep.id], 8.25)
        try other.undoImport(receipt)
        XCTAssertEqual(try other.measures().map(\.name), ["SLEEP"], "the measures it made go with it; the journal's own stays")
    }

    func testCSVGivesEachMeasureAColumnAndMarkdownALine() throws {
        let (store, _) = try journal("from.sqlite")
        let csv = folder.file("journal.csv")
        _ = try store.export(.csv, to: csv, calendar: utc, now: now)
        let lines = try text(csv).split(separator: "\r\n").map(String.init)
        XCTAssertTrue(lines[0].hasSuffix("latitude,longitude,Sleep,Energy,Steps,Pain"), lines[0])
        XCTAssertTrue(lines[1].hasSuffix(",,,8.25,4,12000,"), lines[1])
        XCTAssertTrue(lines[2].hasSuffix(",,,5,1,,"), lines[2])
        XCTAssertTrue(lines[3].hasSuffix(",,,,,,"), lines[3])

        let markdown = folder.file("journal.md")
        _ = try store.export(.markdown, to: markdown, calendar: utc, now: now)
        let written = try text(markdown)
        XCTAssertTrue(written.contains("\n**Rested**\n\nSleep: 8.25 hours · Energy: 4 of 5 · Steps: 12000\n"), written)
        XCTAssertTrue(written.contains("\n**Tired**\n\nSleep: 5 hours · Energy: 1 of 5\n"), written)
        XCTAssertFalse(written.contains("Pain"), "a measure without values says nothing")
    }

    @MainActor
    func testAfterAnImportTheFormsKnowTheMeasuresItMade() throws {
        let (store, _) = try journal("from.sqlite")
        let path = folder.file("journal.json")
        _ = try store.export(.json, to: path, calendar: utc, now: now)
        guard case .flourish(let read, let tags, let brought, _) = try ImportFile.read(path: path) else { return XCTFail() }
        let model = JournalModel(store: try JournalStore(path: folder.file("to.sqlite")))
        model.load()
        var done = false
        model.importEntries(read, tags: tags, measures: brought) { _ in done = true }
        let deadline = Date().addingTimeInterval(5)
        while (!done || model.measures.count < 4) && Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
        XCTAssertEqual(model.measures.map(\.name), ["Sleep", "Energy", "Steps", "Pain"], "read again with the entries")
    }

    func testAMeasureOfAnUnknownKindIsRefusedWithItsLine() throws {
        let path = folder.file("odd.json")
        try """
            {
              "format": "flourish-journal", "version": 1, "exported_at": "2026-01-01T00:00:00.000Z", "tags": [],
              "measures": [
                {"uuid": "x", "name": "Mood ring", "kind": "colour"}
              ],
              "entries": []
            }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ImportFile.read(path: path)) { error in
            XCTAssertEqual((error as? ImportProblem)?.line, 4)
            XCTAssertEqual((error as? ImportProblem)?.reason, "the measure “Mood ring” is of a kind Flourish does not know (“colour”).")
        }
    }
}

/// Daylio's scales, from the CSV export's `scales` column, come in as measures with their values.
final class DaylioScalesTests: XCTestCase {
    let folder = TemporaryFolder()

    func testTheCSVsScalesColumnBringsMeasuresAndValues() throws {
        let path = folder.file("daylio.csv")
        try """
            full_date,date,weekday,time,mood,activities,scales,note_title,note
            2025-07-27,July 27,Sunday,13:48,Rad,work | walk,Sleep: 4 | Energy: 3,Mood note,Private note text
            2025-07-26,July 26,Saturday,18:20,MEH ,run,sleep: 7.5,,
            2025-07-25,July 25,Friday,08:00,good,,,Quiet,
            2025-07-24,July 24,Thursday,09:00,good,,Stress: high | Pain: 2,Odd,
            2025-07-23,July 23,Wednesday,07:00,good,,"Sleep Quality:\u{00A0}8/10 points | Sleep Time:\u{00A0}7:30 | Awake mid-sleep:\u{00A0}1:00",Daylio's own,
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let file = try ImportFile.read(path: path, calendar: DaylioFixtureTests.utc)
        guard case .daylio(let export) = file else { return XCTFail("a Daylio CSV") }
        XCTAssertEqual(file.measures.map(\.definition.name), ["Sleep", "Energy", "Pain", "Sleep Quality", "Sleep Time", "Awake mid-sleep"],
                       "in the order met, one per name in any case")
        XCTAssertEqual(file.measures.map(\.definition.unit), ["", "", "", "", "hours", "hours"], "a time is in hours")
        let journal = try JournalStore(path: folder.file("j.sqlite"))
        let receipt = try journal.importEntries(export.entries(), tags: [], measures: file.measures)
        XCTAssertEqual(receipt.entryIDs.count, 5)
        let measures = Dictionary(uniqueKeysWithValues: try journal.measures().map { ($0.name, $0.id) })
        let entries = Dictionary(uniqueKeysWithValues: try journal.entries(ids: try journal.entryIDs()).map { ($0.title, $0) })
        XCTAssertEqual(entries["Mood note"]?.measures, [measures["Sleep"]!: 4, measures["Energy"]!: 3])
        XCTAssertEqual(entries[""]?.measures, [measures["Sleep"]!: 7.5])
        XCTAssertEqual(entries["Quiet"]?.measures, [:])
        XCTAssertEqual(entries["Odd"]?.measures, [measures["Pain"]!: 2], "a category's label is no number: left out")
        XCTAssertEqual(entries["Daylio's own"]?.measures, [measures["Sleep Quality"]!: 8, measures["Sleep Time"]!: 7.5, measures["Awake mid-sleep"]!: 1],
                       "“8/10 points” is 8; “7:30” is 7.5 hours")
    }

    func testTheScalesFixtureStillImportsItsEntriesAndNowItsSleep() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fixtures/Daylio/en-scales.csv")
        let file = try ImportFile.read(path: fixture.standardized.path, calendar: DaylioFixtureTests.utc)
        guard case .daylio(let export) = file else { return XCTFail() }
        XCTAssertEqual(export.entries().first { $0.title == "Mood note" }?.measures, ["Sleep": 4])
    }
}
