@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The forms' tag toggles, the rows' tags, the search bar with its filters and Escape, and the
/// Tags window, in a real window over a real journal file.
final class TagsAndSearchUITests: XCTestCase {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// A harness whose forms show the journal's tags.
    @MainActor
    private func harness() throws -> Harness {
        let harness = try Harness()
        harness.waitUntil("the tags are read") { harness.form.fields.tags.buttons.count == 8 }
        return harness
    }

    @MainActor
    private func tagID(_ harness: Harness, _ name: String) throws -> Int64 {
        try XCTUnwrap(harness.model.tags.first { $0.name == name }).id
    }

    func testTagsAreToggledAddedAndSavedWithTheEntry() throws {
        try MainActor.assumeIsolated {
            let harness = try harness()
            defer { harness.close() }
            let tags = harness.form.fields.tags
            XCTAssertEqual(tags.buttons.map(\.button.label),
                           ["exercise", "family", "friends", "good sleep", "music", "outdoors", "reading", "work"])
            try XCTUnwrap(tags.button(named: "work")).click()
            XCTAssertEqual(tags.selected, [try tagID(harness, "work")])

            // Refused next to the field, the text kept.
            tags.addField.text = "   "
            tags.add()
            XCTAssertTrue(tags.addError.isVisible)
            XCTAssertEqual(tags.addError.text, "Write a name for the tag.")
            tags.addField.text = String(repeating: "x", count: 41)
            tags.add()
            XCTAssertEqual(tags.addError.text, "A tag's name has at most 40 characters.")
            XCTAssertEqual(tags.addField.text.count, 41, "the name stays to be shortened")

            // A name there already, in another case, turns that tag on.
            tags.addField.text = "MUSIC"
            tags.add()
            XCTAssertFalse(tags.addError.isVisible)
            XCTAssertTrue(try XCTUnwrap(tags.button(named: "music")).isActive)
            XCTAssertEqual(harness.model.tags.count, 8, "no second music")

            tags.addField.text = "  Hiking "
            tags.add()
            harness.waitUntil("the new tag is made and on") { tags.button(named: "Hiking")?.isActive == true }
            XCTAssertEqual(tags.addField.text, "")
            let hiking = try tagID(harness, "Hiking")

            harness.fill(title: "Up the hill", body: "Long walk.", mood: .reallyGood)
            harness.form.save()
            harness.waitUntil("the saved dialog") { harness.main.alerts.current?.title == "Entry Saved" }
            harness.main.alerts.current?.button(for: Alerts.ok)?.click()
            let saved = try XCTUnwrap(try harness.journal.read(ids: try harness.journal.entryIDs()).entries.first)
            XCTAssertEqual(saved.tagIDs, [try tagID(harness, "work"), try tagID(harness, "music"), hiking])
            XCTAssertTrue(tags.selected.isEmpty, "the form starts again with no tag on")
            XCTAssertFalse(tags.buttons.contains { $0.button.isActive })

            harness.main.show(.journal)
            harness.waitUntil("the row shows its tags") {
                harness.main.journal.rows.first { $0.entryID == saved.id }?.tagsLabel.text == "Hiking · music · work"
            }
        }
    }

    func testAnEditChangesTheEntrysTagsAndTheEntryViewShowsThem() throws {
        try MainActor.assumeIsolated {
            let harness = try harness()
            defer { harness.close() }
            let work = try tagID(harness, "work"), family = try tagID(harness, "family")
            let entry = try harness.journal.save(try EntryDraft(title: "Sunday", mood: .okay, tagIDs: [work]).validated().get())
            harness.model.load()
            harness.main.show(.journal)
            let journal = harness.main.journal
            harness.waitUntil("the row") { journal.rows.contains { $0.entry?.id == entry.id } }
            journal.open(entry.id)
            XCTAssertEqual(journal.entryView.tagsLabel.text, "work")
            journal.editOpenEntry()
            let tags = journal.editor.fields.tags
            XCTAssertEqual(tags.selected, [work], "the edit form shows the entry's tags")
            XCTAssertFalse(journal.editor.hasChanges)
            try XCTUnwrap(tags.button(named: "work")).click()
            try XCTUnwrap(tags.button(named: "family")).click()
            XCTAssertTrue(journal.editor.hasChanges, "a tag changed is a change to keep or discard")
            journal.editor.save()
            harness.waitUntil("back on the entry view") { journal.page == .entry }
            XCTAssertEqual(journal.entryView.tagsLabel.text, "family")
            XCTAssertEqual(try harness.journal.read(ids: [entry.id]).entries.first?.tagIDs, [family])
        }
    }

