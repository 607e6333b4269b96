@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import GtkKit
import XCTest

final class JournalTests: XCTestCase {
    func testAnEmptyJournalSaysSoKindly() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.main.show(.journal)
            XCTAssertEqual(harness.main.journal.page, .empty)
            XCTAssertTrue(harness.main.journal.emptyState.isMapped)
        }
    }

    func testAThousandEntriesListNewestFirstWithOnlyTheVisibleRowsBuilt() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            for index in 0..<1000 {
                let entry = try EntryDraft(title: "Day \(index)", body: String(repeating: "word ", count: index % 40),
                                           mood: Mood(rawValue: index % 6)).validated().get()
                _ = try harness.journal.save(entry, createdAt: start.addingTimeInterval(Double(index) * 86_400))
            }
            harness.model.load()
            harness.waitUntil("the model has every entry") { harness.model.count == 1000 }
            harness.main.show(.journal)
            XCTAssertEqual(harness.main.journal.list.count, 1000, "listed as the page shows")
            harness.waitUntil("the top rows are filled in") {
                harness.main.journal.rows.contains { $0.entry?.title == "Day 999" && $0.view.isMapped }
            }
            let built = harness.main.journal.rows.count
            XCTAssertLessThan(built, 60, "only the rows near the screen are built (GTK 4.8's list view would keep 200), built \(built)")
            let top = try XCTUnwrap(harness.main.journal.rows.first { $0.entry?.title == "Day 999" })
            XCTAssertTrue(top.view.hasClass(Theme.moodClass(Mood(rawValue: 999 % 6)!)))
            XCTAssertEqual(harness.main.journal.list.key(at: 0), try harness.journal.entryIDs()[0])
        }
    }

    func testNothingIsLaidOutForTheJournalUntilItIsShown() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            let entries = (0..<500).map { index in
                (entry: try! EntryDraft(title: "Day \(index)", body: "Words", mood: .okay).validated().get(),
                 createdAt: start.addingTimeInterval(Double(index) * 86_400))
            }
            try harness.journal.save(entries)
            harness.model.load()
            harness.waitUntil("the model has every entry") { harness.model.count == 500 }
            MainLoop.run(for: 0.3)
            XCTAssertEqual(harness.main.page, .newEntry)
            XCTAssertEqual(harness.main.journal.rows.filter { $0.entryID != nil }.count, 0,
                           "no journal row is bound (nor its text shaped) while the New Entry page shows")
            harness.main.show(.journal)
            harness.waitUntil("rows appear once the journal shows") { harness.main.journal.rows.contains { $0.entry != nil } }
        }
    }

    func testARowShowsTheStartOfALongEntry() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let body = String(repeating: "A day of many words and long thoughts. ", count: 120) + "The end."
            _ = try harness.journal.save(try EntryDraft(title: "Long", body: body, mood: .okay).validated().get(), createdAt: Date())
            harness.model.load()
            harness.main.show(.journal)
            harness.waitUntil("the row is filled") { harness.main.journal.rows.contains { $0.entry != nil && $0.view.isMapped } }
            let row = try XCTUnwrap(harness.main.journal.rows.first { $0.entry != nil })
            XCTAssertEqual(row.bodyLabel.text, body.preview(limit: Entry.rowBodyLimit))
            XCTAssertTrue(row.bodyLabel.text.hasSuffix("…"))
            XCTAssertEqual(row.entry?.body, body, "the entry itself is whole, for the entry view")
        }
    }

    func testRowsWrapLongTextToGrow() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let longText = String(repeating: "A long line of feelings that must wrap. ", count: 12)
            _ = try harness.journal.save(try EntryDraft(title: "Short", body: longText, mood: .okay).validated().get(), createdAt: Date())
            _ = try harness.journal.save(try EntryDraft(title: "Tiny", body: "x", mood: .okay).validated().get(), createdAt: Date())
            harness.model.load()
            harness.main.show(.journal)
            harness.waitUntil("both rows are filled") { harness.main.journal.rows.filter { $0.entry != nil && $0.view.isMapped }.count == 2 }
            harness.waitForFrame("their text is laid out")
            let long = try XCTUnwrap(harness.main.journal.rows.first { $0.entry?.title == "Short" })
            let tiny = try XCTUnwrap(harness.main.journal.rows.first { $0.entry?.title == "Tiny" })
            let lineHeight = tiny.bodyLabel.allocatedHeight
            XCTAssertGreaterThan(lineHeight, 0)
            XCTAssertGreaterThanOrEqual(long.bodyLabel.allocatedHeight, lineHeight * 3,
                                        "the long body wraps onto several lines instead of being cut")
            XCTAssertGreaterThan(long.view.allocatedHeight, tiny.view.allocatedHeight)
        }
    }

    func testARowIsDrawnEdgedInItsMoodsColourOverABottomBorder() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            for (index, mood) in [Mood.theBest, .notSoGreat].enumerated() {
                let draft = EntryDraft(title: "Edge \(index)", body: "Words", mood: mood)
                _ = try harness.journal.save(try draft.validated().get(), createdAt: Date(timeIntervalSince1970: Double(index)))
            }
            harness.model.load()
            harness.main.show(.journal)
            harness.waitUntil("both rows show") { harness.main.journal.rows.filter { $0.entry != nil && $0.view.isMapped }.count == 2 }
            harness.waitForFrame("the rows are styled by their moods and laid out")
            for row in harness.main.journal.rows where row.entry != nil {
                let image = try XCTUnwrap(row.view.render())
                let mood = try XCTUnwrap(row.entry?.mood)
                for x in [0, 4, 7] {
                    XCTAssertEqual(image.hex(x: x, y: image.height / 2), mood.hex, "the 8 px left edge, at x = \(x)")
                }
                XCTAssertNotEqual(image.hex(x: 8, y: image.height / 2), mood.hex, "the edge is 8 px wide")
                XCTAssertEqual(image.hex(x: image.width / 2, y: image.height - 1), "#dad5cd", "the 1 px bottom border")
                XCTAssertNotEqual(image.hex(x: image.width / 2, y: image.height - 2), "#dad5cd")
            }
        }
    }

    func testTheRowStyleIsTheSeeds() {
        let css = ResourceLocator.text(named: "flourish.css")
        let moodCSS = MainActor.assumeIsolated { Theme.moodCSS }
        XCTAssertTrue(css.contains(".journal-row { border: 0 solid #dad5cd; border-bottom-width: 1px; box-shadow: inset 8px 0"),
                      "an 8 px left edge and a 1 px #dad5cd bottom border")
        XCTAssertEqual(css.components(separatedBy: "rgb(170, 151, 131)").count - 1, 2, "title and body colour")
        XCTAssertTrue(css.contains("300ms"), "the picker animates over 0.3 s")
        for mood in Mood.catalogue {
            XCTAssertTrue(moodCSS.contains(".journal-row.mood-\(mood.rawValue) { box-shadow: inset 8px 0 \(mood.hex); }"))
        }
    }
}

