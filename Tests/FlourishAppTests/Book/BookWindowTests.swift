@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The Print and Export as PDF window: which entries it offers, and what it hands the print.
final class BookWindowTests: XCTestCase {
    func testItOffersTheYearsWithEntriesAndTheSearchInEffect() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            var calendar = Calendar.current
            calendar.timeZone = .current
            for (title, year) in [("Old walk", 2023), ("New walk", 2025), ("Swim", 2025)] {
                _ = try harness.journal.save(NewEntry(title: title, body: "", mood: .okay),
                                             createdAt: calendar.date(from: DateComponents(year: year, month: 6, day: 1, hour: 12))!)
            }
            harness.model.load()
            XCTAssertTrue(harness.main.window.activateAction("win.print"))
            let book = try XCTUnwrap(harness.main.bookWindow)
            XCTAssertEqual(book.window.title, "Print Journal")
            harness.waitUntil("the years are read") { book.years.items == ["2025", "2023"] }
            XCTAssertTrue(book.whole.isActive, "the whole journal until something else is chosen")
            XCTAssertEqual(book.range, .whole)
            XCTAssertFalse(book.search.isSensitive, "no search: nothing to offer")
            XCTAssertFalse(book.warning.isVisible, "a plain journal is not warned about")

            book.years.selected = 1
            XCTAssertTrue(book.year.isActive, "choosing a year chooses its line")
            XCTAssertEqual(book.range, .year(2023))

            // With words in the search bar, the next window offers them.
            book.window.close()
            harness.main.journal.search.entry.text = "walk"
            XCTAssertTrue(harness.main.window.activateAction("win.export-pdf"))
            let pdf = try XCTUnwrap(harness.main.bookWindow)
            XCTAssertEqual(pdf.window.title, "Export as PDF")
            XCTAssertTrue(pdf.search.isSensitive)
            pdf.search.isActive = true
            XCTAssertEqual(pdf.range, .search(JournalQuery(text: "walk")))
        }
    }
}
