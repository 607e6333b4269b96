@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The book's pieces: Markdown set as Pango markup (escaped, never read as markup), and the
/// pages' order of years, months and entries from a real journal file.
final class BookContentTests: XCTestCase {
    let folder = TemporaryFolder()

    private func markups(_ body: String) -> [String] {
        BookMarkup.pieces(of: body).compactMap { piece in
            if case .text(let text) = piece { return text.markup }
            return nil
        }
    }

    func testMarkdownIsSetAndEverythingElseIsEscaped() {
        XCTAssertEqual(markups("**Bold** and *soft* and ~~gone~~ and `x<y`"),
                       ["<b>Bold</b> and <i>soft</i> and <s>gone</s> and <tt>x&lt;y</tt>"])
        XCTAssertEqual(markups("Fish & chips <b>not bold</b>"), ["Fish &amp; chips &lt;b&gt;not bold&lt;/b&gt;"],
                       "what a person typed is never markup")
        XCTAssertEqual(markups("- one\n- [x] done\n- [ ] to do"), ["• one", "☑ done", "☐ to do"])
        XCTAssertEqual(markups("3. three\n4. four"), ["3. three", "4. four"])
        XCTAssertEqual(markups("[tides](https://example.org/t)"), ["<u>tides</u> <small>(https://example.org/t)</small>"])
        XCTAssertEqual(markups("> quiet"), ["<i>quiet</i>"])
        XCTAssertEqual(markups("```\na < b\n```"), ["a &lt; b"])
        XCTAssertEqual(BookText.escaped("bell\u{07} and form feed\u{0C}\ttab\nline"), "bell and form feed\ttab\nline",
                       "characters GMarkup refuses would lose the whole paragraph")
    }

    func testEachYearStartsAPageWithItsBookmarkAndEachMonthHasAHeading() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func at(_ year: Int, _ month: Int, _ day: Int) -> Date {
            calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        }
        _ = try store.save(NewEntry(title: "December", body: "", mood: .okay), createdAt: at(2023, 12, 30))
        _ = try store.save(NewEntry(title: "January", body: "", mood: nil), createdAt: at(2024, 1, 2))
        _ = try store.save(NewEntry(title: "Also January", body: "", mood: .theBest), createdAt: at(2024, 1, 3))
        let content = try BookContent(store: store, plan: try store.bookPlan(.whole, calendar: calendar), range: .whole, calendar: calendar)
        XCTAssertEqual(content.sectionCount, 4, "the cover, then an entry each")
        func describe(_ section: Int) -> [String] {
            content.pieces(ofSection: section).map { piece in
                switch piece {
                case .pageBreak: return "page"
                case .text(let text): return text.bookmark.map { "mark \($0.level) \($0.title)" } ?? (text.bar == nil ? "text" : "text+bar")
                case .photo: return "photo"
                case .years(let years): return "years \(years.map(\.year))"
                case .space: return "space"
                }
            }
        }
        XCTAssertTrue(describe(0).contains("years [2023, 2024]"))
        XCTAssertEqual(describe(0).last, "page", "the cover is a page of its own")
        XCTAssertEqual(Array(describe(1).prefix(3)), ["mark 0 2023", "mark 1 December 2023", "text+bar"])
        XCTAssertEqual(Array(describe(2).prefix(4)), ["page", "mark 0 2024", "mark 1 January 2024", "text"],
                       "a new year starts a page; an entry without a mood has no bar")
        XCTAssertEqual(describe(3).first, "text+bar", "the same month: no heading")
    }
}
