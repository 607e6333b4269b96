import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Search (full text, filters, and the index kept current by every change), on a real journal file.
final class SearchTests: XCTestCase {
    let folder = TemporaryFolder()

    func testTextSearchFindsPrefixesWithoutCaseOrAccentsNewestFirst() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let cafe = try store.save("Café morning", "Croissant and a long talk", day: 1)
        let walk = try store.save("Walk", "By the CAFE on the corner, then home", day: 2)
        _ = try store.save("Nothing here", "Rain", day: 3)
        XCTAssertEqual(try store.search(JournalQuery(text: "cafe")), [walk.id, cafe.id])
        XCTAssertEqual(try store.search(JournalQuery(text: "caf")), [walk.id, cafe.id], "a word's start matches as you type")
        XCTAssertEqual(try store.search(JournalQuery(text: "CROISS")), [cafe.id])
        XCTAssertEqual(try store.search(JournalQuery(text: "cafe corner")), [walk.id], "every word must match")
        XCTAssertEqual(try store.search(JournalQuery(text: "\"unbalanced OR (*")), [], "typed text is never query syntax")
        XCTAssertEqual(try store.search(JournalQuery(text: "   ")).count, 3, "no words: the whole journal")
    }

    func testTheIndexFollowsEditsDeletionsAndUndo() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let entry = try store.save("Sunrise", "Swim in the lake", day: 1)
        _ = try store.update(id: entry.id, with: try EntryDraft(title: "Sunset", body: "Read by the fire", mood: .okay).validated().get(),
                             updatedAt: Date())
        XCTAssertEqual(try store.search(JournalQuery(text: "lake")), [])
        XCTAssertEqual(try store.search(JournalQuery(text: "fire")), [entry.id])
        let deleted = try store.delete(id: entry.id)
        XCTAssertEqual(try store.search(JournalQuery(text: "fire")), [])
        _ = try store.restore(deleted)
        XCTAssertEqual(try store.search(JournalQuery(text: "sunset")), [entry.id])
    }

    func testFiltersCombineWithTheTextAndEachOther() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let tags = try store.tags()
        let work = try XCTUnwrap(tags.first { $0.name == "work" }), friends = try XCTUnwrap(tags.first { $0.name == "friends" })
        let e1 = try store.save("Office party", "with friends from work", .theBest, day: 10)
        let e2 = try store.save("Office again", "deadline", .meh, day: 20)
        let e3 = try store.save("Dinner party", "friends over", .reallyGood, day: 30)
        try store.setTags([work.id, friends.id], forEntry: e1.id)
        try store.setTags([work.id], forEntry: e2.id)
        try store.setTags([friends.id], forEntry: e3.id)
        let day = { (n: Int) in Date(timeIntervalSince1970: Double(n) * 86_400) }
        XCTAssertEqual(try store.search(JournalQuery(moods: [.theBest, .meh])), [e2.id, e1.id])
        XCTAssertEqual(try store.search(JournalQuery(tagIDs: [work.id])), [e2.id, e1.id])
        XCTAssertEqual(try store.search(JournalQuery(tagIDs: [work.id, friends.id])), [e1.id], "all chosen tags")
        XCTAssertEqual(try store.search(JournalQuery(from: day(15), to: day(31))), [e3.id, e2.id])
        XCTAssertEqual(try store.search(JournalQuery(from: day(20), to: day(20))), [], "to is exclusive")
        XCTAssertEqual(try store.search(JournalQuery(text: "party", tagIDs: [friends.id])), [e3.id, e1.id])
        XCTAssertEqual(try store.search(JournalQuery(text: "party", moods: [.reallyGood], tagIDs: [friends.id], from: day(1))), [e3.id])
        XCTAssertTrue(JournalQuery(text: " ,. ").isEmpty)
    }

    func testMatchesAreTheSearchesResultsAndTheModelOrdersThemLikeTheJournal() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let work = try XCTUnwrap(try store.tags().first { $0.name == "work" })
        // Saved out of date order, so that id order is not the journal's.
        var saved: [Entry] = []
        for (index, day) in [5, 1, 9, 3, 7, 2].enumerated() {
            let entry = try store.save("walk \(index)", index % 2 == 0 ? "by the sea" : "in town", Mood(rawValue: index % 6)!, day: day)
            if index % 3 == 0 { try store.setTags([work.id], forEntry: entry.id) }
            saved.append(entry)
        }
        let queries = [JournalQuery(text: "walk"), JournalQuery(text: "sea"), JournalQuery(text: "wal", moods: [.theBest, .okay]),
                       JournalQuery(tagIDs: [work.id]), JournalQuery(text: "town", from: Date(timeIntervalSince1970: 2.5 * 86_400))]
        for query in queries {
            XCTAssertEqual(Set(try store.matches(query)), Set(try store.search(query)), "\(query)")
            XCTAssertEqual(JournalQuery.inOrder(try store.matches(query), of: try store.entryIDs()), try store.search(query))
        }
        try MainActor.assumeIsolated {
            let model = JournalModel(store: store)
            model.load()
            let start = Date()
            while !model.isLoaded && Date().timeIntervalSince(start) < 5 { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
            var answers: [[Int64]] = []
            model.search(JournalQuery(text: "town")) { answers.append(try! $0.get()) } // overtaken: dropped
            model.search(JournalQuery(text: "sea")) { answers.append(try! $0.get()) }
            while answers.isEmpty && Date().timeIntervalSince(start) < 5 { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
            RunLoop.main.run(until: Date().addingTimeInterval(0.2))
            XCTAssertEqual(answers, [try store.search(JournalQuery(text: "sea"))], "only the latest answer, newest first")
        }
    }
}