    /// Three entries, the journal page shown, the search bar open.
    @MainActor
    private func searching() throws -> (Harness, [String: Entry]) {
        let harness = try harness()
        let work = try tagID(harness, "work"), friends = try tagID(harness, "friends")
        var entries: [String: Entry] = [:]
        for (index, (title, body, mood, tags)) in [("Café au lait", "Morning with friends", Mood.theBest, [friends]),
                                                   ("Walking the dog", "Rain at the cafe", Mood.meh, [work, friends]),
                                                   ("Long meeting", "Work all day", Mood.theWorst, [work])].enumerated() {
            entries[title] = try harness.journal.save(try EntryDraft(title: title, body: body, mood: mood, tagIDs: Set(tags)).validated().get(),
                                                      createdAt: Self.start.addingTimeInterval(Double(index) * 86_400))
        }
        harness.model.load()
        harness.main.show(.journal)
        harness.waitUntil("listed") { harness.main.journal.list.count == 3 }
        XCTAssertTrue(harness.main.window.activateAction("win.find"), "Ctrl+F")
        XCTAssertTrue(harness.main.journal.search.isSearching)
        return (harness, entries)
    }

    @MainActor
    private func waitForResults(_ harness: Harness, _ titles: [String], _ entries: [String: Entry],
                                file: StaticString = #filePath, line: UInt = #line) {
        let ids = titles.map { entries[$0]!.id }
        harness.waitUntil("the results are \(titles)", file: file, line: line) { harness.main.journal.resultsList.keys == ids }
    }

