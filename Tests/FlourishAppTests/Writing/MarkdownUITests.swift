@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// An entry's Markdown in the real window: shown as it reads on the entry page (its heading
/// heard as one), and without marks in the journal's row.
final class MarkdownUITests: XCTestCase {
    func testTheEntryPageShowsTheMarkdownAsItReadsAndTheRowWithoutMarks() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let body = "# Harbour day\n\nWe **walked** far, see [the map](https://example.org).\n\n- [x] bread\n- [ ] milk\n\n> Quiet"
            let entry = try harness.journal.save(NewEntry(title: "", body: body, mood: .okay), createdAt: Date())
            harness.model.reloadFromDisk()
            harness.main.show(.journal)
            let journal = harness.main.journal
            harness.waitUntil("the row shows") { journal.rows.contains { $0.entryID == entry.id && $0.view.isMapped } }
            let row = try XCTUnwrap(journal.rows.first { $0.entryID == entry.id && $0.view.isMapped })
            XCTAssertEqual(row.bodyLabel.text, "Harbour day\nWe walked far, see the map.\n☑ bread\n☐ milk\nQuiet", "no marks in the row")
            XCTAssertTrue(JournalRow.spokenName(of: entry, date: "today", tagCount: 0).hasPrefix("Harbour day, "))

            XCTAssertTrue(journal.list.activateRow { $0.entryID == entry.id })
            harness.waitUntil("the entry page shows") { journal.page == .entry && journal.entryView.view.isMapped }
            let view = journal.entryView.body
            XCTAssertEqual(view.headings.map(\.level), [1])
            XCTAssertEqual(view.headings.first?.label.text, "Harbour day")
            XCTAssertTrue(view.headings.first?.label.isAccessibleHeading ?? false, "a screen reader hears a heading")
            XCTAssertEqual(view.labels.map(\.text), ["Harbour day", "We walked far, see the map.", "bread", "milk", "Quiet"])
            let paragraph = view.labels[1].markup
            XCTAssertTrue(paragraph.contains("<b>walked</b>") && paragraph.contains("<a href=\"https://example.org\">the map</a>"), paragraph)
            XCTAssertTrue(view.labels.allSatisfy(\.isSelectable))

            // A link to a file or another program's scheme is shown as words, never followed.
            view.show("[notes](file:///etc/passwd) and [web](https://example.org)")
            XCTAssertEqual(view.labels.first?.markup, "notes and <a href=\"https://example.org\">web</a>")
            // Thousands of short paragraphs (an old diary): runs of them share a label.
            view.show((1...500).map { "Day \($0)." }.joined(separator: "\n\n"))
            XCTAssertEqual(view.labels.count, 1)
            XCTAssertTrue(view.labels[0].text.hasPrefix("Day 1.\n\nDay 2."), view.labels[0].text.prefix(20).description)
        }
    }

    func testTheBodyIsStyledAsItIsWrittenItsMarksDimmedAndKeysHelpWriteIt() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let fields = harness.form.fields
            let body = fields.bodyField
            let markdown = try XCTUnwrap(fields.bodyMarkdown)
            body.text = "# Sea\nSome **bold** and *it* `code`"
            harness.waitUntil("styled") { markdown.isSettled }
            XCTAssertEqual(body.styles(at: 0), [.heading1, .mark], "the heading's mark, dimmed")
            XCTAssertEqual(body.styles(at: 2), [.heading1])
            XCTAssertEqual(body.styles(at: 11), [.strong, .mark], "the first *")
            XCTAssertEqual(body.styles(at: 13), [.strong])
            XCTAssertEqual(body.styles(at: 25), [.emphasis])
            XCTAssertEqual(body.styles(at: 30), [.code])
            XCTAssertEqual(body.styles(at: 8), [], "plain words stay plain")

            // A keystroke: "Some" made bold by typing its marks, one at a time.
            body.placeCursor(at: 6)
            for mark in ["*", "*"] { body.insertAtCursor(mark) }
            body.placeCursor(at: 12)
            for mark in ["*", "*"] { body.insertAtCursor(mark) }
            XCTAssertEqual(body.text, "# Sea\n**Some** **bold** and *it* `code`")
            XCTAssertEqual(body.styles(at: 9), [.strong], "styled as it is typed")

            // Ctrl+B wraps the selection; without one, it puts the marks in around the cursor.
            body.text = "calm sea"
            body.select(5..<8)
            XCTAssertTrue(markdown.wrap(in: "**"))
            XCTAssertEqual(body.text, "calm **sea**")
            XCTAssertEqual(body.selection, 7..<10, "the words stay selected")

            // Enter in a list item begins the next; in an empty one, ends the list.
            body.text = "- [x] bread"
            body.placeCursor(at: body.characterCount)
            XCTAssertTrue(markdown.continueList())
            XCTAssertEqual(body.text, "- [x] bread\n- [ ] ")
            XCTAssertTrue(markdown.continueList())
            XCTAssertEqual(body.text, "- [x] bread\n", "an empty item ends the list")
            body.text = "9. nine"
            body.placeCursor(at: body.characterCount)
            XCTAssertTrue(markdown.continueList())
            XCTAssertEqual(body.text, "9. nine\n10. ")
            body.text = "no list"
            body.placeCursor(at: body.characterCount)
            XCTAssertFalse(markdown.continueList(), "Enter is Enter elsewhere")
            // In the middle of an item: the words after the cursor go to the next item.
            body.text = "- buy milk"
            body.placeCursor(at: 6)
            XCTAssertTrue(markdown.continueList())
            XCTAssertEqual(body.text, "- buy \n- milk")
            // Before its words (right after the mark): a plain line break, the item kept.
            body.text = "- [ ] task"
            body.placeCursor(at: 2)
            XCTAssertFalse(markdown.continueList(), "inside the mark, Enter is Enter")
            body.placeCursor(at: 6)
            XCTAssertTrue(markdown.continueList())
            XCTAssertEqual(body.text, "- [ ] \n- [ ] task", "the words go on to the next item")
        }
    }

    func testAFencedCodeBlockWithBlankLinesIsStyledWholeAsItIsWritten() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let fields = harness.form.fields
            let body = fields.bodyField
            let markdown = try XCTUnwrap(fields.bodyMarkdown)
            let opening = "Before\n\n```\nlet a = 1\n"
            body.text = opening + "\n# not a heading\n```\n\n# After"
            harness.waitUntil("styled") { markdown.isSettled }
            let inside = (opening + "\n").count
            XCTAssertEqual(body.styles(at: inside + 2), [.code], "inside the fence, after its blank line: code, not a heading")
            XCTAssertEqual(body.styles(at: body.characterCount - 2), [.heading1], "after the fence, Markdown again")

            // Typed a key at a time, past the blank line: the fence is styled whole each time.
            body.placeCursor(at: inside + "# not a heading".count)
            for key in ["!", " ", "*", "x", "*"] { body.insertAtCursor(key) }
            XCTAssertEqual(body.styles(at: inside + 2), [.code])
            XCTAssertEqual(body.styles(at: inside + "# not a heading! *".count), [.code], "no emphasis inside code")
            // A fence opened and not closed yet runs to the text's end.
            body.text = "```\ncode\n\n# still code"
            harness.waitUntil("styled") { markdown.isSettled }
            body.placeCursor(at: body.characterCount)
            body.insertAtCursor("!")
            XCTAssertEqual(body.styles(at: body.characterCount - 3), [.code])
        }
    }
}
