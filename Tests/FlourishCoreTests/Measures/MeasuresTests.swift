import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Measures on a real journal file: their definitions and rules, entries' values through save,
/// edit, delete and undo, the order, and a deleted measure brought back whole.
final class MeasuresTests: XCTestCase {
    let folder = TemporaryFolder()

    private let sleep = MeasureDefinition(name: " Sleep ", kind: .number, unit: " hours ", range: 0...24)
    private let energy = MeasureDefinition(name: "Energy", kind: .scale, unit: "ignored", range: 3...4)

    private func entry(_ title: String, _ values: [Int64: Double]?, store: JournalStore) throws -> Entry {
        try store.save(try EntryDraft(title: title, mood: .okay, measures: values).validated().get(), createdAt: Date())
    }

    func testDefinitionsFollowTheirRulesAndKeepTheirOrder() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        XCTAssertEqual(try store.measures(), [], "a journal starts with none")
        let sleep = try store.createMeasure(self.sleep)
        XCTAssertEqual(sleep.definition, MeasureDefinition(name: "Sleep", kind: .number, unit: "hours", range: 0...24), "trimmed")
        let energy = try store.createMeasure(energy)
        XCTAssertEqual(energy.definition, MeasureDefinition(name: "Energy", kind: .scale), "a scale has no unit and no range of its own")
        XCTAssertEqual(energy.range, 1...5)
        let steps = try store.createMeasure(MeasureDefinition(name: "Steps", kind: .number))
        XCTAssertEqual(try store.measures().map(\.name), ["Sleep", "Energy", "Steps"], "in the order made")

        XCTAssertThrowsError(try store.createMeasure(MeasureDefinition(name: "SLEEP", kind: .scale))) {
            XCTAssertEqual($0 as? JournalError, .measure(.nameTaken(existing: "Sleep")))
        }
        XCTAssertThrowsError(try store.createMeasure(MeasureDefinition(name: " \n ", kind: .scale))) {
            XCTAssertEqual($0 as? JournalError, .measure(.emptyName))
        }
        XCTAssertThrowsError(try store.createMeasure(MeasureDefinition(name: String(repeating: "x", count: 41), kind: .scale))) {
            XCTAssertEqual($0 as? JournalError, .measure(.nameTooLong))
        }
        XCTAssertThrowsError(try store.createMeasure(MeasureDefinition(name: "Pain", kind: .number, unit: String(repeating: "u", count: 17)))) {
            XCTAssertEqual($0 as? JournalError, .measure(.unitTooLong))
        }
        XCTAssertThrowsError(try store.createMeasure(MeasureDefinition(name: "Pain", kind: .number, range: 5...5))) {
            XCTAssertEqual($0 as? JournalError, .measure(.badRange))
        }
        XCTAssertEqual(try store.measures().count, 3, "nothing refused was kept")

        let renamed = try store.updateMeasure(id: sleep.id, to: MeasureDefinition(name: "Rest", kind: .number, unit: "h", range: 0...12))
        XCTAssertEqual(renamed.uuid, sleep.uuid, "a rename keeps the measure's identity")
        XCTAssertEqual(renamed.definition, MeasureDefinition(name: "Rest", kind: .number, unit: "h", range: 0...12))
        XCTAssertNoThrow(try store.updateMeasure(id: sleep.id, to: MeasureDefinition(name: "REST", kind: .number)), "its own name in another case")
        XCTAssertThrowsError(try store.updateMeasure(id: steps.id, to: MeasureDefinition(name: "energy", kind: .number)))
        XCTAssertThrowsError(try store.updateMeasure(id: energy.id, to: MeasureDefinition(name: "Energy", kind: .number))) {
            XCTAssertEqual($0 as? JournalError, .measureMissing, "the kind of a measure stays what it was made")
        }

