import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Entries carry their tags through every intent (save, edit, read, undo), the model keeps its
/// tags and the entries in memory in step with the file, and a search says which words to
/// highlight.
final class EntryTagsTests: XCTestCase {
    let folder = TemporaryFolder()

    private func tag(_ store: JournalStore, _ name: String) throws -> Int64 {
        try XCTUnwrap(try store.tags().first { $0.name == name }).id
    }

    func testAnEntryIsSavedEditedReadAndRestoredWithItsTags() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let work = try tag(store, "work"), music = try tag(store, "music")
        let saved = try store.save(try EntryDraft(title: "Gig", mood: .theBest, tagIDs: [work, music]).validated().get())
        XCTAssertEqual(saved.tagIDs, [work, music], "the saved entry comes back with its tags")
        XCTAssertEqual(try store.read(ids: [saved.id]).entries.first?.tagIDs, [work, music])

        let edited = try store.update(id: saved.id, with: try EntryDraft(title: "Gig", mood: .theBest, tagIDs: [music]).validated().get(),
                                      updatedAt: Date())
        XCTAssertEqual(edited.tagIDs, [music], "an edit carries exactly the form's tags")

        // A tag deleted while the form was open is left out, not a failed save.
        let gone = try store.createTag(named: "Gone")
        _ = try store.deleteTag(id: gone.id)
        let kept = try store.update(id: saved.id, with: try EntryDraft(title: "Gig", mood: .okay, tagIDs: [music, gone.id]).validated().get(),
                                    updatedAt: Date())
        XCTAssertEqual(kept.tagIDs, [music])

        let deleted = try store.delete(id: saved.id)
        let restored = try store.restore(deleted)
        XCTAssertEqual(restored.tagIDs, [music], "undo brings the tags back")
        XCTAssertEqual(try store.matches(JournalQuery(tagIDs: [music])), [saved.id])
    }

    func testTheModelKeepsItsTagsAndTheEntriesInMemoryInStepWithTheFile() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let work = try tag(store, "work"), music = try tag(store, "music")
        let entry = try store.save(try EntryDraft(title: "Band practice", mood: .okay, tagIDs: [work, music]).validated().get())
        try MainActor.assumeIsolated {
            let model = JournalModel(store: store)
            var heard = 0
            model.observeTags { heard += 1 }
            model.loadTags()
            model.load()
            try wait { model.isLoaded && heard == 1 }
            XCTAssertEqual(model.tags.map(\.name), ["exercise", "family", "friends", "good sleep", "music", "outdoors", "reading", "work"])
            XCTAssertEqual(model.entry(id: entry.id)?.tagIDs, [work, music], "read with the ids: in memory now")
            XCTAssertEqual(model.tagNames([work, music]), ["music", "work"], "by name")

            var created: Tag?
            model.createTag(named: "Rehearsal") { created = try? $0.get() }
            try wait { created != nil }
            XCTAssertEqual(heard, 2)
            XCTAssertTrue(model.tags.contains { $0.name == "Rehearsal" })

            var moved: Int?
            model.mergeTag(id: music, into: created!.id) { moved = try? $0.get() }
            try wait { moved != nil }
            XCTAssertEqual(moved, 1)
            XCTAssertEqual(model.entry(id: entry.id)?.tagIDs, [work, created!.id], "the entry in memory follows the merge")
            XCTAssertFalse(model.tags.contains { $0.id == music }, "the merged tag is gone")

            var carried: Int?
            model.deleteTag(id: work) { carried = try? $0.get() }
            try wait { carried != nil }
            XCTAssertEqual(carried, 1)
            XCTAssertEqual(model.entry(id: entry.id)?.tagIDs, [created!.id], "and the deletion")
            XCTAssertEqual(try store.read(ids: [entry.id]).entries.first?.tagIDs, [created!.id], "as the file has it")

            var refused: JournalError?
            model.renameTag(id: created!.id, to: "  ") { if case .failure(let error) = $0 { refused = error } }
            try wait { refused != nil }
            XCTAssertEqual(refused, .tagName(.empty))
            XCTAssertEqual(heard, 4, "a refused change tells no one")
        }
    }

    func testASearchSaysWhichWordsItMatchedInBytes() {
        let query = JournalQuery(text: "cafe WAL")
        let text = "Un Café, walking; Walt's cafeteria and a wall-e"
        let words = query.highlights(in: text).map { range in
            String(decoding: Array(text.utf8)[range], as: UTF8.self)
        }
        XCTAssertEqual(words, ["Café", "walking", "Walt", "cafeteria", "wall"], "prefixes, without case or accents")
        XCTAssertEqual(JournalQuery(text: "sea").highlights(in: "the seaside"), [4..<11])
        XCTAssertEqual(JournalQuery(text: "").highlights(in: "anything"), [])
        XCTAssertEqual(JournalQuery(text: "zz").highlights(in: "no match here"), [])
    }

    @MainActor
    private func wait(_ condition: @MainActor () -> Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(5)
        while !condition() && Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
        XCTAssertTrue(condition(), "not within 5 s", file: file, line: line)
        if !condition() { throw TimedOut() }
    }

    private struct TimedOut: Error {}
}
