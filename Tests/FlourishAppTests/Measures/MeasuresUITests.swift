@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// Preferences → Measures and the forms' measure fields, in a real window over a real journal.
final class MeasuresUITests: XCTestCase {
    @MainActor
    private func openMeasures(_ harness: Harness) throws -> MeasuresWindow {
        XCTAssertTrue(harness.main.window.activateAction("win.preferences"), "main menu → Preferences (Ctrl+,)")
        let preferences = try XCTUnwrap(harness.main.preferencesWindow)
        preferences.measuresButton.click()
        let window = try XCTUnwrap(harness.main.measuresWindow)
        XCTAssertTrue(window.window.isVisible)
        return window
    }

    @MainActor
    private func add(_ window: MeasuresWindow, _ harness: Harness, name: String, scale: Bool = false,
                     unit: String = "", lowest: String = "", highest: String = "") {
        let before = harness.model.measures.count
        window.nameField.text = name
        window.kindChoice.selected = scale ? 1 : 0
        window.unitField.text = unit
        window.lowestField.text = lowest
        window.highestField.text = highest
        window.addButton.click()
        harness.waitUntil("“\(name)” is made and shown") {
            harness.model.measures.count == before + 1 && window.row(named: name) != nil
        }
    }

    func testMeasuresAreAddedChangedMovedAndDeletedEachWithUndo() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let window = try openMeasures(harness)
            XCTAssertEqual(window.rows.count, 0)

            // Refused next to the field, what was typed kept.
            window.nameField.text = "  "
            window.addButton.click()
            XCTAssertTrue(window.addProblem.isVisible)
            XCTAssertEqual(window.addProblem.text, "Write a name for the measure.")
            window.nameField.text = "Sleep"
            window.lowestField.text = "5"
            window.addButton.click()
            XCTAssertEqual(window.addProblem.text, "Give a lowest and a highest number, the lowest below the highest, or neither.")
            XCTAssertEqual(window.nameField.text, "Sleep")
            XCTAssertEqual(harness.model.measures.count, 0, "nothing refused was kept")

            add(window, harness, name: "Sleep", unit: "hours", lowest: "0", highest: "24")
            XCTAssertEqual(window.nameField.text, "", "the fields empty again for the next one")
            XCTAssertFalse(window.addProblem.isVisible)
            add(window, harness, name: "Energy", scale: true)
            add(window, harness, name: "Steps")
            XCTAssertEqual(try harness.journal.measures().map(\.definition), [
                MeasureDefinition(name: "Sleep", kind: .number, unit: "hours", range: 0...24),
                MeasureDefinition(name: "Energy", kind: .scale),
                MeasureDefinition(name: "Steps", kind: .number),
            ])
            window.nameField.text = "SLEEP"
            window.addButton.click()
            harness.waitUntil("a second Sleep refused") { window.addProblem.text == "There is already a measure “Sleep”." }

            // Renamed in place, with its unit and range; Undo takes it back.
            let sleep = try XCTUnwrap(window.row(named: "Sleep"))
            sleep.nameField.text = "Rest"
            sleep.unitField.text = "h"
            sleep.highestField.text = "12"
            sleep.nameField.activate()
            harness.waitUntil("renamed") { window.row(named: "Rest") != nil }
            XCTAssertEqual(harness.model.measures.first?.definition, MeasureDefinition(name: "Rest", kind: .number, unit: "h", range: 0...12))
            XCTAssertTrue(window.undoBar.isVisible)
            XCTAssertEqual(window.undoLabel.text, "“Rest” changed")
            window.undoButton.click()
            harness.waitUntil("the rename taken back") { window.row(named: "Sleep") != nil }
            XCTAssertEqual(harness.model.measures.first?.definition, MeasureDefinition(name: "Sleep", kind: .number, unit: "hours", range: 0...24))
            XCTAssertFalse(window.undoBar.isVisible, "nothing left to take back")