        try store.moveMeasure(id: steps.id, to: 0)
        XCTAssertEqual(try store.measures().map(\.name), ["Steps", "REST", "Energy"])
        try store.moveMeasure(id: steps.id, to: 99)
        XCTAssertEqual(try store.measures().map(\.name), ["REST", "Energy", "Steps"], "past the end is last")
        store.close()
        XCTAssertEqual(try JournalStore(path: folder.file("j.sqlite")).measures().map(\.name), ["REST", "Energy", "Steps"], "kept in the file")
    }

    func testEntriesCarryTheirValuesThroughSaveEditDeleteAndUndo() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let sleep = try store.createMeasure(sleep), energy = try store.createMeasure(energy)
        let saved = try entry("Long night", [sleep.id: 5.5, energy.id: 2], store: store)
        XCTAssertEqual(saved.measures, [sleep.id: 5.5, energy.id: 2])
        XCTAssertEqual(try store.entries(ids: [saved.id]).first?.measures, [sleep.id: 5.5, energy.id: 2], "read back from the file")
        XCTAssertEqual(try entry("Nothing tracked", nil, store: store).measures, [:], "an entry needs no values")
        XCTAssertEqual(try store.measureUse(), [sleep.id: 1, energy.id: 1])

        // An edit carries exactly its values; one that does not say keeps them.
        let draft = EntryDraft(title: "Long night", mood: .reallyGood, measures: [sleep.id: 7])
        let edited = try store.update(id: saved.id, with: try draft.validated().get(), updatedAt: Date())
        XCTAssertEqual(edited.measures, [sleep.id: 7])
        let untouched = try store.update(id: saved.id, with: try EntryDraft(title: "Long night!", mood: .reallyGood).validated().get(), updatedAt: Date())
        XCTAssertEqual(untouched.measures, [sleep.id: 7], "an edit without values leaves the entry's")

        // A value its measure cannot take is not kept; nor is one for a measure that is gone.
        let odd = try entry("Odd", [energy.id: 2.5, 9_999: 1, sleep.id: 30], store: store)
        XCTAssertEqual(odd.measures, [sleep.id: 30], "a scale takes whole steps; a number may leave its range")
        XCTAssertEqual(try entry("Too much", [energy.id: 6], store: store).measures, [:])

        let deleted = try store.delete(id: saved.id)
        XCTAssertEqual(try store.measureUse()[sleep.id], 1, "the deleted entry's value went with it")
        XCTAssertEqual(try store.restore(deleted).measures, [sleep.id: 7], "Undo brings the values back")
    }

    func testADeletedMeasureComesBackWhereItWasWithItsValues() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let sleep = try store.createMeasure(sleep), energy = try store.createMeasure(energy)
        let steps = try store.createMeasure(MeasureDefinition(name: "Steps", kind: .number, unit: "steps"))
        let a = try entry("a", [energy.id: 4, sleep.id: 8], store: store)
        let b = try entry("b", [energy.id: 1], store: store)
        let c = try entry("c", [energy.id: 5], store: store)

        let gone = try store.deleteMeasure(id: energy.id)
        XCTAssertEqual(gone.values, [a.id: 4, b.id: 1, c.id: 5])
        XCTAssertEqual(try store.measures().map(\.name), ["Sleep", "Steps"])
        XCTAssertEqual(try store.entries(ids: [a.id]).first?.measures, [sleep.id: 8], "the other values stay")
        XCTAssertEqual(try store.measureUse()[energy.id], nil)

        _ = try store.delete(id: c.id)
        let back = try store.restoreMeasure(gone)
        XCTAssertEqual(back, energy, "the same id, uuid and definition")
        XCTAssertEqual(try store.measures().map(\.id), [sleep.id, energy.id, steps.id], "where it stood")
        XCTAssertEqual(try store.entries(ids: [a.id, b.id]).map(\.measures).sorted { $0.count < $1.count },
                       [[energy.id: 1], [energy.id: 4, sleep.id: 8]])
        XCTAssertEqual(try store.measureUse()[energy.id], 2, "an entry deleted meanwhile does not come back with it")

        _ = try store.deleteMeasure(id: energy.id)
        _ = try store.createMeasure(MeasureDefinition(name: "energy", kind: .number))
        XCTAssertThrowsError(try store.restoreMeasure(gone), "a measure of its name was made meanwhile") {
            XCTAssertEqual($0 as? JournalError, .measure(.nameTaken(existing: "energy")))
        }
    }

    func testAKeptDraftKeepsItsValues() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let sleep = try store.createMeasure(sleep)
        try store.keepDraft(EntryDraft(title: "Half", mood: .meh, measures: [sleep.id: 6.25]))
        XCTAssertEqual(store.keptDraft()?.measures, [sleep.id: 6.25])
        try store.keepDraft(EntryDraft(title: "None"))
        XCTAssertNil(store.keptDraft()?.measures)
    }

    func testValuesAreSpokenWithTheirUnitOrTheirScale() {
        let sleep = Measure(id: 1, name: "Sleep", kind: .number, unit: "hours", range: 0...24)
        XCTAssertEqual(sleep.spoken(7.5), "7.5 hours")
        XCTAssertEqual(sleep.spoken(8), "8 hours")
        XCTAssertEqual(Measure(id: 2, name: "Steps", kind: .number).spoken(12000), "12000")
        XCTAssertEqual(Measure(id: 3, name: "Energy", kind: .scale).spoken(3), "3 of 5")
        XCTAssertTrue(Measure(id: 3, name: "Energy", kind: .scale).accepts(5))
        XCTAssertFalse(Measure(id: 3, name: "Energy", kind: .scale).accepts(0))
        XCTAssertFalse(sleep.accepts(.nan))
        XCTAssertTrue(sleep.accepts(-3), "a number's range is what its field offers, not a rule on values")
    }

    @MainActor
    func testTheModelKeepsTheFormsListAndTheEntriesInMemoryInLine() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let model = JournalModel(store: store)
        var heard = 0
        model.observeMeasures { heard += 1 }
        var made: Measure?
        model.createMeasure(sleep) { made = try? $0.get() }
        wait { made != nil }
        let sleep = try XCTUnwrap(made)
        XCTAssertEqual(model.measures, [sleep])
        XCTAssertEqual(heard, 1)

        let saved = try entry("a", [sleep.id: 6], store: store)
        model.load()
        wait { model.entry(id: saved.id) != nil }
        var gone: DeletedMeasure?
        model.deleteMeasure(id: sleep.id) { gone = try? $0.get() }
        wait { gone != nil }
        XCTAssertEqual(model.measures, [])
        XCTAssertEqual(model.entry(id: saved.id)?.measures, [:], "no entry in memory keeps a value of a measure gone")
        var back: Measure?
        model.restoreMeasure(try XCTUnwrap(gone)) { back = try? $0.get() }
        wait { back != nil }
        XCTAssertEqual(model.entry(id: saved.id)?.measures, [sleep.id: 6])
        XCTAssertEqual(model.measures, [sleep])
        XCTAssertEqual(heard, 3)
    }

    @MainActor
    private func wait(_ condition: @MainActor () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(5)
        while !condition() && Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
        XCTAssertTrue(condition(), "not within 5 s", file: file, line: line)
    }
}
