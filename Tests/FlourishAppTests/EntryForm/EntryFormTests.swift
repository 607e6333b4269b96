@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import GtkKit
import XCTest

final class EntryFormTests: XCTestCase {
    func testMoodButtonStartsAsSelectInBlue() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            XCTAssertEqual(harness.picker.button.label, "select")
            XCTAssertTrue(harness.picker.button.hasClass(Theme.promptClass))
            XCTAssertTrue(Theme.moodCSS.contains(".mood-prompt { color: #3687FF; }"))
            XCTAssertNil(harness.picker.mood)
        }
    }

    func testThePopoverListsTheSixMoodsInTheirColours() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            XCTAssertFalse(harness.picker.popover.isOpen)
            harness.picker.button.click()
            harness.waitUntil("the popover is on screen") { harness.picker.popover.isMapped }
            XCTAssertEqual(harness.picker.choices.map(\.label), Mood.catalogue.map(\.title))
            for (mood, choice) in zip(Mood.catalogue, harness.picker.choices) {
                XCTAssertTrue(choice.hasClass(Theme.moodClass(mood)))
                XCTAssertTrue(choice.isMapped)
            }
            XCTAssertTrue(harness.picker.choices[0].hasFocus, "keyboard users land on the first mood")
            // The mood button toggles: a second press closes it.
            harness.picker.toggle()
            harness.waitUntil("the popover closes") { !harness.picker.popover.isOpen }
        }
    }

    func testChoosingAMoodSetsTextColourAndValueAndCloses() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.picker.button.click()
            harness.waitUntil("the popover is on screen") { harness.picker.popover.isMapped }
            harness.picker.choices[Mood.notSoGreat.rawValue].click()
            XCTAssertFalse(harness.picker.popover.isOpen)
            XCTAssertEqual(harness.picker.button.label, "not so great")
            XCTAssertEqual(harness.picker.mood, .notSoGreat)
            XCTAssertTrue(harness.picker.button.hasClass("mood-4"))
            XCTAssertFalse(harness.picker.button.hasClass(Theme.promptClass))
            XCTAssertTrue(Theme.moodCSS.contains(".mood-4:not(.journal-row) { color: #c6802e; }"))
        }
    }

    func testWithAnimationsThePopoverFadesOutBeforeItCloses() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness(animations: true)
            defer { harness.close() }
            harness.picker.button.click()
            harness.waitUntil("the popover is on screen") { harness.picker.popover.isMapped }
            XCTAssertTrue(harness.picker.popover.hasClass("opening"))
            harness.picker.choices[0].click()
            // Still on screen, fading and sliding up; gone once the 0.3 s animation has played.
            XCTAssertTrue(harness.picker.popover.isOpen)
            XCTAssertTrue(harness.picker.popover.hasClass("closing"))
            harness.waitUntil("the popover closes after its animation") { !harness.picker.popover.isOpen }
            XCTAssertFalse(harness.picker.popover.hasClass("closing"))
            XCTAssertEqual(harness.picker.button.label, "the best")
        }
    }

    func testSavingShowsTheDialogResetsTheFormAndAddsTheRow() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.fill(title: "A good walk", body: "Sun, wind and the sea.", mood: .reallyGood)
            harness.form.saveButton.click()

            let dialog = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(dialog.title, "Entry Saved")
            XCTAssertEqual(dialog.message, "Your entry has been saved!")
            XCTAssertEqual(dialog.buttonLabels, ["OK"])
            // The form is reset behind the dialog.
            XCTAssertEqual(harness.form.titleField.text, "")
            XCTAssertEqual(harness.form.bodyField.text, "")
            XCTAssertEqual(harness.picker.button.label, "select")
            XCTAssertTrue(harness.picker.button.hasClass(Theme.promptClass))
            XCTAssertNil(harness.picker.mood)

            try XCTUnwrap(dialog.button(for: Alerts.ok)).click()
            harness.waitUntil("the dialog goes") { harness.main.alerts.current == nil }

            // On disk, and in the list without a restart.
            XCTAssertEqual(try harness.journal.count(), 1)
            XCTAssertEqual(harness.model.ids.count, 1)
            harness.main.show(.journal)
            XCTAssertEqual(harness.main.journal.list.count, 1)
            harness.waitUntil("the row shows the entry") {
                harness.main.journal.rows.contains { $0.entry?.title == "A good walk" && $0.view.isMapped }
            }
            let row = try XCTUnwrap(harness.main.journal.rows.first { $0.entry != nil })
            XCTAssertEqual(row.titleLabel.text, "A good walk")
            XCTAssertEqual(row.bodyLabel.text, "Sun, wind and the sea.")
            XCTAssertTrue(row.view.hasClass("mood-1"))
            XCTAssertTrue(row.metaLabel.text.contains("really good"))
        }
    }

    func testCtrlEnterActionSavesLikeTheButton() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.fill(title: "", body: "Only a body", mood: .meh)
            XCTAssertTrue(harness.main.window.activateAction("win.save-entry"))
            XCTAssertEqual(harness.waitForDialog()?.title, "Entry Saved")
            XCTAssertEqual(try harness.journal.entries(ids: try harness.journal.entryIDs()).first?.body, "Only a body")
        }
    }

    func testMissingMoodAndTextAreSaidNextToTheFieldsAndNothingIsSaved() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.form.saveButton.click()
            MainLoop.run(for: 0.1)
            XCTAssertNil(harness.main.alerts.current, "no dialog for a form error")
            XCTAssertTrue(harness.form.moodError.isVisible)
            XCTAssertEqual(harness.form.moodError.text, "Choose how you feel.")
            XCTAssertTrue(harness.form.textError.isVisible)
            XCTAssertEqual(harness.form.textError.text, "Write a title or a few lines.")
            XCTAssertTrue(harness.picker.button.hasFocus, "focus goes to the first thing to fix")
            XCTAssertEqual(try harness.journal.count(), 0)

            // Each message goes as soon as its field is fixed; the other stays.
            harness.form.titleField.text = "Title only"
            XCTAssertFalse(harness.form.textError.isVisible)
            XCTAssertTrue(harness.form.moodError.isVisible)
            harness.fill(title: "Title only", body: "", mood: .okay)
            XCTAssertFalse(harness.form.moodError.isVisible)
        }
    }

    func testAFailedSaveKeepsTheFormAndRetrySavesTheSameEntry() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness(wrap: { FaultyStore(real: $0, saveFailures: 1, error: .diskFull) })
            defer { harness.close() }
            harness.fill(title: "Keep me", body: "Every word.", mood: .theWorst)
            harness.form.saveButton.click()

            let error = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(error.title, "Error")
            XCTAssertEqual(error.message, JournalError.diskFull.errorDescription)
            XCTAssertEqual(error.buttonLabels, ["OK", "_Retry"])
            XCTAssertEqual(harness.form.titleField.text, "Keep me")
            XCTAssertEqual(harness.form.bodyField.text, "Every word.")
            XCTAssertEqual(harness.picker.mood, .theWorst)
            XCTAssertEqual(harness.picker.button.label, "the worst")
            XCTAssertEqual(try harness.journal.count(), 0)

            try XCTUnwrap(error.button(for: Alerts.retry)).click()
            harness.waitUntil("the retry's dialog") { harness.main.alerts.current?.title == "Entry Saved" }
            XCTAssertEqual(try harness.journal.count(), 1)
            let saved = try harness.journal.entries(ids: try harness.journal.entryIDs())
            XCTAssertEqual(saved.map(\.title), ["Keep me"])
            XCTAssertEqual(saved.first?.mood, .theWorst)
            XCTAssertEqual(harness.form.titleField.text, "")
        }
    }

    func testOKOnTheErrorDialogKeepsTheFormForLater() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness(wrap: { FaultyStore(real: $0, saveFailures: 1, error: .busy) })
            defer { harness.close() }
            harness.fill(title: "Later", body: "", mood: .okay)
            harness.form.saveButton.click()
            try XCTUnwrap(harness.waitForDialog()?.button(for: Alerts.ok)).click()
            harness.waitUntil("the dialog goes") { harness.main.alerts.current == nil }
            XCTAssertEqual(harness.form.titleField.text, "Later")
            XCTAssertEqual(harness.picker.mood, .okay)
            XCTAssertTrue(harness.form.saveButton.isSensitive)
        }
    }
}

