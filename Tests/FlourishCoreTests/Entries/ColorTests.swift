import FlourishCore
import XCTest

final class ColorTests: XCTestCase {
    func testSixDigitHexIsOpaque() throws {
        let color = try RGBAColor(hex: "#8647b7")
        XCTAssertEqual(color.red, 0x86 / 255, accuracy: 1e-9)
        XCTAssertEqual(color.green, 0x47 / 255, accuracy: 1e-9)
        XCTAssertEqual(color.blue, 0xb7 / 255, accuracy: 1e-9)
        XCTAssertEqual(color.alpha, 1)
    }

    func testEightDigitHexCarriesAlphaAndCaseDoesNotMatter() throws {
        let color = try RGBAColor(hex: "#3687FF80")
        XCTAssertEqual(color.alpha, 0x80 / 255, accuracy: 1e-9)
        XCTAssertEqual(color, try RGBAColor(hex: "#3687ff80"))
        XCTAssertEqual(color.hex, "#3687ff80")
    }

    func testInvalidStringsAreTypedErrorsNotBlack() {
        XCTAssertThrowsError(try RGBAColor(hex: "8647b7")) { XCTAssertEqual($0 as? RGBAColor.ParseError, .missingHash("8647b7")) }
        XCTAssertThrowsError(try RGBAColor(hex: "#8647b")) { XCTAssertEqual($0 as? RGBAColor.ParseError, .badLength("#8647b")) }
        XCTAssertThrowsError(try RGBAColor(hex: "#86-7b7")) { XCTAssertEqual($0 as? RGBAColor.ParseError, .badDigits("#86-7b7")) }
        XCTAssertThrowsError(try RGBAColor(hex: "#zzzzzz")) { XCTAssertEqual($0 as? RGBAColor.ParseError, .badDigits("#zzzzzz")) }
        XCTAssertThrowsError(try RGBAColor(hex: ""))
        XCTAssertThrowsError(try RGBAColor(hex: "#+12345")) // UInt32(radix:) would take a sign
    }

    func testLightenMultipliesBrightnessKeepingHueAndSaturation() throws {
        // #804020: brightness 0x80/255; hue 20°, saturation 0.75. Lightened by 1.5: brightness 0xc0/255.
        let lighter = try RGBAColor(hex: "#804020").lightened(by: 1.5)
        XCTAssertEqual(lighter.hex, "#c06030")
        // The seeds' default factor is 1.5.
        XCTAssertEqual(try RGBAColor(hex: "#804020").lightened(), lighter)
    }

    func testLightenStopsAtFullBrightness() throws {
        let lighter = try RGBAColor(hex: "#8647b7").lightened(by: 3)
        XCTAssertEqual(max(lighter.red, lighter.green, lighter.blue), 1, accuracy: 1e-9)
        XCTAssertEqual(try RGBAColor(hex: "#ffffff").lightened().hex, "#ffffff")
        XCTAssertEqual(try RGBAColor(hex: "#00000080").lightened().hex, "#00000080")
    }
}
