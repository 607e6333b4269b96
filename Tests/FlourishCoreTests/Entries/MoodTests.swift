import FlourishCore
import XCTest

final class MoodTests: XCTestCase {
    func testCatalogueIsTheSeedsSixMoodsBestFirst() {
        XCTAssertEqual(Mood.catalogue.map(\.title),
                       ["the best", "really good", "okay", "meh", "not so great", "the worst"])
        XCTAssertEqual(Mood.catalogue.map(\.hex),
                       ["#8647b7", "#4870b7", "#45a85a", "#a8a23f", "#c6802e", "#b05050"])
        XCTAssertEqual(Mood.catalogue.map(\.rawValue), Array(0...5))
    }

    func testEveryMoodColourParsesToItsOwnHex() throws {
        for mood in Mood.catalogue {
            XCTAssertEqual(try RGBAColor(hex: mood.hex), mood.color)
            XCTAssertEqual(mood.color.hex, mood.hex)
        }
    }

    func testPromptIsSelectInTheSeedsBlue() throws {
        XCTAssertEqual(MoodPrompt.title, "select")
        XCTAssertEqual(try RGBAColor(hex: MoodPrompt.hex).hex, "#3687ff")
    }
}
