@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// Entries without a mood (imported from journals that have none) in the real window: "no mood"
/// is a state of its own wherever a mood shows, never one of the six, and the Edit page leaves
/// such an entry without one unless the person gives it one.
final class EntriesWithoutMoodUITests: XCTestCase {
    /// A journal of two entries today, "Walk" (okay) and "Imported" (no mood), listed.
    @MainActor
    private func journalOfTwo() throws -> (Harness, with: Entry, without: Entry) {
        let harness = try Harness()
        let now = Date()
        let with = try harness.journal.save(NewEntry(title: "Walk", body: "By the sea.", mood: .okay), createdAt: now.addingTimeInterval(-120))
        let without = try harness.journal.save(NewEntry(title: "Imported", body: "From an old diary.", mood: nil), createdAt: now.addingTimeInterval(-60))
        harness.model.load()
        harness.main.show(.journal)
        harness.waitUntil("the rows are filled in") { harness.main.journal.rows.filter { $0.entry != nil && $0.view.isMapped }.count == 2 }
        return (harness, with, without)
    }

    func testTheRowTheEntryPageAndTheEditPageSayNoMoodAndAnEditKeepsNone() throws {
        try MainActor.assumeIsolated {
            let (harness, with, without) = try journalOfTwo()
            defer { harness.close() }
            let journal = harness.main.journal
            let row = try XCTUnwrap(journal.rows.first { $0.entryID == without.id && $0.view.isMapped })
            XCTAssertTrue(row.view.hasClass(Theme.noMoodClass), "a neutral edge")
            XCTAssertFalse(Mood.catalogue.contains { row.view.hasClass(Theme.moodClass($0)) }, "never a mood's colour")
            XCTAssertTrue(row.metaLabel.text.hasSuffix(" · no mood"), row.metaLabel.text)
            XCTAssertEqual(JournalRow.spokenName(of: without, date: "today", tagCount: 0), "Imported, no mood, today")
            let other = try XCTUnwrap(journal.rows.first { $0.entryID == with.id && $0.view.isMapped })
            XCTAssertTrue(other.view.hasClass(Theme.moodClass(.okay)))
            XCTAssertFalse(other.view.hasClass(Theme.noMoodClass))

            XCTAssertTrue(journal.list.activateRow { $0.entryID == without.id }, "the row activates")
            harness.waitUntil("the entry view shows") { journal.page == .entry && journal.entryView.view.isMapped }
            XCTAssertEqual(journal.entryView.moodLabel.text, "No mood")

            XCTAssertTrue(harness.main.window.activateAction("win.edit-entry"), "Ctrl+E edits")
            harness.waitUntil("the edit form shows") { journal.page == .edit && journal.editor.view.isMapped }
            let fields = journal.editor.fields
            XCTAssertNil(fields.picker.mood)
            XCTAssertEqual(fields.picker.button.label, MoodPrompt.title, "the picker says “select”: no mood made up")
            fields.titleField.text = "Imported, read again"
            journal.editor.saveButton.click()
            harness.waitUntil("saved without a mood") { journal.page == .entry && journal.entryView.titleLabel.text == "Imported, read again" }
            XCTAssertFalse(fields.moodError.isVisible, "no mood asked for")
            XCTAssertEqual(journal.entryView.moodLabel.text, "No mood")
            XCTAssertEqual(try harness.journal.entries(ids: [without.id]).first?.mood, .some(nil), "stored without one")

            // Given one on the Edit page, it has one.
            journal.entryView.editButton.click()
            harness.waitUntil("the edit form shows") { journal.page == .edit && journal.editor.view.isMapped }
            fields.picker.button.click()
            harness.waitUntil("the mood popover opens") { fields.picker.popover.isMapped }
            fields.picker.choices[Mood.reallyGood.rawValue].click()
            journal.editor.saveButton.click()
            harness.waitUntil("saved with a mood") { journal.page == .entry && journal.entryView.moodLabel.text == "Feeling really good" }
            XCTAssertEqual(try harness.journal.entries(ids: [without.id]).first?.mood, .reallyGood)
        }
    }

    func testTheSearchOffersNoMoodAsAChoiceOfItsOwn() throws {
        try MainActor.assumeIsolated {
            let (harness, with, without) = try journalOfTwo()
            defer { harness.close() }
            let journal = harness.main.journal
            XCTAssertTrue(harness.main.window.activateAction("win.find"), "Ctrl+F")
            let search = journal.search
            XCTAssertEqual(search.moodChoices.count, 7, "six moods, then No mood")
            XCTAssertEqual(search.noMoodChoice.label, "No mood")
            search.noMoodChoice.isActive = true
            harness.waitUntil("only the entry without a mood") { journal.resultsList.keys == [without.id] }
            XCTAssertEqual(search.moodButton.label, "Mood (1)")
            search.moodChoices[Mood.okay.rawValue].isActive = true
            harness.waitUntil("either") { journal.resultsList.keys == [without.id, with.id] }
            search.noMoodChoice.isActive = false
            harness.waitUntil("okay alone") { journal.resultsList.keys == [with.id] }
        }
    }

    func testInsightsCountThemApartAndTheYearShowsTheirDaysAsWritten() throws {
        try MainActor.assumeIsolated {
            let (harness, _, _) = try journalOfTwo()
            defer { harness.close() }
            // Yesterday (or today, on the first of January) without a mood, alone that day.
            let calendar = Calendar.current
            let yesterday = calendar.date(byAdding: .day, value: -1, to: Date())!
            let alone = calendar.component(.year, from: yesterday) == calendar.component(.year, from: Date()) ? yesterday : nil
            if let alone { _ = try harness.journal.save(NewEntry(title: "Alone", body: "", mood: nil), createdAt: alone) }
            XCTAssertTrue(harness.main.window.activateAction("win.show-insights"), "Alt+3")
            let page = harness.main.insights
            harness.waitUntil("the figures are shown") { page.insights != nil && page.pixels.cells.count == 12 }
            let count = alone == nil ? 1 : 2
            XCTAssertEqual(page.withoutMood.text, count == 1 ? "1 entry without a mood" : "2 entries without a mood")
            XCTAssertTrue(page.withoutMood.isVisible)
            XCTAssertEqual(page.moodCounts[Mood.okay.rawValue].text, "okay: 1 entry", "counted apart from the moods")
            XCTAssertEqual(page.insights?.total.count, 1)
            let today = Insights.Day(Date())
            let todayCell = page.pixels.cells[today.month - 1][today.day - 1]
            XCTAssertTrue(todayCell.hasClass(Theme.moodClass(.okay)), "a day with a mood shows it")
            XCTAssertFalse(todayCell.hasClass(Theme.noMoodClass))
            if let alone {
                let day = Insights.Day(alone)
                let cell = page.pixels.cells[day.month - 1][day.day - 1]
                XCTAssertTrue(cell.hasClass(Theme.noMoodClass), "written, in no mood's colour")
                XCTAssertFalse(Mood.catalogue.contains { cell.hasClass(Theme.moodClass($0)) })
                XCTAssertEqual(page.pixels.texts[page.pixels.days.firstIndex(of: day)!], MoodChart.name(of: day, step: .day) + ": written, no mood")
            }
        }
    }

    @MainActor
    func testOnThisDaySaysNoMood() {
        let entry = Entry(id: 1, title: "Old diary", body: "", mood: nil, createdAt: Date())
        XCTAssertEqual(MemoriesCard.line(Memory(yearsAgo: 3, entry: entry)), "3 years ago · no mood · Old diary")
    }
}
