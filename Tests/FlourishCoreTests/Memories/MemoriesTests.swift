import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// "On this day" on a real journal file: which entries today remembers, in a fixed time zone.
final class MemoriesTests: XCTestCase {
    let folder = TemporaryFolder()
    private let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Pacific/Auckland")!
        return calendar
    }()

    private func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12, _ minute: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    @discardableResult
    private func save(_ store: JournalStore, _ title: String, body: String = "", mood: Mood = .okay, at date: Date) throws -> Entry {
        try store.save(try EntryDraft(title: title, body: body, mood: mood).validated().get(), createdAt: date)
    }

    func testEachEarlierYearWithAnEntryTodayGivesItsEarliestMostRecentYearFirst() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let today = at(2026, 11, 27, 9)
        try save(store, "First snow", mood: .reallyGood, at: at(2025, 11, 27, 22, 35))
        let earliest = try save(store, "", body: "Morning in the park\nand then rain", mood: .meh, at: at(2023, 11, 27, 0, 5))
        try save(store, "Later that day", at: at(2023, 11, 27, 23, 55))
        try save(store, "Ten years on", mood: .theWorst, at: at(2016, 11, 27, 8))
        // The days around it, and today itself, are no memories.
        try save(store, "The day before", at: at(2025, 11, 26, 23, 59))
        try save(store, "The day after", at: at(2024, 11, 28, 0, 0))
        try save(store, "Today", at: at(2026, 11, 27, 8))
        try save(store, "A month later", at: at(2022, 12, 27))

        let memories = try store.memories(on: today, calendar: calendar)
        XCTAssertEqual(memories.map(\.yearsAgo), [1, 3, 10])
        XCTAssertEqual(memories.map(\.title), ["First snow", "Morning in the park", "Ten years on"])
        XCTAssertEqual(memories.map(\.mood), [.reallyGood, .meh, .theWorst])
        XCTAssertEqual(memories[1].id, earliest.id, "the day's earliest entry stands for its year")
        XCTAssertEqual(memories[1].createdAt, earliest.createdAt)
    }

    func testAJournalWithNothingOnThisDayAndAnEmptyJournalHaveNoMemories() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        XCTAssertEqual(try store.memories(on: at(2026, 11, 27), calendar: calendar), [])
        try save(store, "Another day", at: at(2024, 3, 2))
        try save(store, "Today", at: at(2026, 11, 27, 7))
        XCTAssertEqual(try store.memories(on: at(2026, 11, 27), calendar: calendar), [])
    }

    func testA29FebruaryIsRememberedOn28FebruaryInCommonYearsAndOn29FebruaryInLeapYears() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        try save(store, "Leap day", at: at(2024, 2, 29, 10))
        try save(store, "Common 28th", at: at(2025, 2, 28, 10))
        try save(store, "Leap year's 28th", at: at(2020, 2, 28, 23))
        try save(store, "Leap day before", at: at(2020, 2, 29, 9))
        try save(store, "First of March", at: at(2023, 3, 1, 9))

        // 28 February 2026, a common year: the leap years' 29ths come back with the 28ths.
        let common = try store.memories(on: at(2026, 2, 28, 9), calendar: calendar)
        XCTAssertEqual(common.map(\.title), ["Common 28th", "Leap day", "Leap year's 28th"])
        XCTAssertEqual(common.map(\.yearsAgo), [1, 2, 6])
        // 1 March 2026 remembers the 1sts of March only.
        XCTAssertEqual(try store.memories(on: at(2026, 3, 1, 9), calendar: calendar).map(\.title), ["First of March"])
        // 28 February 2028, a leap year: its own 29th is still to come, so the 28ths alone.
        XCTAssertEqual(try store.memories(on: at(2028, 2, 28, 9), calendar: calendar).map(\.title), ["Common 28th", "Leap year's 28th"])
        // 29 February 2028: the leap days, and no common year's 28th a second time.
        let leap = try store.memories(on: at(2028, 2, 29, 9), calendar: calendar)
        XCTAssertEqual(leap.map(\.title), ["Leap day", "Leap day before"])
        XCTAssertEqual(leap.map(\.yearsAgo), [4, 8])
    }

    func testTheDayIsTheLocalDayNotUTCs() throws {
        // 27 November 00:30 in Auckland is still 26 November in UTC.
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        try save(store, "Just after midnight", at: at(2025, 11, 27, 0, 30))
        try save(store, "Just before midnight", at: at(2025, 11, 26, 23, 30))
        XCTAssertEqual(try store.memories(on: at(2026, 11, 27, 12), calendar: calendar).map(\.title), ["Just after midnight"])
    }

    func testTheModelReadsTodaysMemoriesByItsClock() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        try save(store, "Another day", at: at(2024, 6, 14, 12))
        try save(store, "Three years ago", at: at(2023, 6, 15, 12))
        let model = MainActor.assumeIsolated { JournalModel(store: store, clock: { [self] in at(2026, 6, 15, 8) }) }
        let done = expectation(description: "memories")
        MainActor.assumeIsolated {
            model.memories(calendar: calendar) { result in
                XCTAssertEqual((try? result.get())?.map(\.title), ["Three years ago"])
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
    }

    func testTheReminderNamesTheOldestMemoryWithATitleNeverItsWordsAndNothingOfALockedJournal() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        let today = at(2026, 11, 27, 20)
        XCTAssertNil(JournalDay.oldestMemory(journal: path, on: today, calendar: calendar), "an empty journal has none")
        try save(store, "Last year", at: at(2025, 11, 27, 9))
        try save(store, "The oldest with a title", body: "Words that stay in the journal", at: at(2020, 11, 27, 9))
        try save(store, "", body: "Older still, but untitled", at: at(2018, 11, 27, 9))
        store.close()

        let memory = try XCTUnwrap(JournalDay.oldestMemory(journal: path, on: today, calendar: calendar))
        XCTAssertEqual(memory.yearsAgo, 6)
        XCTAssertEqual(memory.title, "The oldest with a title")
        XCTAssertNil(JournalDay.oldestMemory(journal: path, on: at(2026, 11, 28, 20), calendar: calendar), "another day, no memory")
        XCTAssertNil(JournalDay.oldestMemory(journal: folder.file("none.sqlite"), on: today, calendar: calendar))

        _ = try JournalLock.lock(path: path, passphrase: "a long passphrase for memories", cost: .interactive)
        XCTAssertTrue(JournalLock.isLocked(path))
        XCTAssertNil(JournalDay.oldestMemory(journal: path, on: today, calendar: calendar), "a locked journal tells nothing")
    }
}
