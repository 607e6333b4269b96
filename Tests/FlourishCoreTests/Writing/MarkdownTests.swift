@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Entries' Markdown read by cmark-gfm: the blocks the entry page shows, the words without
/// marks that previews show, and the parts the editor sets apart.
final class MarkdownTests: XCTestCase {
    private let sample = """
        # A day *out*

        We **walked** to the `harbour`, see [the map](https://example.org/map). ~~Rain~~
        Then tea.

        - [x] bread
        - [ ] milk

        > Quiet é
        """

    func testTheBlocksAreReadWithTheirWords() {
        XCTAssertEqual(Markdown.blocks(sample), [
            .heading(level: 1, [.text("A day "), .emphasis([.text("out")])]),
            .paragraph([.text("We "), .strong([.text("walked")]), .text(" to the "), .code("harbour"), .text(", see "),
                        .link(url: "https://example.org/map", [.text("the map")]), .text(". "), .strikethrough([.text("Rain")]),
                        .text("\n"), .text("Then tea.")]),
            .list(ordered: false, start: 0, items: [[.paragraph([.text("bread")])], [.paragraph([.text("milk")])]], tasks: [true, false]),
            .quote([.paragraph([.text("Quiet é")])]),
        ])
    }

    func testPlainTextIsTheWordsWithoutMarks() {
        XCTAssertEqual(Markdown.plain(sample), "A day out\nWe walked to the harbour, see the map. Rain\nThen tea.\n☑ bread\n☐ milk\nQuiet é")
        XCTAssertEqual(Markdown.plain("Just words, as entries always were.\nTwo lines."), "Just words, as entries always were.\nTwo lines.",
                       "plain text is Markdown already, and reads the same")
        XCTAssertEqual(Markdown.plain("1\\. not a list"), "1. not a list", "an escape is read, not shown")
        XCTAssertEqual(Markdown.plain("3. three\n4. four\n\n---\n\nEnd"), "3. three\n4. four\nEnd", "numbered from its start; a rule is no line")
    }

    func testAPreviewReadsOnlyTheStartOfALongBody() {
        let long = "# Title line\n\n" + String(repeating: "**Bold** words and more words. ", count: 400)
        let preview = long.plainPreview(limit: 60)
        XCTAssertTrue(preview.hasPrefix("Title line\nBold words and more words. Bold words"), preview)
        XCTAssertTrue(preview.hasSuffix("…") && preview.count <= 61, preview)
    }

    func testTheEditorsSpansCoverTheStyledWordsAndTheirMarks() {
        let text = "# Hi\nSome **bold** and `code` é [x](http://a.b)"
        let spans = Markdown.spans(in: text)
        func covered(_ kind: Markdown.Span.Kind) -> [String] {
            spans.filter { $0.kind == kind }.map { span in
                String(String.UnicodeScalarView(Array(text.unicodeScalars)[span.range]))
            }
        }
        XCTAssertEqual(covered(.heading(level: 1)), ["# Hi"])
        XCTAssertEqual(covered(.strong), ["**bold**"])
        XCTAssertEqual(covered(.code), ["code"])
        XCTAssertEqual(covered(.link(url: "http://a.b")), ["[x](http://a.b)"])
        XCTAssertEqual(covered(.mark), ["# ", "**", "**", "`", "`", "[", "](http://a.b)"])
    }

    func testSearchFindsTheWordsInsideTheMarksAndExportKeepsTheMarks() throws {
        let folder = TemporaryFolder()
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        defer { store.close() }
        let body = "We **walked** to the _old_ `harbour`"
        let saved = try store.save(NewEntry(title: "Sea", body: body, mood: .okay), createdAt: Date())
        for word in ["walked", "old", "harbour"] {
            XCTAssertEqual(try store.matches(JournalQuery(text: word)), [saved.id], word)
        }
        let export = folder.file("journal.json")
        _ = try store.export(.json, to: export, calendar: .current, now: Date(), progress: { _, _ in true })
        let written = try String(contentsOfFile: export, encoding: .utf8)
        XCTAssertTrue(written.contains("We **walked** to the _old_ `harbour`"), "exported as written")
    }

    func testOnlyWebPagesAndEmailsAreFollowedAndDoubleBackticksAreMarks() {
        XCTAssertTrue(Markdown.isFollowable("https://example.org/a"))
        XCTAssertTrue(Markdown.isFollowable("HTTP://example.org"))
        XCTAssertTrue(Markdown.isFollowable("mailto:me@example.org"))
        XCTAssertFalse(Markdown.isFollowable("file:///etc/passwd"), "a file on this computer")
        XCTAssertFalse(Markdown.isFollowable("steam://run/1"), "another program's scheme")
        XCTAssertFalse(Markdown.isFollowable("relative/page"))
        let text = "a ``co`de`` b"
        let marks = Markdown.spans(in: text).filter { $0.kind == .mark }.map(\.range)
        XCTAssertEqual(marks, [2..<4, 9..<11], "both backticks on each side")
    }
}

