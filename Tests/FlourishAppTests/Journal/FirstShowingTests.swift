@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import GtkKit
import XCTest

/// How the Journal page keeps its first showing to what is on screen (see FirstScreen).
final class FirstShowingTests: XCTestCase {
    func testOnlyTheRowsAWindowCanShowAreLaidOutBeforeTheFirstFrame() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            try harness.journal.save((0..<200).map { index in
                (entry: try EntryDraft(title: "Day \(index)", body: "Some words about day \(index).", mood: .okay).validated().get(),
                 createdAt: start.addingTimeInterval(Double(index) * 86_400))
            })
            harness.model.load()
            harness.waitUntil("the model has every entry") { harness.model.count == 200 }
            let journal = harness.main.journal
            let shortest = FirstScreen.shortestRow
            XCTAssertGreaterThan(journal.view.windowHeight, 0, "the window has its size")

            // Listing happens as the page maps; rows are built and bound at once.
            harness.main.show(.journal)
            XCTAssertTrue(journal.isListed)
            let limit = Int(journal.view.windowHeight) / shortest + 2
            let waiting = journal.rows.filter { $0.entryID != nil && $0.entry == nil }
            let shown = journal.rows.filter { $0.entry != nil }
            XCTAssertFalse(waiting.isEmpty, "rows past what the window can show wait")
            XCTAssertEqual(Set(shown.compactMap(\.entryID)), Set(harness.model.ids.prefix(limit)),
                           "every row the window could show has its entry, from the first frame")

            harness.waitUntil("after the first frame, the waiting rows are filled in") {
                journal.rows.allSatisfy { $0.entryID == nil || $0.entry != nil }
            }
            XCTAssertNil(journal.firstScreen.limit, "later rows bind as they come")
        }
    }

    func testTheJournalIsReadOnlyWhenItsPageIsFirstShownAndItsListTakesTheFocus() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let path = folder.file("journal.sqlite")
            let store = try JournalStore(path: path)
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            try store.save((0..<30).map { index in
                (entry: try EntryDraft(title: "Day \(index)", body: "Words.", mood: .reallyGood).validated().get(),
                 createdAt: start.addingTimeInterval(Double(index) * 86_400))
            })
            store.close()

            let harness = try Harness(journalPath: path, load: false)
            defer { harness.close() }
            harness.main.show(.newEntry)
            MainLoop.run(for: 0.3)
            XCTAssertFalse(harness.model.isLoaded || harness.model.isLoading,
                           "nothing of the journal is read while the New Entry page shows")

            harness.main.show(.journal)
            harness.waitUntil("the journal is listed") { harness.main.journal.isListed }
            XCTAssertEqual(harness.model.count, 30)
            XCTAssertEqual(harness.main.journal.page, .entries)
            harness.waitUntil("the newest row has the keyboard") {
                harness.main.journal.list.focusedRow?.entryID == harness.model.ids.first
            }
        }
    }

    func testARowsTextFollowsAFontChange() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            _ = try harness.journal.save(try EntryDraft(title: "Fonts", body: "A line of words.", mood: .okay).validated().get(), createdAt: Date())
            harness.model.load()
            harness.main.show(.journal)
            harness.waitUntil("the row is shown") { harness.main.journal.rows.contains { $0.entry != nil && $0.view.isMapped } }
            harness.waitForFrame("its text is laid out")
            let row = try XCTUnwrap(harness.main.journal.rows.first { $0.entry != nil })
            let before = row.bodyLabel.allocatedHeight
            XCTAssertGreaterThan(before, 0)
            row.bodyLabel.addClass("entry-view-title") // 1.8em instead of 0.95em
            harness.waitUntil("the text is laid out again in the larger font") { row.bodyLabel.allocatedHeight > before }
        }
    }

    func testTheWindowAppearsWithoutTransitionsThenAnimatesAsUsual() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness(animations: true)
            defer { harness.close() }
            let window = harness.main.window
            harness.waitUntil("the window gets the keyboard") { window.isActive }
            harness.waitUntil("transitions come back once that frame is painted") { !window.hasClass("appearing") }
        }
    }

    func testGLIsNotBroughtUpUnderTheCairoRenderer() {
        // The test command runs under Xvfb with GSK_RENDERER=cairo (scripts/with-display).
        XCTAssertEqual(ProcessInfo.processInfo.environment["GSK_RENDERER"], "cairo")
        MainActor.assumeIsolated { Toolkit.initialize() }
        let debug = ProcessInfo.processInfo.environment["GDK_DEBUG"] ?? ""
        XCTAssertTrue(debug.split(separator: ",").contains("gl-disable"), "GDK_DEBUG is \(debug)")
    }
}
