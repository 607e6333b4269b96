@testable import FlourishApp
import Foundation
import GtkKit
import XCTest

/// A window that gives a field in a scrolled form the keyboard as it appears, as the New Entry
/// form does, is quiet once its first frames are painted: GTK 4.8's viewport, asked to follow the
/// focus before it has a height, would animate to where it already is for 0.2 s (twelve frames,
/// and start-up not idle until they were done). It still follows the focus once it has a height.
final class QuietStartTests: XCTestCase {
    func testAScrolledFieldFocusedAsTheWindowAppearsPaintsNoFramesForNothingAndIsStillScrolledTo() throws {
        MainActor.assumeIsolated {
            _ = Harness.sharedApplication()
            Toolkit.initialize()
            Toolkit.setAnimationsEnabled(true)
            defer { Toolkit.setAnimationsEnabled(false) }
            Theme.install()
            let window = Window(application: Harness.sharedApplication())
            defer { window.destroy() }
            // As the main window appears: no CSS transitions (a focus ring fading in paints too).
            window.addClass("appearing")
            window.setDefaultSize(width: 320, height: 240)
            let content = Box(.vertical, spacing: 6)
            let top = Button("Top")
            content.append(top)
            for line in 1...30 { content.append(Label("Line \(line)")) }
            let bottom = Button("Bottom")
            content.append(bottom)
            let scroller = ScrolledWindow(content)
            window.setChild(scroller)

            window.present()
            top.grabFocus()
            var painted = 0
            window.onFrames(started: {}, painted: { painted += 1 })
            XCTAssertTrue(MainLoop.run(until: { painted >= 1 }, timeout: 5), "the window painted")
            MainLoop.run(for: 0.6)
            XCTAssertLessThanOrEqual(painted, 4, "the window stops painting after its first frames")
            XCTAssertEqual(scroller.verticalPosition, 0, "the top field was in view all along")

            bottom.grabFocus()
            XCTAssertTrue(MainLoop.run(until: { scroller.verticalPosition > 0 }, timeout: 3),
                          "a field out of view is scrolled to when it takes the keyboard")
        }
    }
}