final class ClosingTests: XCTestCase {
    func testClosingWithAnUnsavedEntryAsksAndCancelKeepsIt() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.form.bodyField.text = "Half a thought"
            harness.main.show(.journal)
            harness.main.window.close()
            let dialog = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(dialog.title, "Discard this entry?")
            XCTAssertEqual(dialog.buttonLabels, ["_Cancel", "_Discard"])
            XCTAssertTrue(harness.main.window.isVisible, "the window stays while the person decides")
            XCTAssertEqual(harness.main.page, .newEntry, "the entry in question is on screen")
            try XCTUnwrap(dialog.button(for: Alerts.cancel)).click()
            harness.waitUntil("the dialog goes") { harness.main.alerts.current == nil }
            XCTAssertTrue(harness.main.window.isVisible)
            XCTAssertEqual(harness.form.bodyField.text, "Half a thought")
        }
    }

    func testDiscardClosesTheWindow() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            harness.form.titleField.text = "Never mind"
            harness.main.window.close()
            try XCTUnwrap(harness.waitForDialog()?.button(for: Alerts.discard)).click()
            harness.waitUntil("the window closes") { !harness.main.window.isVisible }
            XCTAssertEqual(try harness.journal.count(), 0)
        }
    }

    func testClosingDuringASaveWaitsForItThenCloses() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            harness.fill(title: "On its way", body: "", mood: .okay)
            harness.form.saveButton.click()
            XCTAssertTrue(harness.form.isSaving)
            harness.main.window.close()
            XCTAssertNil(harness.main.alerts.current, "words on their way to disk are not 'unsaved'")
            harness.waitUntil("the window closes once the entry is saved") { !harness.main.window.isVisible }
            XCTAssertEqual(try harness.journal.entries(ids: try harness.journal.entryIDs()).map(\.title), ["On its way"])
        }
    }

    func testTheFormIsLockedWhileItsEntryIsSaved() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.fill(title: "Steady", body: "", mood: .okay)
            harness.form.saveButton.click()
            // Nothing typed now could be wiped by the reset that follows the save.
            for widget in [harness.form.titleField, harness.form.bodyField, harness.picker.button, harness.form.saveButton] as [Widget] {
                XCTAssertFalse(widget.isSensitive)
            }
            XCTAssertEqual(harness.waitForDialog()?.title, "Entry Saved")
            for widget in [harness.form.titleField, harness.form.bodyField, harness.picker.button, harness.form.saveButton] as [Widget] {
                XCTAssertTrue(widget.isSensitive)
            }
        }
    }

    func testAnOlderDialogStillAnswersWhenAnotherStacksOnIt() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            var discarded: Bool?
            harness.main.alerts.confirmDiscard { discarded = $0 }
            let first = try XCTUnwrap(harness.waitForDialog())
            harness.main.alerts.showSaved()
            XCTAssertEqual(harness.main.alerts.current?.title, "Entry Saved")
            try XCTUnwrap(first.button(for: Alerts.cancel)).click()
            harness.waitUntil("the older dialog answered") { discarded != nil }
            XCTAssertEqual(discarded, false)
            XCTAssertEqual(harness.main.alerts.current?.title, "Entry Saved", "the newer dialog stays")
        }
    }

    func testAnEmptyFormClosesAtOnce() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            harness.picker.choose(.okay) // a mood alone is not words to lose
            harness.main.window.close()
            harness.waitUntil("the window closes") { !harness.main.window.isVisible }
            XCTAssertNil(harness.main.alerts.current)
        }
    }

    func testAParagraphPastedIntoTheTitleBecomesOneLine() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.fill(title: "A walk\r\nby the sea\nat dawn", body: "", mood: .reallyGood)
            XCTAssertEqual(harness.form.titleField.text, "A walk by the sea at dawn")
            harness.form.saveButton.click()
            harness.waitUntil("the entry is saved") { harness.main.alerts.current?.title == "Entry Saved" }
            XCTAssertEqual(try harness.journal.entries(ids: try harness.journal.entryIDs()).map(\.title), ["A walk by the sea at dawn"])
        }
    }
}
