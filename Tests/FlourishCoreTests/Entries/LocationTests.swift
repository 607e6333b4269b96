import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

final class LocationFormattingTests: XCTestCase {
    func testCompactFormForARow() {
        XCTAssertEqual(Location(latitude: 52.52, longitude: 13.405, accuracy: 50).formatted, "52.52° N, 13.40° E ±50 m")
        XCTAssertEqual(Location(latitude: -33.8688, longitude: -70.6693, accuracy: 12.4).formatted, "33.87° S, 70.67° W ±12 m")
        XCTAssertEqual(Location(latitude: 0, longitude: 0, accuracy: 25_000).formatted, "0.00° N, 0.00° E ±25 km")
    }

    func testSpokenFormHasNoSymbols() {
        XCTAssertEqual(Location(latitude: 52.52, longitude: 13.405, accuracy: 50).spoken,
                       "Location 52.52 degrees north, 13.40 degrees east, within 50 metres")
    }

    func testOnlyAFixCarriesALocation() {
        let fix = Location(latitude: 1, longitude: 2, accuracy: 3)
        XCTAssertEqual(LocationStatus.located(fix).location, fix)
        for status in [LocationStatus.off, .locating, .denied, .unavailable, .timedOut, .failed(reason: "x")] {
            XCTAssertNil(status.location)
        }
        XCTAssertNil(LocationStatus.off.message)
        XCTAssertEqual(LocationStatus.located(fix).message, "Location found, accurate to 3 m.")
    }
}

final class PreferencesTests: XCTestCase {
    private let folder = TemporaryFolder()

    func testAttachLocationIsOffUntilTurnedOnAndIsRemembered() throws {
        let path = folder.file("config/flourish/preferences")
        XCTAssertFalse(Preferences(path: path).attachLocation)
        Preferences(path: path).attachLocation = true
        XCTAssertTrue(Preferences(path: path).attachLocation)
        XCTAssertEqual(try permissions(of: path), 0o600)
        Preferences(path: path).attachLocation = false
        XCTAssertFalse(Preferences(path: path).attachLocation)
    }

    func testAnUnreadableFileMeansDefaults() throws {
        let path = folder.file("preferences")
        try Data([0xff, 0xfe, 0x00, 0x41]).write(to: URL(fileURLWithPath: path))
        XCTAssertFalse(Preferences(path: path).attachLocation)
    }

    func testDefaultPathFollowsXDG() {
        XCTAssertEqual(Preferences.defaultPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]), "/c/flourish/preferences")
        XCTAssertEqual(Preferences.defaultPath(environment: ["HOME": "/h"]), "/h/.config/flourish/preferences")
    }
}
