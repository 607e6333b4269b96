import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// The words written in each month, read from a real journal: every month of the period in
/// order, those without a word too, each entry in its local month, words as the form counts them.
final class WordsByMonthTests: XCTestCase {
    private let folder = TemporaryFolder()

    func testEachMonthOfThePeriodHasItsWordsInLocalTime() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        var tokyo = Calendar(identifier: .gregorian)
        tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        func save(_ body: String, _ year: Int, _ month: Int, _ day: Int, _ hour: Int) throws {
            let date = tokyo.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
            _ = try store.save(try EntryDraft(title: "t", body: body, mood: .okay).validated().get(), createdAt: date)
        }
        try save("one two three", 2026, 1, 5, 12)
        try save("**four** five", 2026, 1, 31, 23)   // 14:00 UTC: still January in Tokyo
        try save("- six\n- seven, eight — nine", 2026, 3, 1, 0) // 15:00 UTC on 28 February: March in Tokyo
        try save("ten", 2025, 12, 31, 10)
        let now = tokyo.date(from: DateComponents(year: 2026, month: 4, day: 15, hour: 9))!

        let year = try store.wordsByMonth(for: .year(2026), now: now, calendar: tokyo)
        XCTAssertEqual(year.map(\.month), Array(1...12))
        XCTAssertEqual(year.map(\.words), [5, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        let all = try store.wordsByMonth(for: .all, now: now, calendar: tokyo)
        XCTAssertEqual(all.map { "\($0.year)-\($0.month):\($0.words)" }, ["2025-12:1", "2026-1:5", "2026-2:0", "2026-3:4", "2026-4:0"],
                       "from the first month written to this one")
        let recent = try store.wordsByMonth(for: .last30Days, now: now, calendar: tokyo)
        XCTAssertEqual(recent.map(\.month), [3, 4])
        XCTAssertEqual(recent.map(\.words), [0, 0], "the 1st of March is more than 30 days before the 15th of April")
        let empty = try JournalStore(path: folder.file("empty.sqlite"))
        XCTAssertEqual(try empty.wordsByMonth(for: .all, now: now, calendar: tokyo), [], "a journal without entries has no month of its own")
        XCTAssertEqual(try empty.wordsByMonth(for: .last12Months, now: now, calendar: tokyo).count, 12)
    }
}