final class JournalFaultTests: XCTestCase {
    func testEntriesThatCannotBeReadAreSaidAndTriedAgain() throws {
        try MainActor.assumeIsolated {
            // Two failed reads: the newest entries read with the ids (which the rows then ask for
            // again, quietly), and the rows' own read, which the banner reports.
            let harness = try Harness(wrap: { FaultyStore(real: $0, entryFailures: 2, error: .busy) })
            defer { harness.close() }
            _ = try harness.journal.save(try EntryDraft(title: "Patience", mood: .okay).validated().get(), createdAt: Date())
            harness.model.load()
            harness.waitUntil("the model has the entry") { harness.model.count == 1 }
            harness.main.show(.journal)
            let journal = harness.main.journal
            harness.waitUntil("the banner says what happened") { journal.banner.isMapped }
            XCTAssertTrue(journal.banner.text.contains(JournalError.busy.errorDescription!))
            XCTAssertEqual(journal.page, .entries, "the list stays; only the rows wait")
            harness.waitUntil("the retry fills the row", timeout: 6) {
                journal.rows.contains { $0.entry?.title == "Patience" && $0.view.isMapped }
            }
            XCTAssertFalse(journal.banner.isVisible)
        }
    }

    func testAJournalThatCannotBeListedSaysWhy() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness(wrap: { FaultyStore(real: $0, readFailures: 1, error: .io(reason: "disk I/O error")) })
            defer { harness.close() }
            // The harness's own load met the fault; the page says so instead of an empty journal.
            harness.main.show(.journal)
            XCTAssertEqual(harness.main.journal.page, .problem)
            XCTAssertTrue(harness.main.journal.problemLabel.text.contains("disk I/O error"))
        }
    }
}
