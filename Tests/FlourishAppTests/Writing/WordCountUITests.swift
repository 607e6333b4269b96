@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The number of words, under the body as it is written and on the entry page.
final class WordCountUITests: XCTestCase {
    func testTheFormCountsTheBodysWordsAndTheEntryPageSaysThem() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let fields = harness.form.fields
            XCTAssertEqual(fields.wordCount.text, "", "no count while the body is empty")
            fields.bodyField.text = "Cold and bright by the river."
            harness.waitUntil("the words counted") { fields.wordCount.text == "6 words" }
            fields.bodyField.placeCursor(at: fields.bodyField.characterCount)
            fields.bodyField.insertAtCursor(" Tea")
            harness.waitUntil("counted again") { fields.wordCount.text == "7 words" }
            fields.bodyField.text = ""
            harness.waitUntil("emptied, no count") { fields.wordCount.text.isEmpty }

            let entry = try harness.journal.save(NewEntry(title: "Walk", body: "One word more.", mood: .okay), createdAt: Date())
            harness.model.reloadFromDisk()
            harness.main.show(.journal)
            let journal = harness.main.journal
            harness.waitUntil("the row shows") { journal.rows.contains { $0.entryID == entry.id && $0.view.isMapped } }
            XCTAssertTrue(journal.list.activateRow { $0.entryID == entry.id })
            harness.waitUntil("the entry page shows") { journal.page == .entry && journal.entryView.view.isMapped }
            XCTAssertEqual(journal.entryView.wordsLabel.text, "3 words")
            XCTAssertTrue(journal.entryView.wordsLabel.isVisible)
        }
    }

    /// GTK's overlay indicator fades in at each motion over the text, and GTK makes one whenever
    /// the text under a resting pointer is laid out again, at every key: its frames (60 a second
    /// for a second) held each key's own frame back by up to 16 ms (scripts/bench --typing-only).
    func testTheFormsScrollbarsStandBesideTheTextAndNeverFadeInAsKeysAreTyped() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            XCTAssertTrue(harness.form.fields.bodyScroller.keepsScrollbarBeside, "the body's")
            XCTAssertTrue(harness.form.view.keepsScrollbarBeside, "the form's")
        }
    }
}
