@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The Journal page's search bar with its filters and Escape, in a real window over a real
/// journal file.
final class SearchUITests: XCTestCase {
    private static let start = Harness.searchingStart

    @MainActor
    private func waitForResults(_ harness: Harness, _ titles: [String], _ entries: [String: Entry],
                                file: StaticString = #filePath, line: UInt = #line) {
        let ids = titles.map { entries[$0]!.id }
        harness.waitUntil("the results are \(titles)", file: file, line: line) { harness.main.journal.resultsList.keys == ids }
    }

    /// 300 entries a day apart, "Day 0" … "Day 299", each with the body `body` gives its number,
    /// listed on the Journal page.
    @MainActor
    private func listDays(in harness: Harness, body: (Int) -> String) throws -> JournalController {
        try harness.journal.save((0..<300).map { index in
            (entry: try EntryDraft(title: "Day \(index)", body: body(index), mood: .okay).validated().get(),
             createdAt: Self.start.addingTimeInterval(Double(index) * 86_400))
        })
        harness.model.load()
        harness.main.show(.journal)
        let journal = harness.main.journal
        harness.waitUntil("listed") { journal.list.count == 300 }
        return journal
    }

    /// The 300 days, every one with "walk" and every third with "walnut" too, searched for "wal":
    /// typing "n" then narrows the 300 results to 100.
    @MainActor
    private func searchWal(in harness: Harness) throws -> JournalController {
        let journal = try listDays(in: harness) { $0 % 3 == 0 ? "A walk, a walnut." : "A walk." }
        harness.main.window.activateAction("win.find")
        journal.search.entry.text = "wal"
        harness.waitUntil("300 results") { journal.resultsList.count == 300 && journal.resultsScroller.isMapped }
        harness.waitForFrame("the result rows are built and laid out")
        return journal
    }

    func testSearchAsYouTypeFindsWordsAndHighlightsThem() throws {
        try MainActor.assumeIsolated {
            let (harness, entries) = try Harness.searching()
            defer { harness.close() }
            let journal = harness.main.journal
            XCTAssertTrue(journal.search.entry.containsFocus, "Ctrl+F puts the keyboard in the search field")
            journal.search.entry.text = "caf"
            waitForResults(harness, ["Walking the dog", "Café au lait"], entries)
            XCTAssertEqual(journal.search.resultCount.text, "2 entries")
            journal.search.entry.text = "cafe rain"
            waitForResults(harness, ["Walking the dog"], entries)
            XCTAssertEqual(journal.search.resultCount.text, "1 entry")
            let row = try XCTUnwrap(journal.resultRows.first { $0.entryID == entries["Walking the dog"]!.id })
            harness.waitUntil("the row is bound") { row.entry != nil }
            XCTAssertEqual(row.bodyLabel.highlights, [0..<4, 12..<16], "Rain and cafe are highlighted in the body")
            XCTAssertEqual(row.titleLabel.highlights, [])

            journal.search.entry.text = "nothing like it"
            harness.waitUntil("no results") { journal.resultsList.count == 0 && journal.noMatches.isMapped }
            XCTAssertEqual(journal.search.resultCount.text, "No entries")
            XCTAssertTrue(journal.noMatches.isMapped, "a search that finds nothing says so")
        }
    }

    func testFiltersCombineWithTheWordsAndWithEachOther() throws {
        try MainActor.assumeIsolated {
            let (harness, entries) = try Harness.searching()
            defer { harness.close() }
            let search = harness.main.journal.search
            search.moodChoices[Mood.theWorst.rawValue].isActive = true
            waitForResults(harness, ["Long meeting"], entries)
            XCTAssertEqual(search.moodButton.label, "Mood (1)")
            search.moodChoices[Mood.meh.rawValue].isActive = true
            waitForResults(harness, ["Long meeting", "Walking the dog"], entries)
            search.entry.text = "rain"
            waitForResults(harness, ["Walking the dog"], entries)
            search.entry.text = ""
            search.moodChoices[Mood.theWorst.rawValue].isActive = false
            search.moodChoices[Mood.meh.rawValue].isActive = false

            let work = try harness.tagID("work"), friends = try harness.tagID("friends")
            search.tagChoices.first { $0.id == friends }!.check.isActive = true
            waitForResults(harness, ["Walking the dog", "Café au lait"], entries)
            search.tagChoices.first { $0.id == work }!.check.isActive = true
            waitForResults(harness, ["Walking the dog"], entries)
            XCTAssertEqual(search.tagButton.label, "Tags (2)", "entries with all the chosen tags")
            search.tagChoices.first { $0.id == friends }!.check.isActive = false

            search.from.set(Self.start.addingTimeInterval(86_400))
            waitForResults(harness, ["Long meeting", "Walking the dog"], entries)
            search.to.set(Self.start.addingTimeInterval(86_400))
            waitForResults(harness, ["Walking the dog"], entries)
            XCTAssertEqual(search.to.button.accessibleName, "To")
        }
    }

