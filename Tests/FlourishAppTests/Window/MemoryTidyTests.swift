@testable import FlourishApp
import Foundation
import GtkKit
import XCTest

/// Freed memory goes back to the system once the window is quiet, once per burst, never during one.
final class MemoryTidyTests: XCTestCase {
    func testMemoryIsGivenBackOnceAfterEachQuietSpellAndNotWhileTheWindowIsBusy() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            // Away from the Title field, whose blinking cursor paints frames for its first 10 s.
            harness.main.show(.insights)
            var tidied = 0
            // The real clock, but held while the test plays a busy spell: a busy machine that
            // stalls this process for 0.3 s between two steps would otherwise make it a quiet one.
            var held: Double?
            let tidy = MemoryTidy(window: harness.main.window, quietSeconds: 0.3, now: { held ?? MemoryTidy.uptime() }) { tidied += 1 }
            harness.waitUntil("the window's own frames settle and it tidies once", timeout: 15) { tidied == 1 }

            // Busy: something happens every 0.1 s for a second, as a scroll's frames do. Each
            // step pumps the loop for at least 0.1 s of real time, so the tidy's timers fire
            // meanwhile and must find the window busy.
            held = MemoryTidy.uptime()
            for _ in 0..<10 {
                tidy.activity()
                MainLoop.run(for: 0.1)
                held! += 0.1
            }
            XCTAssertEqual(tidied, 1, "nothing is tidied while the window is busy")
            held = nil // the real clock is at least as far on: each step took 0.1 s or more
            harness.waitUntil("the burst over, it tidies once more") { tidied == 2 }
            MainLoop.run(for: 0.8)
            XCTAssertEqual(tidied, 2, "and then waits for the next burst")

            // A frame painted counts as a burst: another page shown paints.
            harness.main.show(.newEntry)
            harness.main.show(.insights)
            harness.waitUntil("a painted frame is tidied after", timeout: 15) { tidied == 3 }
            withExtendedLifetime(tidy) {}
        }
    }
}