            // Moved, and back.
            let steps = try XCTUnwrap(window.row(named: "Steps"))
            XCTAssertFalse(steps.downButton.isSensitive, "the last cannot go down")
            steps.upButton.click()
            harness.waitUntil("moved up") { window.rows.map(\.measure.name) == ["Sleep", "Steps", "Energy"] }
            XCTAssertTrue(try XCTUnwrap(window.row(named: "Steps")).upButton.hasFocus, "the keyboard stays on its button")
            window.undo()
            harness.waitUntil("moved back") { window.rows.map(\.measure.name) == ["Sleep", "Energy", "Steps"] }

            // Deleted (no entry carries it: nothing to ask), and back where it stood.
            let energy = try XCTUnwrap(harness.model.measures.first { $0.name == "Energy" })
            try XCTUnwrap(window.row(named: "Energy")).deleteButton.click()
            harness.waitUntil("deleted") { window.rows.map(\.measure.name) == ["Sleep", "Steps"] }
            XCTAssertEqual(window.undoLabel.text, "“Energy” deleted")
            window.undo()
            harness.waitUntil("back") { window.rows.map(\.measure.name) == ["Sleep", "Energy", "Steps"] }
            XCTAssertEqual(harness.model.measures.first { $0.name == "Energy" }, energy, "the same measure, not a new one")
        }
    }

    func testTheFormRecordsMeasuresTheEditChangesThemAndTheEntryShowsThem() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let form = harness.form.fields.measures
            XCTAssertFalse(form.view.isVisible, "no measures, no fields")
            let sleep = try harness.journal.createMeasure(MeasureDefinition(name: "Sleep", kind: .number, unit: "hours", range: 0...24))
            let energy = try harness.journal.createMeasure(MeasureDefinition(name: "Energy", kind: .scale))
            harness.model.loadMeasures()
            harness.waitUntil("the fields are made") { form.fields.count == 2 }
            XCTAssertTrue(form.view.isVisible)
            let sleepField = try XCTUnwrap(form.field(named: "Sleep")?.numberField)
            XCTAssertEqual(sleepField.placeholder, "hours, 0–24")
            let steps = try XCTUnwrap(form.field(named: "Energy")).steps
            XCTAssertEqual(steps.count, 5)

            // Text that is not a number: said next to the field, nothing saved, nothing lost.
            harness.fill(title: "Short night", body: "Up at five.", mood: .meh)
            sleepField.text = "five"
            harness.form.save()
            XCTAssertTrue(form.problem.isVisible)
            XCTAssertEqual(form.problem.text, "Write a number for Sleep, or leave it empty.")
            XCTAssertTrue(sleepField.containsFocus, "the keyboard is sent to the field to fix")
            XCTAssertEqual(harness.form.titleField.text, "Short night")
            XCTAssertEqual(try harness.journal.entryIDs(), [])
            sleepField.text = "5.5"
            XCTAssertFalse(form.problem.isVisible, "the message goes once the field changes")
            steps[3].click()
            steps[1].click()
            XCTAssertEqual(steps.map(\.isActive), [false, true, false, false, false], "one step at a time")
            harness.form.save()
            harness.waitUntil("the saved dialog") { harness.main.alerts.current?.title == "Entry Saved" }
            harness.main.alerts.current?.button(for: Alerts.ok)?.click()
            let saved = try XCTUnwrap(try harness.journal.read(ids: try harness.journal.entryIDs()).entries.first)
            XCTAssertEqual(saved.measures, [sleep.id: 5.5, energy.id: 2])
            XCTAssertEqual(sleepField.text, "", "the form starts again empty")
            XCTAssertFalse(steps.contains { $0.isActive })

            // The entry page says the values; the edit shows them and changes them.
            harness.model.load()
            harness.main.show(.journal)
            let journal = harness.main.journal
            harness.waitUntil("the row") { journal.rows.contains { $0.entry?.id == saved.id } }
            journal.open(saved.id)
            XCTAssertEqual(journal.entryView.measuresLabel.text, "Sleep: 5.5 hours · Energy: 2 of 5")
            journal.editOpenEntry()
            let edit = journal.editor.fields.measures
            XCTAssertEqual(edit.field(named: "Sleep")?.numberField?.text, "5.5")
            XCTAssertEqual(edit.field(named: "Energy")?.steps.map(\.isActive), [false, true, false, false, false])
            XCTAssertFalse(journal.editor.hasChanges)
            try XCTUnwrap(edit.field(named: "Energy")).steps[1].click()
            XCTAssertTrue(journal.editor.hasChanges, "a step taken off is a change")
            XCTAssertEqual(edit.field(named: "Energy")?.steps.map(\.isActive), [false, false, false, false, false])
            journal.editor.save()
            harness.waitUntil("back on the entry view") { journal.page == .entry }
            XCTAssertEqual(try harness.journal.entries(ids: [saved.id]).first?.measures, [sleep.id: 5.5], "the edit carries exactly its values")
            XCTAssertEqual(journal.entryView.measuresLabel.text, "Sleep: 5.5 hours")
        }
    }

    func testDeletingAMeasureEntriesCarryAsksAndUndoBringsTheirValuesBack() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let sleep = try harness.journal.createMeasure(MeasureDefinition(name: "Sleep", kind: .number))
            let entry = try harness.journal.save(try EntryDraft(title: "Night", mood: .okay, measures: [sleep.id: 8]).validated().get())
            harness.model.loadMeasures()
            harness.waitUntil("read") { harness.model.measures.count == 1 }
            let window = try openMeasures(harness)
            harness.waitUntil("listed with its count") { window.row(named: "Sleep")?.count.text == "1 entry" }
            try XCTUnwrap(window.row(named: "Sleep")).deleteButton.click()
            let dialog = try XCTUnwrap(harness.waitUntil("asked") { window.alerts.current?.isShowing == true } ? window.alerts.current : nil)
            XCTAssertEqual(dialog.title, "Delete the measure “Sleep”?")
            dialog.button(for: Alerts.cancel)?.click()
            XCTAssertEqual(harness.model.measures.count, 1, "Cancel keeps it")
            try XCTUnwrap(window.row(named: "Sleep")).deleteButton.click()
            harness.waitUntil("asked again") { window.alerts.current?.isShowing == true }
            window.alerts.current?.button(for: Alerts.discard)?.click()
            harness.waitUntil("deleted") { harness.model.measures.isEmpty }
            XCTAssertEqual(try harness.journal.entries(ids: [entry.id]).first?.measures, [:])
            window.undo()
            harness.waitUntil("back") { harness.model.measures.count == 1 }
            XCTAssertEqual(try harness.journal.entries(ids: [entry.id]).first?.measures, [sleep.id: 8], "with the entry's value")
        }
    }

    func testTheSearchBarFindsEntriesByAMeasuresValue() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let sleep = try harness.journal.createMeasure(MeasureDefinition(name: "Sleep", kind: .number, unit: "hours"))
            for (title, hours) in [("Short walk", 5.0), ("Long night", 9), ("Short nap", 6.5)] {
                _ = try harness.journal.save(try EntryDraft(title: title, mood: .okay, measures: [sleep.id: hours]).validated().get())
            }
            _ = try harness.journal.save(try EntryDraft(title: "Short and untracked", mood: .okay).validated().get())
            harness.model.loadMeasures()
            harness.model.load()
            harness.waitUntil("read") { harness.model.measures.count == 1 && harness.model.ids.count == 4 }
            harness.main.show(.journal)
            let journal = harness.main.journal
            XCTAssertTrue(harness.main.window.activateAction("win.find"), "Ctrl+F")
            journal.search.entry.text = "sleep < 7"
            harness.waitUntil("two found") { journal.resultsList.count == 2 && journal.search.resultCount.text == "2 entries" }
            journal.search.entry.text = "short SLEEP>=6"
            harness.waitUntil("one found, by word and value") { journal.resultsList.count == 1 }
            let nap = try XCTUnwrap(harness.journal.entries(ids: journal.resultsList.keys).first)
            XCTAssertEqual(nap.title, "Short nap")
            journal.search.entry.text = "sleep"
            harness.waitUntil("a name alone is a word: none has it") { journal.resultsList.count == 0 && journal.noMatches.isMapped }
        }
    }

    func testInsightsChartEachMeasureAndSayTheMoodByItsSteps() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let energy = try harness.journal.createMeasure(MeasureDefinition(name: "Energy", kind: .scale))
            _ = try harness.journal.createMeasure(MeasureDefinition(name: "Steps", kind: .number))
            let now = Date()
            for (index, (value, mood)) in [(5.0, Mood.theBest), (5, .reallyGood), (1, .theWorst)].enumerated() {
                _ = try harness.journal.save(try EntryDraft(title: "\(index)", mood: mood, measures: [energy.id: value]).validated().get(),
                                             createdAt: now.addingTimeInterval(-Double(index + 1) * 86_400))
            }
            let page = harness.main.insights
            XCTAssertFalse(page.measureFigures.view.isVisible)
            harness.main.show(.insights)
            harness.waitUntil("the measures are shown") { page.measureFigures.parts.count == 2 }
            XCTAssertTrue(page.measureFigures.view.isVisible)
            let part = page.measureFigures.parts[0]
            XCTAssertEqual(part.summary.text, "3.7 of 5 on average, from 1 of 5 to 5 of 5, on 3 entries")
            XCTAssertEqual(part.bands.map(\.text), [
                "1 of 5: the worst, 0.0 on average, 1 entry", "2 of 5: no entries", "3 of 5: no entries", "4 of 5: no entries",
                "5 of 5: the best, 4.5 on average, 2 entries",
            ], "every step's figures in words, for the eye and for a screen reader")
            XCTAssertEqual(page.measureFigures.parts[1].summary.text, "No values in this period.")
            XCTAssertEqual(page.measureFigures.parts[1].bands.count, 0)
        }
    }

    func testAFieldShowsEveryDigitOfAValueSoAnEditLeavesItAsItWas() {
        for value in [7.0 + 1.0 / 3.0, 0.1, 12_345.678_9, -2.5] {
            guard case .number(let read) = MeasureNumbers.read(MeasureNumbers.text(value)) else { return XCTFail("\(value)") }
            XCTAssertEqual(read, value, accuracy: 1e-12, "\(value) shown and read back")
        }
        XCTAssertEqual(MeasureNumbers.read("\u{2212}2"), .number(-2), "a minus sign as some languages write it")
        XCTAssertEqual(MeasureNumbers.read("7,5", locale: Locale(identifier: "fr_FR")), .number(7.5))
        XCTAssertEqual(MeasureNumbers.read("  "), .empty)
        XCTAssertEqual(MeasureNumbers.read("five"), .notANumber)
    }

    func testAnUndoThatCannotBeDoneStaysToBeTriedAgain() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let window = try openMeasures(harness)
            add(window, harness, name: "Sleep")
            try XCTUnwrap(window.row(named: "Sleep")).deleteButton.click()
            harness.waitUntil("deleted") { harness.model.measures.isEmpty }
            add(window, harness, name: "sleep")
            window.undo()
            harness.waitUntil("the undo refused, said") { window.alerts.current?.isShowing == true }
            XCTAssertEqual(window.undoable.count, 1, "the deleted Sleep, with its values, can still come back")
            XCTAssertTrue(window.undoBar.isVisible)
            XCTAssertEqual(window.undoLabel.text, "“Sleep” deleted")
        }
    }
}
