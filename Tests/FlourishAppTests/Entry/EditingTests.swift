@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// Opening, editing, deleting (with undo) and back-dating entries in the real window.
final class EditingTests: XCTestCase {
    /// A harness whose journal holds three entries a day apart ("Oldest", "Middle", "Newest"),
    /// showing the journal page with its rows filled in.
    @MainActor
    private func journalOfThree(wrap: @escaping (JournalStore) -> JournalStoring = { $0 }) throws -> (Harness, [Entry]) {
        let harness = try Harness(wrap: wrap)
        let start = Date().addingTimeInterval(-3 * 86_400)
        let berlin = Location(latitude: 52.52, longitude: 13.405, accuracy: 50)
        let saved = try ["Oldest", "Middle", "Newest"].enumerated().map { index, title in
            let draft = EntryDraft(title: title, body: "Body of \(title).", mood: Mood(rawValue: index)!,
                                   location: index == 1 ? berlin : nil)
            return try harness.journal.save(try draft.validated().get(), createdAt: start.addingTimeInterval(Double(index) * 86_400))
        }
        harness.model.load()
        harness.main.show(.journal)
        harness.waitUntil("the rows are filled in") { harness.main.journal.rows.filter { $0.entry != nil && $0.view.isMapped }.count == 3 }
        return (harness, saved)
    }

    @MainActor
    private func row(_ harness: Harness, _ id: Int64) -> JournalRow? {
        harness.main.journal.rows.first { $0.entryID == id && $0.view.isMapped }
    }

    @MainActor
    private func open(_ harness: Harness, _ entry: Entry) {
        let journal = harness.main.journal
        XCTAssertTrue(journal.list.activateRow { $0.entryID == entry.id }, "the row activates")
        harness.waitUntil("the entry view shows") { journal.page == .entry && journal.entryView.view.isMapped }
    }

    /// Opens `entry` and presses Edit, as a person would.
    @MainActor
    private func openForEditing(_ harness: Harness, _ entry: Entry) {
        let journal = harness.main.journal
        open(harness, entry)
        journal.entryView.editButton.click()
        harness.waitUntil("the edit form shows") { journal.page == .edit && journal.editor.view.isMapped }
    }

    /// Picks `date`'s day (and, with `hour`, its hour) in the date popover, then closes it.
    @MainActor
    private func choose(_ date: Date, hour: Bool = false, in picker: DatePicker, _ harness: Harness) {
        picker.open()
        harness.waitUntil("the date popover opens") { picker.popover.isMapped }
        let parts = Foundation.Calendar.current.dateComponents([.year, .month, .day, .hour], from: date)
        picker.calendar.day = (parts.year!, parts.month!, parts.day!)
        if hour { picker.hour.value = parts.hour! }
        picker.popover.close()
    }

    func testActivatingARowShowsTheWholeEntryAndBackReturnsToTheSameRow() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            let journal = harness.main.journal
            let middle = saved[1]
            open(harness, middle)
            let view = journal.entryView
            XCTAssertEqual(view.titleLabel.text, "Middle")
            XCTAssertEqual(view.body.shownText, "Body of Middle.")
            XCTAssertTrue(view.body.labels.allSatisfy(\.isSelectable) && view.titleLabel.isSelectable, "the words can be selected")
            XCTAssertEqual(view.moodLabel.text, "Feeling really good")
            XCTAssertTrue(view.moodLabel.hasClass(Theme.moodClass(.reallyGood)))
            XCTAssertEqual(view.dateLabel.text, EntryViewController.dateFormatter.string(from: middle.createdAt))
            XCTAssertEqual(view.locationLabel.text, "52.52° N, 13.40° E ±50 m")
            XCTAssertTrue(journal.backButton.isMapped, "Back is in the header bar")
            XCTAssertTrue(view.editButton.isMapped && view.deleteButton.isMapped)

            journal.backButton.click()
            harness.waitUntil("the journal shows again") { journal.page == .entries && journal.list.isMapped }
            XCTAssertFalse(journal.backButton.isVisible)
            XCTAssertEqual(journal.list.focusedRow?.entryID, middle.id, "the opened entry's row has the focus")

