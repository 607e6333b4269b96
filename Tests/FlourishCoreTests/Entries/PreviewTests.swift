import FlourishCore
import XCTest

final class PreviewTests: XCTestCase {
    func testShortTextIsShownWhole() {
        XCTAssertEqual("A walk by the sea.".preview(limit: 360), "A walk by the sea.")
        XCTAssertEqual("".preview(limit: 10), "")
    }

    func testLongTextIsCutAfterAWholeWordWithAnEllipsis() {
        let text = String(repeating: "word ", count: 200)
        let preview = text.preview(limit: 360)
        XCTAssertTrue(preview.hasSuffix("word…"), preview)
        XCTAssertLessThanOrEqual(preview.count, 361)
        XCTAssertGreaterThan(preview.count, 360 * 4 / 5)
    }

    func testTextWithoutSpacesIsCutAtTheLimit() {
        let text = String(repeating: "x", count: 1_000)
        XCTAssertEqual(text.preview(limit: 100), String(repeating: "x", count: 100) + "…")
    }

    func testEmojiAndCombiningCharactersAreNeverSplit() {
        let text = String(repeating: "e\u{301}🌧", count: 100)
        let preview = text.preview(limit: 9)
        XCTAssertEqual(preview, String(text.prefix(9)) + "…")
        XCTAssertEqual(preview.unicodeScalars.filter { $0 == "\u{301}" }.count, 5, "each é keeps its accent")
    }
}
