import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// "sleep < 6" in the search bar: what is read as a condition on a measure, and what the store
/// finds with it, alone and with words and filters.
final class MeasureSearchTests: XCTestCase {
    let folder = TemporaryFolder()

    private let measures = [
        Measure(id: 1, name: "Sleep", kind: .number, unit: "hours"),
        Measure(id: 2, name: "Sleep quality", kind: .scale),
        Measure(id: 3, name: "Énergie", kind: .scale),
    ]

    func testConditionsAreReadOutOfTheSearchTextAndTheRestAreWords() {
        func read(_ text: String) -> (String, [MeasureCondition]) {
            let (words, conditions) = MeasureCondition.extract(from: text, measures: measures)
            return (words.split(separator: " ").joined(separator: " "), conditions)
        }
        XCTAssertEqual(read("sleep < 6").1, [MeasureCondition(measureID: 1, comparison: .less, value: 6)])
        XCTAssertEqual(read("sleep < 6").0, "")
        XCTAssertEqual(read("walk SLEEP>=7.5 beach").0, "walk beach")
        XCTAssertEqual(read("walk SLEEP>=7.5 beach").1, [MeasureCondition(measureID: 1, comparison: .atLeast, value: 7.5)])
        XCTAssertEqual(read("sleep quality ≤ 2").1, [MeasureCondition(measureID: 2, comparison: .atMost, value: 2)],
                       "the longer name, not “sleep” followed by a word")
        XCTAssertEqual(read("énergie = 4 sleep > 6,5").1, [MeasureCondition(measureID: 3, comparison: .equal, value: 4),
                                                          MeasureCondition(measureID: 1, comparison: .greater, value: 6.5)],
                       "in the order typed, a decimal comma read as a point")
        XCTAssertEqual(read("sleep well").1, [], "a name without a comparison is a word")
        XCTAssertEqual(read("sleep well").0, "sleep well")
        XCTAssertEqual(read("sleepy < 3").1, [], "a measure's name inside a longer word is not it")
        XCTAssertEqual(read("sleep < x").0, "sleep < x")
        XCTAssertEqual(MeasureCondition.extract(from: "sleep < 6", measures: []).conditions, [], "no measures, only words")
    }

    func testTheStoreFindsEntriesByTheirValues() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let sleep = try store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number))
        let energy = try store.createMeasure(MeasureDefinition(name: "Energy", kind: .scale))
        func save(_ title: String, _ values: [Int64: Double], mood: Mood = .okay) throws -> Int64 {
            try store.save(try EntryDraft(title: title, mood: mood, measures: values).validated().get(), createdAt: Date()).id
        }
        let short = try save("Short night walk", [sleep.id: 5, energy.id: 2])
        let long = try save("Long night", [sleep.id: 9, energy.id: 4], mood: .theBest)
        let edge = try save("Six hours walk", [sleep.id: 6])
        _ = try save("Nothing tracked", [:])
        func find(_ conditions: [MeasureCondition], text: String = "", moods: Set<Mood> = []) throws -> Set<Int64> {
            var query = JournalQuery(text: text, moods: moods)
            query.measures = conditions
            return Set(try store.matches(query))
        }
        XCTAssertEqual(try find([MeasureCondition(measureID: sleep.id, comparison: .less, value: 6)]), [short])
        XCTAssertEqual(try find([MeasureCondition(measureID: sleep.id, comparison: .atMost, value: 6)]), [short, edge])
        XCTAssertEqual(try find([MeasureCondition(measureID: sleep.id, comparison: .equal, value: 6)]), [edge])
        XCTAssertEqual(try find([MeasureCondition(measureID: energy.id, comparison: .atLeast, value: 1)]), [short, long],
                       "only entries that gave a value")
        XCTAssertEqual(try find([MeasureCondition(measureID: sleep.id, comparison: .greater, value: 4),
                                 MeasureCondition(measureID: energy.id, comparison: .less, value: 3)]), [short], "every condition")
        XCTAssertEqual(try find([MeasureCondition(measureID: sleep.id, comparison: .atLeast, value: 5)], text: "walk"), [short, edge])
        XCTAssertEqual(try find([MeasureCondition(measureID: sleep.id, comparison: .atLeast, value: 5)], moods: [.theBest]), [long])
        XCTAssertEqual(try store.search({ var q = JournalQuery(); q.measures = [MeasureCondition(measureID: sleep.id, comparison: .greater, value: 0)]; return q }()),
                       [edge, long, short], "newest first")
    }
}