            // Alt+Left (win.back) does the same.
            open(harness, saved[0])
            XCTAssertTrue(harness.main.window.activateAction("win.back"))
            harness.waitUntil("Alt+Left goes back") { journal.page == .entries }
            XCTAssertEqual(journal.list.focusedRow?.entryID, saved[0].id)
        }
    }

    func testTheEntryViewLetsGoOfItsWordsWhileHiddenAndShowsThemAgain() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            let journal = harness.main.journal
            let view = journal.entryView
            openForEditing(harness, saved[1])
            XCTAssertEqual(view.body.text, "", "hidden behind the edit form, the body's words are let go of")
            journal.editor.cancelButton.click()
            harness.waitUntil("Cancel shows the entry again") { journal.page == .entry && view.view.isMapped }
            XCTAssertEqual(view.body.shownText, "Body of Middle.", "and its words are back")

            journal.backButton.click()
            harness.waitUntil("the journal shows again") { journal.page == .entries }
            XCTAssertEqual(view.body.text, "", "back on the list, the open entry's words are let go of")
            open(harness, saved[1])
            XCTAssertEqual(view.body.shownText, "Body of Middle.")
        }
    }

    func testEditingChangesTheRowAtOnceAndTheFile() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            let journal = harness.main.journal
            let middle = saved[1]
            open(harness, middle)
            XCTAssertTrue(harness.main.window.activateAction("win.edit-entry"), "Ctrl+E edits")
            harness.waitUntil("the edit form shows") { journal.page == .edit && journal.editor.view.isMapped }
            let fields = journal.editor.fields
            XCTAssertEqual(fields.titleField.text, "Middle")
            XCTAssertEqual(fields.bodyField.text, "Body of Middle.")
            XCTAssertEqual(fields.picker.mood, .reallyGood)
            XCTAssertEqual(fields.datePicker.button.label, DatePicker.format(middle.createdAt))
            XCTAssertTrue(fields.titleField.containsFocus, "the keyboard is in Title")

            fields.titleField.text = "Middle, corrected"
            fields.picker.button.click()
            harness.waitUntil("the mood popover opens") { fields.picker.popover.isMapped }
            fields.picker.choices[Mood.theWorst.rawValue].click()
            journal.editor.saveButton.click()
            harness.waitUntil("the entry view shows the change") {
                journal.page == .entry && journal.entryView.titleLabel.text == "Middle, corrected"
            }
            XCTAssertEqual(journal.entryView.moodLabel.text, "Feeling the worst")

            journal.backButton.click()
            harness.waitUntil("the journal shows") { journal.page == .entries }
            let changed = try XCTUnwrap(row(harness, middle.id))
            XCTAssertEqual(changed.titleLabel.text, "Middle, corrected")
            XCTAssertTrue(changed.view.hasClass(Theme.moodClass(.theWorst)))
            XCTAssertEqual(journal.list.key(at: 1), middle.id, "the row keeps its place")

            let stored = try XCTUnwrap(try harness.journal.entries(ids: [middle.id]).first)
            XCTAssertEqual(stored.title, "Middle, corrected")
            XCTAssertEqual(stored.mood, .theWorst)
            XCTAssertEqual(stored.uuid, middle.uuid)
            XCTAssertEqual(stored.location, middle.location, "editing keeps the location")
            XCTAssertEqual(stored.createdAt.timeIntervalSince1970, middle.createdAt.timeIntervalSince1970, accuracy: 0.001)
            XCTAssertNotNil(stored.updatedAt)
        }
    }

    func testAFailedEditKeepsEveryChangeAndRetrySavesThem() throws {
        try MainActor.assumeIsolated {
            var faulty: FaultyStore?
            let (harness, saved) = try journalOfThree(wrap: { real in
                let store = FaultyStore(real: real)
                faulty = store
                return store
            })
            defer { harness.close() }
            let journal = harness.main.journal
            openForEditing(harness, saved[2])
            faulty?.failNextWrites(1)
            journal.editor.fields.titleField.text = "Newest, edited"
            journal.editor.fields.bodyField.text = "New words."
            journal.editor.saveButton.click()

            let dialog = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(dialog.title, "Error")
            XCTAssertEqual(dialog.message, JournalError.diskFull.errorDescription)
            XCTAssertEqual(dialog.buttonLabels, ["OK", "_Retry"])
            XCTAssertEqual(journal.page, .edit)
            XCTAssertEqual(journal.editor.fields.titleField.text, "Newest, edited", "the form keeps every change")
            XCTAssertEqual(journal.editor.fields.bodyField.text, "New words.")
            XCTAssertEqual(try harness.journal.entries(ids: [saved[2].id]).first?.title, "Newest")

            try XCTUnwrap(dialog.button(for: Alerts.retry)).click()
            harness.waitUntil("Retry saves the changes") { journal.page == .entry }
            XCTAssertEqual(try harness.journal.entries(ids: [saved[2].id]).first?.title, "Newest, edited")
            XCTAssertEqual(try harness.journal.entries(ids: [saved[2].id]).first?.body, "New words.")
        }
    }

    func testCancelWithChangesAsksAndCancelIsTheDefault() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            let journal = harness.main.journal
            openForEditing(harness, saved[0])
            journal.editor.cancelButton.click()
            harness.waitUntil("no changes: Cancel leaves at once") { journal.page == .entry }
            XCTAssertNil(harness.main.alerts.current)

            journal.entryView.editButton.click()
            harness.waitUntil("the edit form shows") { journal.page == .edit }
            journal.editor.fields.titleField.text = "Oldest?"
            journal.editor.cancelButton.click()
            let question = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(question.title, "Discard changes?")
            XCTAssertEqual(question.buttonLabels, ["_Cancel", "_Discard"])
            try XCTUnwrap(question.button(for: Alerts.cancel)).click()
            harness.waitUntil("the question goes") { harness.main.alerts.current == nil }
            XCTAssertEqual(journal.page, .edit)
            XCTAssertEqual(journal.editor.fields.titleField.text, "Oldest?", "Cancel keeps the change")

            journal.editor.cancel()
            try XCTUnwrap(try XCTUnwrap(harness.waitForDialog()).button(for: Alerts.discard)).click()
            harness.waitUntil("Discard leaves the edit") { journal.page == .entry }
            XCTAssertEqual(journal.entryView.titleLabel.text, "Oldest")
            XCTAssertEqual(try harness.journal.entries(ids: [saved[0].id]).first?.title, "Oldest")
        }
    }

    func testChangingTheDateMovesTheRowToItsNewPlace() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            let journal = harness.main.journal
            openForEditing(harness, saved[2])
            let picker = journal.editor.fields.datePicker
            choose(saved[0].createdAt.addingTimeInterval(-86_400), in: picker, harness)
            XCTAssertEqual(picker.button.label, DatePicker.format(picker.date!))
            journal.editor.save()
            harness.waitUntil("saved") { journal.page == .entry }
            XCTAssertEqual(harness.model.ids, [saved[1].id, saved[0].id, saved[2].id])
            XCTAssertEqual(journal.list.key(at: 2), saved[2].id, "the row moved to its new place")
            XCTAssertEqual(try harness.journal.entryIDs(), harness.model.ids)
        }
    }

    func testDeleteRemovesAtOnceAndUndoPutsBackTheSameEntryLatestFirst() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            let journal = harness.main.journal
            let notice = harness.main.notice
            XCTAssertFalse(harness.main.window.isActionEnabled("undo"), "Ctrl+Z undoes typing while there is nothing deleted")

            let middle = try XCTUnwrap(try harness.journal.entries(ids: [saved[1].id]).first)
            open(harness, saved[1])
            journal.entryView.deleteButton.click()
            harness.waitUntil("the row goes and the notice shows") { journal.list.count == 2 && notice.view.isMapped }
            XCTAssertEqual(journal.page, .entries, "deleting from the entry view returns to the journal")
            XCTAssertEqual(notice.label.text, "Entry deleted")
            XCTAssertTrue(notice.undoButton.isMapped)
            XCTAssertTrue(harness.main.window.isActionEnabled("undo"))
            XCTAssertEqual(try harness.journal.count(), 2, "gone from the file too")

            journal.delete(saved[2].id)
            harness.waitUntil("the second row goes") { journal.list.count == 1 }
            XCTAssertEqual(notice.undoable.map(\.entry.id), [saved[1].id, saved[2].id])

            XCTAssertTrue(harness.main.window.activateAction("win.undo"), "Ctrl+Z undoes while the notice shows")
            harness.waitUntil("the latest comes back first") { journal.list.count == 2 }
            XCTAssertEqual(journal.list.key(at: 0), saved[2].id)
            XCTAssertTrue(notice.isShowing, "the earlier deletion can still be undone")

            notice.undoButton.click()
            harness.waitUntil("both are back") { journal.list.count == 3 }
            XCTAssertFalse(notice.isShowing)
            XCTAssertFalse(harness.main.window.isActionEnabled("undo"))
            XCTAssertEqual(harness.model.ids, [saved[2].id, saved[1].id, saved[0].id])
            let restored = try harness.journal.entries(ids: [saved[1].id]).first
            XCTAssertEqual(restored, middle, "same id, uuid, text, mood, date and location")
        }
    }

    func testAKeyRepeatDeletesOnceWithoutAFalseError() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            open(harness, saved[1])
            harness.main.journal.delete(saved[1].id)
            XCTAssertFalse(harness.main.journal.entryView.editButton.isSensitive, "Edit waits while the entry is deleted")
            harness.main.journal.delete(saved[1].id)
            harness.waitUntil("the row goes") { harness.main.journal.list.count == 2 }
            MainLoop.run(for: 0.2)
            XCTAssertNil(harness.main.alerts.current, "the second Delete was not another deletion")
            XCTAssertEqual(harness.main.notice.undoable.count, 1)
        }
    }

    func testClosingOverChangedEditsAsksEachTimeUntilDiscarded() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            let journal = harness.main.journal
            open(harness, saved[0])
            journal.editOpenEntry()
            journal.editor.fields.titleField.text = "Oldest, reworded"
            for _ in 0..<2 {
                harness.main.window.close()
                let question = try XCTUnwrap(harness.waitForDialog())
                XCTAssertEqual(question.title, "Discard changes?")
                try XCTUnwrap(question.button(for: Alerts.cancel)).click()
                harness.waitUntil("the question goes") { harness.main.alerts.current == nil }
                XCTAssertTrue(harness.main.window.isVisible, "Cancel keeps the window")
                XCTAssertEqual(journal.editor.fields.titleField.text, "Oldest, reworded")
            }
            harness.main.window.close()
            try XCTUnwrap(try XCTUnwrap(harness.waitForDialog()).button(for: Alerts.discard)).click()
            harness.waitUntil("Discard closes the window") { !harness.main.window.isVisible }
            XCTAssertEqual(try harness.journal.entries(ids: [saved[0].id]).first?.title, "Oldest")
        }
    }

    func testTheDateBackOnTheEntrysOwnMinuteIsNoChange() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            let journal = harness.main.journal
            open(harness, saved[1])
            journal.editOpenEntry()
            let picker = journal.editor.fields.datePicker
            picker.open()
            harness.waitUntil("the date popover opens") { picker.popover.isMapped }
            let hour = picker.hour.value
            picker.hour.value = (hour + 1) % 24
            XCTAssertNotNil(picker.date)
            XCTAssertTrue(journal.editor.hasChanges)
            picker.hour.value = hour
            XCTAssertNil(picker.date, "the entry's own time, seconds and all, is kept")
            XCTAssertFalse(journal.editor.hasChanges)
            picker.popover.close()
        }
    }

    func testTheNoticeGoesAfterItsTimeAndTheDeletionStays() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            let notice = harness.main.notice
            XCTAssertEqual(notice.lifetimeMilliseconds, 10_000, "about ten seconds, as GNOME's notifications")
            notice.lifetimeMilliseconds = 300
            harness.main.journal.delete(saved[0].id)
            harness.waitUntil("the notice shows") { notice.isShowing }
            harness.waitUntil("the notice goes by itself") { !notice.isShowing }
            XCTAssertFalse(harness.main.window.isActionEnabled("undo"))
            XCTAssertEqual(try harness.journal.count(), 2)
        }
    }

    func testABackDatedEntryLandsBelowNewerOnes() throws {
        try MainActor.assumeIsolated {
            let (harness, saved) = try journalOfThree()
            defer { harness.close() }
            harness.main.show(.newEntry)
            let form = harness.form
            XCTAssertEqual(form.datePicker.button.label, "Now")
            harness.fill(title: "Looking back", body: "Written later.", mood: .okay)
            choose(saved[1].createdAt.addingTimeInterval(3_600), hour: true, in: form.datePicker, harness)
            form.saveButton.click()
            try XCTUnwrap(harness.waitForDialog()).button(for: Alerts.ok)?.click()
            harness.waitUntil("the entry is in the list") { harness.model.count == 4 }
            XCTAssertEqual(form.datePicker.button.label, "Now", "the form resets the date too")
            let id = try XCTUnwrap(harness.model.ids[safe: 1])
            XCTAssertEqual(harness.model.ids, [saved[2].id, id, saved[1].id, saved[0].id])
            XCTAssertEqual(harness.main.journal.list.key(at: 1), id)
            XCTAssertEqual(try harness.journal.entries(ids: [id]).first?.title, "Looking back")
        }
    }

    func testAFutureTimeIsRefusedNextToTheDate() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let form = harness.form
            harness.fill(title: "Tomorrow", body: "", mood: .okay)
            choose(Date().addingTimeInterval(86_400), in: form.datePicker, harness)
            form.saveButton.click()
            XCTAssertTrue(form.fields.dateError.isVisible)
            XCTAssertEqual(form.fields.dateError.text, "Choose a time that is not in the future.")
            XCTAssertTrue(form.datePicker.button.hasFocus, "the keyboard goes to the date")
            MainLoop.run(for: 0.2)
            XCTAssertEqual(try harness.journal.count(), 0)
            XCTAssertNil(harness.main.alerts.current)

            form.datePicker.resetButton.click()
            XCTAssertEqual(form.datePicker.button.label, "Now")
            XCTAssertFalse(form.fields.dateError.isVisible, "the message goes once the date is fixed")
        }
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