    /// The row at the top edge of the journal's page, and where it starts (0 or above: how much
    /// of it is scrolled past).
    @MainActor
    private func topRow(of journal: JournalController) -> (title: String, y: Double)? {
        journal.rows.compactMap { row -> (title: String, y: Double)? in
            // A row the list keeps but does not show is unmapped, its bounds those it last had.
            guard let entry = row.entry, row.view.isMapped, let bounds = row.view.bounds(in: journal.scroller),
                  bounds.y <= 0, bounds.y + bounds.height > 0 else { return nil }
            return (entry.title, bounds.y)
        }.first
    }

    /// The row at the top once the list's layout has settled: the same row, as far down, before
    /// and after a frame (a row measured for the first time may still move those after it).
    @MainActor
    private func settledTopRow(of journal: JournalController, _ harness: Harness) -> (title: String, y: Double)? {
        var last = topRow(of: journal)
        for _ in 0..<20 {
            harness.waitForFrame("the journal's rows laid out")
            let now = topRow(of: journal)
            if let now, let last, now == last { return now }
            last = now
        }
        return nil
    }

    func testEscapeBringsTheWholeJournalBackWhereItWas() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness.withTags()
            defer { harness.close() }
            let journal = try listDays(in: harness) { $0 % 50 == 0 ? "A rare word: heron." : "Ordinary words." }
            // Laid out, the list is tall enough to be scrolled 3,000 pixels down.
            harness.waitForFrame("the journal is laid out")
            journal.scroller.verticalPosition = 3_000
            harness.waitUntil("scrolled down") { journal.scroller.verticalPosition == 3_000 }
            harness.waitForFrame("the rows down there are shown")
            let before = try XCTUnwrap(settledTopRow(of: journal, harness), "the journal's layout settles")

            harness.main.window.activateAction("win.find")
            journal.search.entry.text = "heron"
            harness.waitUntil("six results") { journal.resultsList.count == 6 && journal.resultsScroller.isMapped }
            XCTAssertEqual(journal.resultsScroller.verticalPosition, 0, "results start at the top")
            XCTAssertEqual(journal.list.count, 300, "the journal's own list is left as it was")

