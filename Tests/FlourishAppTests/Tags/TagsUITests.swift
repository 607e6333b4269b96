@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The forms' tag toggles, the rows' tags and the Tags window, in a real window over a real
/// journal file.
final class TagsUITests: XCTestCase {
    func testTagsAreToggledAddedAndSavedWithTheEntry() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness.withTags()
            defer { harness.close() }
            let tags = harness.form.fields.tags
            XCTAssertEqual(tags.buttons.map(\.button.label),
                           ["exercise", "family", "friends", "good sleep", "music", "outdoors", "reading", "work"])
            try XCTUnwrap(tags.button(named: "work")).click()
            XCTAssertEqual(tags.selected, [try harness.tagID("work")])

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
            let hiking = try harness.tagID("Hiking")

            harness.fill(title: "Up the hill", body: "Long walk.", mood: .reallyGood)
            harness.form.save()
            harness.waitUntil("the saved dialog") { harness.main.alerts.current?.title == "Entry Saved" }
            harness.main.alerts.current?.button(for: Alerts.ok)?.click()
            let saved = try XCTUnwrap(try harness.journal.read(ids: try harness.journal.entryIDs()).entries.first)
            XCTAssertEqual(saved.tagIDs, [try harness.tagID("work"), try harness.tagID("music"), hiking])
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
            let harness = try Harness.withTags()
            defer { harness.close() }
            let work = try harness.tagID("work"), family = try harness.tagID("family")
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

    func testTheTagsWindowRenamesMergesAndDeletesAfterAsking() throws {
        try MainActor.assumeIsolated {
            let (harness, entries) = try Harness.searching()
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
                           [try harness.tagID("friends")])

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
            let harness = try Harness.withTags()
            defer { harness.close() }
            let run = try harness.journal.createTag(named: "run")
            let exercise = try harness.tagID("exercise")
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
}
