@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The Insights page in a real window: its words are the store's figures, its bars follow the
/// counts, the period chooser changes them, and a save shows on the next visit.
final class InsightsUITests: XCTestCase {
    func testThePageSaysTheFiguresOfItsPeriodAndFollowsASave() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let now = Date()
            for (index, mood) in [Mood.theBest, .theBest, .okay, .theWorst].enumerated() {
                _ = try harness.journal.save(try EntryDraft(title: "Day \(index)", mood: mood).validated().get(),
                                             createdAt: now.addingTimeInterval(-Double(index) * 86_400))
            }
            // Two years ago: outside the last 30 days and the last 12 months.
            _ = try harness.journal.save(try EntryDraft(title: "Long ago", mood: .meh).validated().get(),
                                         createdAt: now.addingTimeInterval(-730 * 86_400))
            let page = harness.main.insights
            XCTAssertTrue(harness.main.window.activateAction("win.show-insights"), "Alt+3")
            harness.waitUntil("the figures are shown") { page.insights != nil }
            XCTAssertEqual(page.insights, try harness.journal.insights(for: .last30Days, now: Date(), calendar: .current))
            XCTAssertEqual(page.moodCounts.map(\.text), ["the best: 2 entries", "really good: 0 entries", "okay: 1 entry",
                                                         "meh: 0 entries", "not so great: 0 entries", "the worst: 1 entry"])
            harness.waitUntil("the most frequent mood has the longest bar, the others in proportion") {
                page.moodBars[0].allocatedWidth == InsightsController.barWidth && page.moodBars[2].allocatedWidth == InsightsController.barWidth / 2
            }
            let today = Calendar.current.component(.weekday, from: now) // 1 is Sunday
            let todayIndex = (today + 5) % 7
            XCTAssertTrue(page.weekdays[todayIndex].text.hasPrefix(InsightsController.weekdayNames[todayIndex] + ": the best, 5.0 on average, 1 entry"),
                          page.weekdays[todayIndex].text)
            XCTAssertEqual(page.streaks.text, "Current streak: 4 days · Longest: 4 days")

            page.periods[2].button.click() // All
            harness.waitUntil("all the entries are counted") { page.insights?.total.count == 5 }
            XCTAssertEqual(page.moodCounts[3].text, "meh: 1 entry")

            harness.main.show(.newEntry)
            var saved = false
            harness.model.save(try EntryDraft(title: "One more", mood: .reallyGood).validated().get()) { saved = (try? $0.get()) != nil }
            harness.waitUntil("saved") { saved }
            harness.main.show(.insights)
            harness.waitUntil("the save is counted") { page.insights?.total.count == 6 }
            XCTAssertEqual(page.moodCounts[1].text, "really good: 1 entry")
        }
    }

    func testWordsWrittenAreCountedByMonthAndFollowASave() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let now = Date()
            let lastMonth = Calendar.current.date(byAdding: .month, value: -1, to: now)!
            _ = try harness.journal.save(try EntryDraft(title: "Today", body: "A **long** walk by the sea.", mood: .okay).validated().get(),
                                         createdAt: now)
            _ = try harness.journal.save(try EntryDraft(title: "Before", body: "# Heading\n\n- one\n- two", mood: .okay).validated().get(),
                                         createdAt: lastMonth)
            let page = harness.main.insights
            XCTAssertTrue(harness.main.window.activateAction("win.show-insights"))
            page.periods[2].button.click() // All
            let formatter = DateFormatter()
            formatter.setLocalizedDateFormatFromTemplate("MMMM yyyy")
            harness.waitUntil("the words of each month, newest first") {
                page.wordFigures.lines.map(\.text) == ["\(formatter.string(from: now)): 6 words", "\(formatter.string(from: lastMonth)): 3 words"]
            }
            XCTAssertEqual(page.wordFigures.total.text, "9 words in this period", "marks are not words")
            var saved = false
            harness.model.save(try EntryDraft(title: "Later", body: "Four more words here", mood: .okay).validated().get()) {
                saved = (try? $0.get()) != nil
            }
            harness.waitUntil("saved") { saved }
            harness.main.show(.newEntry)
            harness.main.show(.insights)
            harness.waitUntil("the save is counted") { page.wordFigures.lines.first?.text == "\(formatter.string(from: now)): 10 words" }
        }
    }

    func testAnEmptyJournalSaysSo() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.main.show(.insights)
            let page = harness.main.insights
            harness.waitUntil("the figures are shown") { page.insights != nil }
            XCTAssertTrue(page.summary.isMapped)
            XCTAssertEqual(page.summary.text, "No entries in this period yet.")
            XCTAssertEqual(page.weekdays[0].text, "\(InsightsController.weekdayNames[0]): no entries")
            XCTAssertEqual(page.streaks.text, "Current streak: 0 days · Longest: 0 days")
        }
    }
}
