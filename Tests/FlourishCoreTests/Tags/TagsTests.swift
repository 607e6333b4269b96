import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Tags (round trip, rename, merge, delete, and back with an undone delete), on a real journal file.
final class TagsTests: XCTestCase {
    let folder = TemporaryFolder()

    func testTagsRoundTripAndTheirNamesFollowTheRules() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let hiking = try store.createTag(named: "  Hiking ")
        XCTAssertEqual(hiking.name, "Hiking", "trimmed")
        XCTAssertThrowsError(try store.createTag(named: "HIKING")) { error in
            XCTAssertEqual(error as? JournalError, .tagName(.taken(existing: "Hiking")))
        }
        XCTAssertThrowsError(try store.createTag(named: "   ")) { XCTAssertEqual($0 as? JournalError, .tagName(.empty)) }
        XCTAssertThrowsError(try store.createTag(named: String(repeating: "x", count: 41))) {
            XCTAssertEqual($0 as? JournalError, .tagName(.tooLong))
        }
        XCTAssertNoThrow(try store.createTag(named: String(repeating: "é", count: 40)), "40 characters, not bytes")
        let work = try XCTUnwrap(try store.tags().first { $0.name == "work" })
        let entry = try store.save("Long day", day: 1)
        try store.setTags([hiking.id, work.id], forEntry: entry.id)
        XCTAssertEqual(try store.tagIDs(forEntries: [entry.id]), [entry.id: [hiking.id, work.id]])
        XCTAssertEqual(try store.tags().first { $0.id == hiking.id }?.entryCount, 1)

        try store.renameTag(id: hiking.id, to: "Walking")
        XCTAssertEqual(try store.tags().first { $0.id == hiking.id }?.name, "Walking")
        XCTAssertEqual(try store.tagIDs(forEntries: [entry.id])[entry.id], [hiking.id, work.id], "entries keep a renamed tag")
        XCTAssertThrowsError(try store.renameTag(id: hiking.id, to: "WORK"))
        XCTAssertNoThrow(try store.renameTag(id: hiking.id, to: "walking"), "its own name in another case")
    }

    func testMergeAndDeleteSayHowManyEntriesTheyTouchAndKeepTheEntries() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let tags = try store.tags()
        let work = try XCTUnwrap(tags.first { $0.name == "work" }), music = try XCTUnwrap(tags.first { $0.name == "music" })
        let a = try store.save("a", day: 1), b = try store.save("b", day: 2), c = try store.save("c", day: 3)
        try store.setTags([work.id], forEntry: a.id)
        try store.setTags([work.id, music.id], forEntry: b.id)
        try store.setTags([music.id], forEntry: c.id)
        XCTAssertEqual(try store.mergeTag(id: music.id, into: work.id), 1, "c gains work; b had it already")
        XCTAssertNil(try store.tags().first { $0.id == music.id })
        XCTAssertEqual(try store.tagIDs(forEntries: [a.id, b.id, c.id]), [a.id: [work.id], b.id: [work.id], c.id: [work.id]])
        XCTAssertEqual(try store.deleteTag(id: work.id), 3)
        XCTAssertEqual(try store.tagIDs(forEntries: [a.id, b.id, c.id]), [:])
        XCTAssertEqual(try store.count(), 3, "entries keep everything else")
    }

    func testUndoingADeletePutsItsTagsBack() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let work = try XCTUnwrap(try store.tags().first { $0.name == "work" })
        let entry = try store.save("tagged", day: 1)
        try store.setTags([work.id], forEntry: entry.id)
        let deleted = try store.delete(id: entry.id)
        XCTAssertEqual(try store.tags().first { $0.id == work.id }?.entryCount, 0)
        _ = try store.restore(deleted)
        XCTAssertEqual(try store.tagIDs(forEntries: [entry.id]), [entry.id: [work.id]])
    }
}
