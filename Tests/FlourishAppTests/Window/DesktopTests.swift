@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import GtkKit
import XCTest

/// The desktop-citizen behaviour: light and dark from the desktop, the shortcuts window, the
/// remembered window size.
final class DesktopTests: XCTestCase {
    func testFollowsTheDesktopsDarkPreferenceAndItsChanges() throws {
        let portal = try PortalStandIn(scheme: 1)
        defer { portal.stop() }
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer {
                FlourishApplication.follow(.preferLight)
                harness.close()
            }
            let watcher = AppearanceWatcher { FlourishApplication.follow($0) }
            harness.waitUntil("the dark preference is read") { Toolkit.prefersDark && Theme.isDark }
            portal.set(scheme: 2)
            harness.waitUntil("the change to light is followed") { !Toolkit.prefersDark && !Theme.isDark }
            portal.set(scheme: 1)
            harness.waitUntil("and back to dark") { Toolkit.prefersDark && Theme.isDark }
            withExtendedLifetime(watcher) {}
        }
    }

    func testDarkMoodColoursAreTheSeedsLightened() throws {
        let dark = MainActor.assumeIsolated { Theme.moodCSS(dark: true) }
        for mood in Mood.catalogue {
            XCTAssertTrue(dark.contains(".mood-\(mood.rawValue):not(.journal-row) { color: \(mood.color.lightened().hex); }"))
            XCTAssertTrue(dark.contains(".journal-row.mood-\(mood.rawValue) { box-shadow: inset 8px 0 \(mood.hex); }"))
        }
        XCTAssertNotEqual(Mood.theBest.color.lightened().hex, Mood.theBest.hex)
    }

    func testCtrlQuestionShowsTheShortcutsWindow() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            XCTAssertTrue(harness.main.window.activateAction("win.show-help-overlay"))
            harness.waitUntil("the shortcuts window is up") { harness.main.shortcutsWindow?.isMapped == true }
            harness.main.shortcutsWindow?.close()
        }
    }

    func testTheWindowOpensAtTheSizeItWasLeftAndRecordsItOnClose() throws {
        let folder = TemporaryFolder()
        let path = folder.file("preferences")
        // What an earlier session recorded (a person's resize cannot be simulated without a
        // window manager: GTK re-applies its own size after an X resize there).
        Preferences(path: path).windowSize = (width: 860, height: 700)
        try MainActor.assumeIsolated {
            let harness = try Harness(preferencesPath: path)
            harness.waitForFrame("the window is laid out at its size")
            XCTAssertEqual(harness.main.window.size.width, 860)
            XCTAssertEqual(harness.main.window.size.height, 700)
            XCTAssertEqual(harness.main.window.allocatedWidth, 860, "the window really is that wide")

            Preferences(path: path).windowSize = (width: 1, height: 1) // overwritten by the close
            harness.main.window.close()
            harness.waitUntil("the window closes") { !harness.main.window.isVisible }
        }
        XCTAssertEqual(Preferences(path: path).windowSize?.width, 860)
        XCTAssertEqual(Preferences(path: path).windowSize?.height, 700)
        XCTAssertFalse(Preferences(path: path).windowMaximized)
    }
}