    func testSearchAsYouTypeFindsWordsAndHighlightsThem() throws {
        try MainActor.assumeIsolated {
            let (harness, entries) = try searching()
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
            let (harness, entries) = try searching()
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

            let work = try tagID(harness, "work"), friends = try tagID(harness, "friends")
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

    func testEscapeBringsTheWholeJournalBackWhereItWas() throws {
        try MainActor.assumeIsolated {
            let harness = try harness()
            defer { harness.close() }
            try harness.journal.save((0..<300).map { index in
                (entry: try EntryDraft(title: "Day \(index)", body: index % 50 == 0 ? "A rare word: heron." : "Ordinary words.",
                                       mood: .okay).validated().get(),
                 createdAt: Self.start.addingTimeInterval(Double(index) * 86_400))
            })
            harness.model.load()
            harness.main.show(.journal)
            let journal = harness.main.journal
            harness.waitUntil("listed") { journal.list.count == 300 }
            MainLoop.run(for: 0.2)
            journal.scroller.verticalPosition = 3_000
            harness.waitUntil("scrolled down") { journal.scroller.verticalPosition == 3_000 }
            MainLoop.run(for: 0.2)

            harness.main.window.activateAction("win.find")
            journal.search.entry.text = "heron"
            harness.waitUntil("six results") { journal.resultsList.count == 6 && journal.resultsScroller.isMapped }
            XCTAssertEqual(journal.resultsScroller.verticalPosition, 0, "results start at the top")
            XCTAssertEqual(journal.list.count, 300, "the journal's own list is left as it was")

            journal.search.stop() // Escape
            harness.waitUntil("the whole journal") { journal.scroller.isMapped }
            MainLoop.run(for: 0.3)
            XCTAssertEqual(journal.scroller.verticalPosition, 3_000, "at its previous position")
            XCTAssertFalse(journal.search.isSearching)
            XCTAssertEqual(journal.search.entry.text, "", "the words are cleared")
            XCTAssertTrue(journal.rows.allSatisfy { $0.bodyLabel.highlights.isEmpty }, "nothing highlighted")
            XCTAssertTrue(journal.list.focusedRow != nil || journal.list.containsFocus, "the keyboard is back on the journal")
        }
    }

    func testAnEntrySavedOrDeletedDuringASearchIsFoundOrGoesAtOnce() throws {
        try MainActor.assumeIsolated {
            let (harness, entries) = try searching()
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

    func testTheTagsWindowRenamesMergesAndDeletesAfterAsking() throws {
        try MainActor.assumeIsolated {
            let (harness, entries) = try searching()
            defer { harness.close() }
            harness.main.window.activateAction("win.show-tags")
            let window = try XCTUnwrap(harness.main.tagsWindow)
            harness.waitUntil("the tags are listed with their counts") { window.row(named: "work")?.count.text == "2 entries" }
            XCTAssertEqual(window.row(named: "friends")?.count.text, "2 entries")
            XCTAssertEqual(window.row(named: "music")?.count.text, "0 entries")

            let work = try XCTUnwrap(window.row(named: "work"))
            work.nameField.text = "FRIENDS"
            work.renameButton.click()
            harness.waitUntil("the taken name is refused") { work.problem.isVisible }
            XCTAssertEqual(work.problem.text, "There is already a tag “friends”.")
            work.nameField.text = "Job"
            work.nameField.grabFocus()
            work.renameButton.click()
            harness.waitUntil("renamed") { window.row(named: "Job") != nil }
            harness.waitUntil("the forms' toggles follow") { harness.form.fields.tags.button(named: "Job") != nil }
            XCTAssertTrue(harness.main.journal.rows.contains { $0.tagsLabel.text == "Job" }, "and the rows")

            try XCTUnwrap(window.row(named: "Job")).mergeChoices.first { $0.tag.name == "friends" }!.button.click()
            let merge = try XCTUnwrap(window.alerts.current)
            XCTAssertEqual(merge.title, "Merge “Job” into “friends”?")
            merge.button(for: Alerts.discard)?.click()
            harness.waitUntil("merged") { window.row(named: "Job") == nil && window.row(named: "friends")?.count.text == "3 entries" }
            XCTAssertEqual(try harness.journal.read(ids: [entries["Long meeting"]!.id]).entries.first?.tagIDs,
                           [try tagID(harness, "friends")])

            try XCTUnwrap(window.row(named: "friends")).deleteButton.click()
            let delete = try XCTUnwrap(window.alerts.current)
            XCTAssertEqual(delete.title, "Delete the tag “friends”?")
            XCTAssertEqual(delete.message, "It will be taken off the 3 entries that carry it. They keep everything else.")
            delete.button(for: Alerts.cancel)?.click()
            MainLoop.run(for: 0.2)
            XCTAssertNotNil(window.row(named: "friends"), "Cancel keeps it")
            try XCTUnwrap(window.row(named: "friends")).deleteButton.click()
            try XCTUnwrap(window.alerts.current).button(for: Alerts.discard)?.click()
            harness.waitUntil("deleted") { window.row(named: "friends") == nil }
            XCTAssertEqual(try harness.journal.count(), 3, "the entries stay")
            XCTAssertEqual(try harness.journal.tagIDs(forEntries: entries.values.map(\.id)), [:])
            window.window.close()
        }
    }

    func testAMergeWhileEditingKeepsTheEntrysTagAsTheTagItWentInto() throws {
        try MainActor.assumeIsolated {
            let harness = try harness()
            defer { harness.close() }
            let run = try harness.journal.createTag(named: "run")
            let exercise = try tagID(harness, "exercise")
            let entry = try harness.journal.save(try EntryDraft(title: "Morning", mood: .reallyGood, tagIDs: [run.id]).validated().get())
            harness.model.loadTags()
            harness.model.load()
            harness.main.show(.journal)
            let journal = harness.main.journal
            harness.waitUntil("the row") { journal.rows.contains { $0.entry?.id == entry.id } }
            journal.open(entry.id)
            journal.editOpenEntry()
            XCTAssertEqual(journal.editor.fields.tags.selected, [run.id])

            var merged = false
            harness.model.mergeTag(id: run.id, into: exercise) { merged = (try? $0.get()) != nil }
            harness.waitUntil("merged") { merged }
            XCTAssertEqual(journal.editor.fields.tags.selected, [exercise], "the toggle follows the merge")
            XCTAssertFalse(journal.editor.hasChanges, "a merge is no change of the person's")
            journal.editor.fields.titleField.text = "Morning run"
            journal.editor.save()
            harness.waitUntil("saved") { journal.page == .entry }
            XCTAssertEqual(try harness.journal.read(ids: [entry.id]).entries.first?.tagIDs, [exercise])

            // Deleted, the tag merged away, then undone: it comes back with the tag it went into.
            let other = try harness.journal.createTag(named: "jog")
            _ = try harness.journal.update(id: entry.id, with: try EntryDraft(title: "Morning run", mood: .reallyGood,
                                                                                tagIDs: [other.id]).validated().get(), updatedAt: Date())
            harness.model.loadTags()
            var deleted: DeletedEntry?
            harness.model.delete(id: entry.id) { deleted = try? $0.get() }
            harness.waitUntil("deleted") { deleted != nil }
            merged = false
            harness.model.mergeTag(id: other.id, into: exercise) { merged = (try? $0.get()) != nil }
            harness.waitUntil("merged") { merged }
            var restored: Entry?
            harness.model.restore(deleted!) { restored = try? $0.get() }
            harness.waitUntil("restored") { restored != nil }
            XCTAssertEqual(restored?.tagIDs, [exercise])
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
