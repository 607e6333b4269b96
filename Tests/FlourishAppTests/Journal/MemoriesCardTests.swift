@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// "On this day" above the journal, in a real window, with the model's clock set to a day.
final class MemoriesCardTests: XCTestCase {
    private func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12) -> Date {
        Calendar.current.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
    }

    @discardableResult
    private func save(_ store: JournalStore, _ title: String, _ mood: Mood, at date: Date) throws -> Entry {
        try store.save(try EntryDraft(title: title, body: "Words of \(title).", mood: mood).validated().get(), createdAt: date)
    }

    /// A journal with entries on 27 November of three earlier years, one on the 28th, and others.
    private func journal(_ folder: TemporaryFolder) throws -> (path: String, lunch: Entry) {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        try save(store, "First snow", .reallyGood, at: at(2025, 11, 27, 22))
        let lunch = try save(store, "Lunch by the river", .theBest, at: at(2023, 11, 27, 12))
        try save(store, "Ten years on", .notSoGreat, at: at(2016, 11, 27, 9))
        try save(store, "The next day", .meh, at: at(2024, 11, 28, 9))
        try save(store, "Today", .okay, at: at(2026, 11, 27, 8))
        store.close()
        return (path, lunch)
    }

    @MainActor
    private func shownCard(_ harness: Harness) -> MemoriesCard {
        harness.main.show(.journal)
        let card = harness.main.journal.memories
        harness.waitUntil("the journal is on screen and its memories looked up") { harness.main.journal.isListed }
        MainLoop.run(for: 0.5)
        return card
    }

    func testTodaysMemoriesShowOneAYearAndEachOpensItsEntry() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let (path, lunch) = try journal(folder)
            let harness = try Harness(journalPath: path, clock: { [self] in at(2026, 11, 27, 9) })
            defer { harness.close() }
            let card = shownCard(harness)
            harness.waitUntil("the card shows") { card.view.isVisible && card.buttons.count == 3 }
            let lines = ["1 year ago · feeling really good · First snow", "3 years ago · feeling the best · Lunch by the river",
                         "10 years ago · feeling not so great · Ten years on"]
            XCTAssertEqual(card.buttons.map(\.accessibleName), lines, "each line is a button named by what it says")
            XCTAssertTrue(card.buttons[0].hasClass(Theme.moodClass(.reallyGood)), "edged in the mood's colour")

            card.buttons[1].click()
            XCTAssertEqual(harness.main.journal.page, .entry)
            XCTAssertEqual(harness.main.journal.entryView.entry?.id, lunch.id)
            harness.main.journal.back()
            XCTAssertEqual(harness.main.journal.page, .entries)
            XCTAssertTrue(card.view.isVisible)
        }
    }

    func testTwentyYearsOfMemoriesLeaveTheWindowToTheJournal() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let path = folder.file("journal.sqlite")
            let store = try JournalStore(path: path)
            for year in 2001...2025 { try save(store, "Year \(year)", .okay, at: at(year, 11, 27, 9)) }
            for day in 1...40 { try save(store, "Day \(day)", .meh, at: at(2026, 10, day % 28 + 1, day % 20)) }
            store.close()
            let harness = try Harness(journalPath: path, clock: { [self] in at(2026, 11, 27, 9) })
            defer { harness.close() }
            let card = shownCard(harness)
            harness.waitUntil("the card shows 20 memories") { card.view.isVisible && card.buttons.count == 20 }
            harness.waitForFrame("the card is laid out above the journal")
            XCTAssertLessThanOrEqual(card.linesScroll.allocatedHeight, MemoriesCard.linesMaxHeight,
                                     "the lines scroll past a few of them")
            XCTAssertGreaterThan(harness.main.journal.list.allocatedHeight, 200, "the journal keeps most of the window")
            XCTAssertEqual(card.buttons.last?.accessibleName, "20 years ago · feeling okay · Year 2006", "the latest twenty years first")
            let more = try XCTUnwrap(card.moreButton, "the earlier years wait behind a button")
            XCTAssertEqual(more.accessibleName, "Show 5 more years")
            more.click()
            harness.waitUntil("the other five years are shown") { card.buttons.count == 25 && card.moreButton == nil }
            XCTAssertTrue(card.buttons[20].hasFocus, "the keyboard goes on to the first of them")
            XCTAssertEqual(card.buttons[24].accessibleName, "25 years ago · feeling okay · Year 2001")
            _ = card.buttons[24].grabFocus()
            XCTAssertTrue(card.buttons[24].hasFocus, "the last memory is still reached from the keyboard")
        }
    }

    func testClosedTheCardStaysClosedThatDayAndComesBackTheNext() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let (path, _) = try journal(folder)
            let preferences = folder.file("preferences")
            do {
                let harness = try Harness(preferencesPath: preferences, journalPath: path, clock: { [self] in at(2026, 11, 27, 9) })
                defer { harness.close() }
                let card = shownCard(harness)
                harness.waitUntil("the card shows") { card.view.isVisible }
                card.closeButton.click()
                XCTAssertFalse(card.view.isVisible)
                XCTAssertEqual(harness.preferences.memoriesDismissedDay, "2026-11-27")
                harness.waitUntil("the focus goes to the journal, not nowhere") { harness.main.journal.list.focusedRow != nil }
            }
            do {
                // Opened again the same day: still closed, even after the entries change.
                let harness = try Harness(preferencesPath: preferences, journalPath: path, clock: { [self] in at(2026, 11, 27, 18) })
                defer { harness.close() }
                let card = shownCard(harness)
                harness.model.reloadFromDisk()
                MainLoop.run(for: 0.5)
                XCTAssertFalse(card.view.isVisible, "closed for the day")
            }
            do {
                let harness = try Harness(preferencesPath: preferences, journalPath: path, clock: { [self] in at(2026, 11, 28, 9) })
                defer { harness.close() }
                let card = shownCard(harness)
                harness.waitUntil("the next day has its own memories") { card.view.isVisible }
                XCTAssertEqual(card.buttons.map(\.accessibleName), ["2 years ago · feeling meh · The next day"])
            }
        }
    }

    func testNoMemoriesNoCardUntilAnEntryIsDatedOnThisDayOfAnEarlierYear() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness(clock: { [self] in at(2026, 2, 28, 9) })
            defer { harness.close() }
            try save(harness.journal, "Some other day", .okay, at: at(2025, 3, 3))
            harness.model.reloadFromDisk()
            let card = shownCard(harness)
            XCTAssertFalse(card.view.isVisible, "nothing to remember, no card")

            // Back-dated to a leap day: remembered on 28 February of a year without one.
            var saved = false
            harness.model.save(try EntryDraft(title: "Leap day", mood: .reallyGood, date: at(2024, 2, 29, 10))
                .validated(now: at(2026, 2, 28, 9)).get()) { result in saved = (try? result.get()) != nil }
            harness.waitUntil("the entry is saved") { saved }
            harness.waitUntil("the card comes with the new memory") { card.view.isVisible }
            XCTAssertEqual(card.buttons.map(\.accessibleName), ["2 years ago · feeling really good · Leap day"])
        }
    }

    /// A clock the test moves on.
    private final class Clock: @unchecked Sendable {
        var now: Date
        init(_ now: Date) { self.now = now }
    }

    func testAWindowLeftOpenOverMidnightShowsTheNewDaysMemories() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let (path, _) = try journal(folder)
            let clock = Clock(Calendar.current.date(from: DateComponents(year: 2026, month: 11, day: 27, hour: 23, minute: 59, second: 59))!)
            let harness = try Harness(journalPath: path, clock: { clock.now })
            defer { harness.close() }
            let card = shownCard(harness)
            harness.waitUntil("the 27th's memories") { card.buttons.count == 3 }
            clock.now = at(2026, 11, 28, 0)
            harness.waitUntil("the 28th's, once midnight has passed", timeout: 6) {
                card.buttons.map(\.accessibleName) == ["2 years ago · feeling meh · The next day"]
            }
        }
    }
}
