@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The idle lock on a real window, with a clock the test moves: it locks once the chosen minutes
/// pass without input, input puts it off, a new limit counts at once, and never never locks.
final class IdleLockUITests: XCTestCase {
    func testTheWindowLocksAfterTheChosenMinutesWithoutInputAndInputPutsItOff() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            XCTAssertEqual(harness.preferences.lockAfterIdleMinutes, 5, "five minutes until chosen")
            var now = Date(timeIntervalSince1970: 1_800_000_000)
            var locks = 0
            harness.main.watchIdle(clock: { now }) { locks += 1 }
            let watch = try XCTUnwrap(harness.main.idleWatch)
            XCTAssertEqual(watch.deadline, now.addingTimeInterval(300))

            now += 240
            watch.fire()
            XCTAssertEqual(locks, 0, "four minutes is not five")
            watch.noteActivity()
            now += 240
            watch.fire()
            XCTAssertEqual(locks, 0, "input a minute before put it off")
            now += 61
            watch.fire()
            XCTAssertEqual(locks, 1, "five minutes after the last input, it locks")
            watch.fire()
            XCTAssertEqual(locks, 1, "once")
        }
    }

    func testANewLimitCountsAtOnceAndNeverNeverLocks() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            var now = Date(timeIntervalSince1970: 1_800_000_000)
            var locks = 0
            harness.preferences.lockAfterIdleMinutes = nil
            harness.main.watchIdle(clock: { now }) { locks += 1 }
            let watch = try XCTUnwrap(harness.main.idleWatch)
            XCTAssertNil(watch.deadline)
            now += 86_400
            watch.fire()
            XCTAssertEqual(locks, 0, "never is never")
            watch.setLimit(minutes: 1)
            watch.fire()
            XCTAssertEqual(locks, 1, "a day since the last input is past a one-minute limit at once")
        }
    }

    func testPreferencesOfferTheIdleLimitsAndRememberTheChoice() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            var told: [Int?] = []
            let window = PreferencesWindow(application: Harness.sharedApplication(), parent: harness.main.window,
                                           preferences: harness.preferences, reminders: nil, loginItem: harness.main.loginItem,
                                           lock: LockActions(isOn: { true }, turnOn: { _, _ in }, turnOff: { _, _ in },
                                                             changePassphrase: { _, _, _ in }, newKey: { _, _, _ in }, unlocksAtLogin: { false },
                                                             setUnlocksAtLogin: { _, _ in }),
                                           idleChanged: { told.append($0) })
            defer { window.window.destroy() }
            window.present()
            XCTAssertEqual(window.idleChoice.items, ["After 1 minute", "After 5 minutes", "After 15 minutes", "After 30 minutes",
                                                     "After 60 minutes", "Never"])
            XCTAssertEqual(window.idleChoice.selected, 1)
            window.idleChoice.selected = 5
            XCTAssertNil(Preferences(path: harness.preferences.path).lockAfterIdleMinutes, "never, remembered")
            window.idleChoice.selected = 2
            XCTAssertEqual(Preferences(path: harness.preferences.path).lockAfterIdleMinutes, 15)
            XCTAssertEqual(told, [nil, 15], "the window's idle lock is told at once")
        }
    }
}
