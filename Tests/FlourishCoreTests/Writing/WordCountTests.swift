@testable import FlourishCore
import XCTest

/// Words as a person counts them, for the form's and the entry page's "124 words".
final class WordCountTests: XCTestCase {
    func testWordsAreRunsBetweenSpacesThatHoldALetterOrADigit() {
        XCTAssertEqual(WordCount.of(""), 0)
        XCTAssertEqual(WordCount.of("  \n\n "), 0)
        XCTAssertEqual(WordCount.of("Walked 5 km — well-known path, then tea."), 7, "a lone dash is no word")
        XCTAssertEqual(WordCount.of("Café\tcrème\nnaïve 🌧"), 3, "an emoji alone is no word")
        XCTAssertEqual(WordCount.of("雨の日"), 1)
    }

    func testThePhraseSaysOneWordOrMany() {
        XCTAssertEqual(WordCount.phrase(1), "1 word")
        XCTAssertEqual(WordCount.phrase(0), "0 words")
        XCTAssertEqual(WordCount.phrase(3), "3 words")
    }
}