            journal.search.stop() // Escape
            harness.waitUntil("the whole journal") { journal.scroller.isMapped }
            // Right after Escape it is still where it was left; the layout of its showing again is what could move it.
            harness.waitForFrame("the journal is laid out again")
            // Where it was is what the person sees: the same row at the top, as far down. (The
            // scroll position in pixels may change by a few as rows above are measured anew.)
            let after = try XCTUnwrap(settledTopRow(of: journal, harness), "the journal's layout settles again")
            XCTAssertEqual(after.title, before.title, "the same row at the top")
            XCTAssertEqual(after.y, before.y, accuracy: 0.5, "as far down")
            XCTAssertFalse(journal.search.isSearching)
            XCTAssertEqual(journal.search.entry.text, "", "the words are cleared")
            XCTAssertTrue(journal.rows.allSatisfy { $0.bodyLabel.highlights.isEmpty }, "nothing highlighted")
            XCTAssertTrue(journal.list.focusedRow != nil || journal.list.containsFocus, "the keyboard is back on the journal")
        }
    }

    func testTypingOnKeepsTheResultRowsAndShowsTheNewResultsInThem() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness.withTags()
            defer { harness.close() }
            let journal = try searchWal(in: harness)
            // Held, so that no row made later can take the address of one let go.
            let before = journal.resultRows
            XCTAssertFalse(before.isEmpty)

            journal.search.entry.type("n")
            harness.waitUntil("100 results") { journal.resultsList.count == 100 }
            // GTK would make its rows again, if at all, as it lays the new results out.
            harness.waitForFrame("the new results are laid out")
            let walnuts = journal.resultsList.keys
            XCTAssertEqual(walnuts.count, 100)
            // The rows GTK had built show the new results (not destroyed and made again, a
            // keystroke's worth of work at 100,000 entries; GTK may still make a few, as the
            // rows' heights change) …
            let after = journal.resultRows
            let kept = after.filter { row in before.contains { $0 === row } }
            XCTAssertGreaterThan(kept.count, after.count / 2, "the result rows are kept: \(kept.count) of \(after.count)")
            // … and each shows the entry now at its place, with the new words highlighted.
            let bound = journal.resultsList.boundRows
            XCTAssertFalse(bound.isEmpty)
            for (row, position) in bound {
                XCTAssertEqual(row.entryID, walnuts[position], "the row at \(position) shows the result there")
                if row.entry != nil {
                    XCTAssertEqual(row.bodyLabel.highlights, [10..<16], "walnut highlighted at \(position)")
                }
            }
        }
    }

    func testAfterTheKeyboardWasAmongTheResultsNewResultsGiveItTheFirst() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness.withTags()
            defer { harness.close() }
            let journal = try searchWal(in: harness)
            // The keyboard on the eighth result, then back in the search field.
            let eighth = journal.resultsList.keys[7]
            XCTAssertTrue(journal.resultsList.focusRow { $0.entryID == eighth })
            harness.waitUntil("the eighth result has the keyboard") { journal.resultsList.focusedRow?.entryID == eighth }
            _ = journal.search.entry.grabFocus()
            // Before the new results, the list gives the keyboard back to the eighth.
            journal.focusList()
            harness.waitUntil("the eighth again") { journal.resultsList.focusedRow?.entryID == eighth }
            _ = journal.search.entry.grabFocus()

            journal.search.entry.type("n")
            harness.waitUntil("100 results") { journal.resultsList.count == 100 }
            harness.waitForFrame("the new results are laid out")
            // After them (the rows kept, GTK told only that the list ended sooner), to the first.
            journal.focusList()
            let first = journal.resultsList.keys[0]
            harness.waitUntil("the first of the new results has the keyboard") { journal.resultsList.focusedRow?.entryID == first }
        }
    }

    func testAnEntrySavedOrDeletedDuringASearchIsFoundOrGoesAtOnce() throws {
        try MainActor.assumeIsolated {
            let (harness, entries) = try Harness.searching()
            defer { harness.close() }
            let journal = harness.main.journal
            journal.search.entry.text = "cafe"
            waitForResults(harness, ["Walking the dog", "Café au lait"], entries)
            var saved: Entry?
            harness.model.save(try EntryDraft(title: "Another café", mood: .okay).validated().get()) { saved = try? $0.get() }
            harness.waitUntil("saved") { saved != nil }
            harness.waitUntil("found by the search shown") { journal.resultsList.keys.first == saved?.id && journal.resultsList.count == 3 }
            XCTAssertEqual(journal.list.count, 4, "and listed in the journal underneath")
            journal.delete(entries["Café au lait"]!.id)
            harness.waitUntil("gone from the results") { journal.resultsList.count == 2 }
            XCTAssertEqual(journal.search.resultCount.text, "2 entries")
        }
    }

    func testAChangedSearchIsOneSpliceOfItsResults() {
        XCTAssertTrue(JournalController.difference(from: [5, 4, 3, 2], to: [5, 4, 3, 2]) == (4, 0, []))
        XCTAssertTrue(JournalController.difference(from: [5, 4, 3, 2], to: [6, 5, 4, 3, 2]) == (0, 0, [6]))
        XCTAssertTrue(JournalController.difference(from: [5, 4, 3, 2], to: [5, 3, 2]) == (1, 1, []))
        XCTAssertTrue(JournalController.difference(from: [5, 4, 3, 2], to: [5, 4, 9, 2]) == (2, 1, [9]))
        XCTAssertTrue(JournalController.difference(from: [], to: [1, 2]) == (0, 0, [1, 2]))
        XCTAssertTrue(JournalController.difference(from: [1, 2], to: []) == (0, 2, []))
        XCTAssertTrue(JournalController.difference(from: [1, 1], to: [1]) == (1, 1, []))
    }
}
