import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Which entries a book holds and the days its cover colours, read from a real journal file.
final class BookPlanTests: XCTestCase {
    let folder = TemporaryFolder()
    var calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }()

    private func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12, _ minute: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    @discardableResult
    private func save(_ store: JournalStore, _ title: String, mood: Mood? = .okay, at date: Date) throws -> Entry {
        // NewEntry, not a draft: the form never saves one without a mood, an import does.
        try store.save(NewEntry(title: title, body: "", mood: mood), createdAt: date)
    }

    func testAYearHoldsItsDaysInTheLocalTimeZoneOldestFirst() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let newYear = try save(store, "New year's first minute", at: at(2024, 1, 1, 0, 0))
        try save(store, "Last minute of the year before", at: at(2023, 12, 31, 23, 59))
        let last = try save(store, "Last minute of the year", at: at(2024, 12, 31, 23, 59))
        try save(store, "Next year", at: at(2025, 1, 1, 0, 0))
        let summer = try save(store, "Summer", at: at(2024, 7, 1))
        let plan = try store.bookPlan(.year(2024), calendar: calendar)
        XCTAssertEqual(plan.ids, [newYear.id, summer.id, last.id])
        XCTAssertEqual(plan.days, [Insights.Day(year: 2024, month: 1, day: 1), Insights.Day(year: 2024, month: 7, day: 1),
                                   Insights.Day(year: 2024, month: 12, day: 31)])
        XCTAssertEqual(plan.years, [2024])
    }

    func testDaysIncludeBothEndsAndAnOpenEndRunsToTheJournalsEnd() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let first = try save(store, "First", at: at(2024, 3, 1, 0, 5))
        let last = try save(store, "Last", at: at(2024, 3, 31, 23, 55))
        let after = try save(store, "After", at: at(2024, 4, 1, 0, 1))
        try save(store, "Before", at: at(2024, 2, 29, 23, 59))
        let march = BookRange.days(from: Insights.Day(year: 2024, month: 3, day: 1), to: Insights.Day(year: 2024, month: 3, day: 31))
        XCTAssertEqual(try store.bookPlan(march, calendar: calendar).ids, [first.id, last.id])
        let fromMarch = BookRange.days(from: Insights.Day(year: 2024, month: 3, day: 1), to: nil)
        XCTAssertEqual(try store.bookPlan(fromMarch, calendar: calendar).ids, [first.id, last.id, after.id])
        XCTAssertEqual(try store.bookPlan(.whole, calendar: calendar).ids.count, 4)
    }

    func testASearchBookHoldsWhatTheSearchFinds() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let walk = try save(store, "Walk by the sea", mood: .theBest, at: at(2024, 5, 1))
        try save(store, "Office", mood: .meh, at: at(2024, 5, 2))
        let swim = try save(store, "Sea swim", mood: .meh, at: at(2024, 5, 3))
        XCTAssertEqual(try store.bookPlan(.search(JournalQuery(text: "sea")), calendar: calendar).ids, [walk.id, swim.id])
        XCTAssertEqual(try store.bookPlan(.search(JournalQuery(text: "sea", moods: [.meh])), calendar: calendar).ids, [swim.id])
    }

    func testTheCoverColoursEachDayByItsAverageMoodAndKnowsDaysWithoutOne() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        try save(store, "Good morning", mood: .theBest, at: at(2024, 6, 1, 8))
        try save(store, "Bad evening", mood: .notSoGreat, at: at(2024, 6, 1, 20))
        try save(store, "Imported, no mood", mood: nil, at: at(2024, 6, 2))
        try save(store, "Mixed day, no mood", mood: nil, at: at(2024, 6, 3, 8))
        try save(store, "Mixed day, a mood", mood: .theWorst, at: at(2024, 6, 3, 9))
        let plan = try store.bookPlan(.whole, calendar: calendar)
        // (5 + 1) / 2 = 3: "really good" is 4, "okay" 3.
        XCTAssertEqual(plan.moods[Insights.Day(year: 2024, month: 6, day: 1)], .okay)
        XCTAssertEqual(plan.moods[Insights.Day(year: 2024, month: 6, day: 3)], .theWorst, "a day's mood is of the entries that have one")
        XCTAssertEqual(plan.daysWithoutMood, [Insights.Day(year: 2024, month: 6, day: 2)])
    }

    func testTheCoverWordsTheRange() {
        XCTAssertEqual(BookRange.year(2024).words(calendar: calendar), "2024")
        XCTAssertEqual(BookRange.whole.words(calendar: calendar), "The whole journal")
        let open = BookRange.days(from: Insights.Day(year: 2024, month: 3, day: 1), to: nil).words(calendar: calendar)
        XCTAssertTrue(open.hasPrefix("From ") && open.contains("2024"), open)
    }
}
