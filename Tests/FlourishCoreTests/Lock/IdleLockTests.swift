import FlourishCore
import Foundation
import XCTest

/// The idle rule, on a clock the test moves by hand.
final class IdleLockTests: XCTestCase {
    private let opened = Date(timeIntervalSince1970: 1_700_000_000)

    private func minutes(_ count: Double) -> Date { opened.addingTimeInterval(count * 60) }

    func testLocksOnceTheLimitPassesWithNoActivity() {
        let idle = IdleLock(limitMinutes: 5, lastActivity: opened)
        XCTAssertEqual(idle.deadline, minutes(5))
        XCTAssertFalse(idle.isDue(at: minutes(4.99)))
        XCTAssertTrue(idle.isDue(at: minutes(5)))
        XCTAssertTrue(idle.isDue(at: minutes(60)))
    }

    func testActivityStartsTheCountAgain() {
        var idle = IdleLock(limitMinutes: 5, lastActivity: opened)
        idle.noteActivity(at: minutes(4))
        XCTAssertEqual(idle.deadline, minutes(9))
        XCTAssertFalse(idle.isDue(at: minutes(8)), "five minutes from the keystroke, not from opening")
        XCTAssertTrue(idle.isDue(at: minutes(9)))
    }

    func testNeverNeverLocks() {
        var idle = IdleLock(limitMinutes: nil, lastActivity: opened)
        XCTAssertNil(idle.deadline, "no timer to arm")
        XCTAssertFalse(idle.isDue(at: minutes(60 * 24 * 365)))
        idle.noteActivity(at: minutes(1))
        XCTAssertFalse(idle.isDue(at: minutes(60 * 24 * 365)))
    }

    func testChangingTheLimitTakesEffectAtOnceFromTheLastActivity() {
        var idle = IdleLock(limitMinutes: 30, lastActivity: opened)
        idle.noteActivity(at: minutes(2))
        XCTAssertFalse(idle.isDue(at: minutes(10)))
        idle.limitMinutes = 5
        XCTAssertEqual(idle.deadline, minutes(7))
        XCTAssertTrue(idle.isDue(at: minutes(10)), "already past the shorter limit: due now")
        idle.limitMinutes = nil
        XCTAssertFalse(idle.isDue(at: minutes(10)), "turned to never: no longer due")
        idle.limitMinutes = 15
        XCTAssertEqual(idle.deadline, minutes(17))
        XCTAssertFalse(idle.isDue(at: minutes(10)))
    }

    func testALimitBelowOneMinuteIsOneMinute() {
        var idle = IdleLock(limitMinutes: 0, lastActivity: opened)
        XCTAssertEqual(idle.limitMinutes, 1)
        XCTAssertFalse(idle.isDue(at: minutes(0.5)), "a zero limit would lock while the person types")
        idle.limitMinutes = -3
        XCTAssertEqual(idle.deadline, minutes(1))
    }
}
