import FlourishCore
import XCTest

/// Which fence is open where: what the editor widens a block to, so that blank lines inside a
/// fenced code block do not cut it in two.
final class MarkdownFencesTests: XCTestCase {
    func testAnOpenFenceIsFoundAndItsClosingLine() throws {
        XCTAssertNil(MarkdownFences.open(in: "no fence\n\nat all"))
        XCTAssertNil(MarkdownFences.open(in: "```\ncode\n```\n"), "closed")
        let open = try XCTUnwrap(MarkdownFences.open(in: "text\n\n```swift\nlet a = 1\n\n"))
        XCTAssertEqual(open.offset, 6, "its opening line's start")
        XCTAssertEqual(MarkdownFences.closing(open, in: "more\n\n```\nafter"), "more\n\n```".count)
        XCTAssertNil(MarkdownFences.closing(open, in: "more\n~~~\n```` not a close"), "another character, or words after it")
        XCTAssertEqual(MarkdownFences.closing(open, in: "````  "), 6, "a longer run closes it")
        let tilde = try XCTUnwrap(MarkdownFences.open(in: "~~~~\n```\n"))
        XCTAssertEqual(tilde.offset, 0, "backticks do not close a tilde fence")
        XCTAssertNil(MarkdownFences.open(in: "``` a`b\n"), "an opening line's words hold no backtick")
        XCTAssertNil(MarkdownFences.open(in: "    ```\n"), "four spaces in is code, not a fence")
        XCTAssertNil(MarkdownFences.open(in: "``\n"), "two are not a fence")
        XCTAssertEqual(MarkdownFences.open(in: "é\n```\n")?.offset, 2, "offsets in characters")
    }
}
