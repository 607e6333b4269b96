import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// The idle limit as the preferences file keeps it.
final class LockPreferencesTests: XCTestCase {
    private let folder = TemporaryFolder()

    func testTheIdleLimitSurvivesARestart() {
        let path = folder.file("config/flourish/preferences")
        Preferences(path: path).lockAfterIdleMinutes = 15
        XCTAssertEqual(Preferences(path: path).lockAfterIdleMinutes, 15)
        Preferences(path: path).lockAfterIdleMinutes = nil
        XCTAssertNil(Preferences(path: path).lockAfterIdleMinutes, "never stays never")
        Preferences(path: path).lockAfterIdleMinutes = 1
        XCTAssertEqual(Preferences(path: path).lockAfterIdleMinutes, 1)
    }

    func testAFileFromBeforeTheChoiceReadsAsFiveMinutes() throws {
        let path = folder.file("preferences")
        // What an earlier Flourish wrote: other choices, none about locking.
        try "attach-location=true\nreminder=true\nwindow-width=860\n".write(toFile: path, atomically: true, encoding: .utf8)
        let preferences = Preferences(path: path)
        XCTAssertEqual(preferences.lockAfterIdleMinutes, 5)
        XCTAssertTrue(preferences.attachLocation)
        XCTAssertEqual(Preferences(path: folder.file("missing")).lockAfterIdleMinutes, 5, "no file at all")
    }

    func testSavingTheLimitKeepsTheOtherChoices() {
        let path = folder.file("preferences")
        Preferences(path: path).attachLocation = true
        Preferences(path: path).lockAfterIdleMinutes = 10
        XCTAssertTrue(Preferences(path: path).attachLocation)
    }

    func testANonsenseValueReadsAsFiveNotAsNever() throws {
        let path = folder.file("preferences")
        for text in ["0", "-2", "soon", ""] {
            try "lock-after-idle-minutes=\(text)\n".write(toFile: path, atomically: true, encoding: .utf8)
            XCTAssertEqual(Preferences(path: path).lockAfterIdleMinutes, 5, "'\(text)'")
        }
    }
}
