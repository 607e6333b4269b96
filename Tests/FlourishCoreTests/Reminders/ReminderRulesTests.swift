import FlourishCore
import Foundation
import XCTest

/// The daily reminder's rules with the clock in the test's hands: the time of day, today
/// written, Later, sleeping through the time, a day missed, changes of time and of time zone.
final class ReminderRulesTests: XCTestCase {
    private func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    private lazy var paris = ReminderRules(calendar: calendar("Europe/Paris"))
    private let eight = ReminderTime(hour: 20, minute: 0)!

    /// A moment in Paris: "2026-11-26 19:59".
    private func at(_ text: String, in zone: String = "Europe/Paris") -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    func testItComesAtTheTimeOnceADayAndNotWhenTodayIsWritten() {
        let before = paris.decide(now: at("2026-11-26 19:59"), time: eight, memory: .init(), wroteToday: false)
        XCTAssertFalse(before.remindNow)
        XCTAssertEqual(before.next, at("2026-11-26 20:00"))

        let due = paris.decide(now: at("2026-11-26 20:00"), time: eight, memory: .init(), wroteToday: false)
        XCTAssertTrue(due.remindNow)
        XCTAssertEqual(due.memory.remindedDay, "2026-11-26")
        XCTAssertEqual(due.next, at("2026-11-27 20:00"))

        let again = paris.decide(now: at("2026-11-26 21:00"), time: eight, memory: due.memory, wroteToday: false)
        XCTAssertFalse(again.remindNow, "never twice for the same reason")
        XCTAssertEqual(again.next, at("2026-11-27 20:00"))

        let written = paris.decide(now: at("2026-11-26 20:00"), time: eight, memory: .init(), wroteToday: true)
        XCTAssertFalse(written.remindNow, "an entry for today: no reminder")
        XCTAssertEqual(written.next, at("2026-11-27 20:00"))
        XCTAssertNil(written.memory.remindedDay)

        let nextDay = paris.decide(now: at("2026-11-27 20:01"), time: eight, memory: due.memory, wroteToday: false)
        XCTAssertTrue(nextDay.remindNow, "a new day, a new reminder")
    }

    func testAMachineAsleepAtTheTimeRemindsWhenItWakesThatDayButADayMissedIsNotRemindedLater() {
        let woke = paris.decide(now: at("2026-11-26 23:40"), time: eight, memory: .init(remindedDay: "2026-11-25"), wroteToday: false)
        XCTAssertTrue(woke.remindNow, "slept through 20:00, woke the same day")

        let nextMorning = paris.decide(now: at("2026-11-27 07:00"), time: eight, memory: .init(remindedDay: "2026-11-25"), wroteToday: false)
        XCTAssertFalse(nextMorning.remindNow, "the 26th was missed entirely: not reminded on the 27th's morning")
        XCTAssertEqual(nextMorning.next, at("2026-11-27 20:00"))
    }

    func testLaterRemindsOnceMoreAnHourOnTheSameDay() {
        let due = paris.decide(now: at("2026-11-26 20:00"), time: eight, memory: .init(), wroteToday: false)
        let later = paris.later(now: at("2026-11-26 20:02"), memory: due.memory)
        XCTAssertEqual(later.laterAt, at("2026-11-26 21:02"))

        let waiting = paris.decide(now: at("2026-11-26 20:30"), time: eight, memory: later, wroteToday: false)
        XCTAssertFalse(waiting.remindNow)
        XCTAssertEqual(waiting.next, at("2026-11-26 21:02"))

        let back = paris.decide(now: at("2026-11-26 21:02"), time: eight, memory: later, wroteToday: false)
        XCTAssertTrue(back.remindNow, "Later's reminder")
        XCTAssertNil(back.memory.laterAt)
        XCTAssertFalse(paris.decide(now: at("2026-11-26 22:30"), time: eight, memory: back.memory, wroteToday: false).remindNow,
                       "and then not again that day")

        let writtenMeanwhile = paris.decide(now: at("2026-11-26 21:02"), time: eight, memory: later, wroteToday: true)
        XCTAssertFalse(writtenMeanwhile.remindNow, "written since Later: nothing")
        XCTAssertNil(writtenMeanwhile.memory.laterAt)

        XCTAssertNil(paris.later(now: at("2026-11-26 23:30"), memory: due.memory).laterAt, "an hour on is tomorrow: no Later")
        let stale = ReminderRules.Memory(remindedDay: "2026-11-26", laterAt: at("2026-11-26 21:02"))
        let nextDay = paris.decide(now: at("2026-11-27 09:00"), time: eight, memory: stale, wroteToday: false)
        XCTAssertFalse(nextDay.remindNow, "yesterday's Later lapses")
        XCTAssertNil(nextDay.memory.laterAt)
        XCTAssertEqual(nextDay.next, at("2026-11-27 20:00"))
    }

    func testAChangeOfTimeOrOfTimeZoneTakesEffectWithoutASecondReminderThatDay() {
        let earlier = paris.decide(now: at("2026-11-26 19:10"), time: ReminderTime(hour: 19, minute: 30)!, memory: .init(), wroteToday: false)
        XCTAssertEqual(earlier.next, at("2026-11-26 19:30"), "the new time counts at once")

        let due = paris.decide(now: at("2026-11-26 20:00"), time: eight, memory: .init(), wroteToday: false)
        let moved = paris.decide(now: at("2026-11-26 20:30"), time: ReminderTime(hour: 20, minute: 15)!, memory: due.memory, wroteToday: false)
        XCTAssertFalse(moved.remindNow, "reminded today already, whatever the new time")

        // Reminded in Paris at 20:00 (19:00 UTC), then in New York the same day (14:05 there).
        let newYork = ReminderRules(calendar: calendar("America/New_York"))
        let flown = newYork.decide(now: at("2026-11-26 14:05", in: "America/New_York"), time: eight, memory: due.memory, wroteToday: false)
        XCTAssertFalse(flown.remindNow, "the same day where the person is now")
        XCTAssertEqual(flown.next, at("2026-11-27 20:00", in: "America/New_York"), "20:00 where the person is")
    }

    func testATimeChosenAfterItPassedCountsFromTheNextDay() {
        // Turned on at 21:00 for 20:00: not at once, but tomorrow at 20:00.
        let chosenLate = ReminderRules.Memory(setAt: at("2026-11-26 21:00"))
        let now = paris.decide(now: at("2026-11-26 21:00"), time: eight, memory: chosenLate, wroteToday: false)
        XCTAssertFalse(now.remindNow, "choosing a time that has passed reminds nobody at once")
        XCTAssertEqual(now.next, at("2026-11-27 20:00"))
        XCTAssertTrue(paris.decide(now: at("2026-11-27 20:00"), time: eight, memory: chosenLate, wroteToday: false).remindNow)
        // Set in the morning, the machine off at 20:00 and started at 22:00: reminded then.
        let chosenEarly = ReminderRules.Memory(setAt: at("2026-11-26 08:00"))
        XCTAssertTrue(paris.decide(now: at("2026-11-26 22:00"), time: eight, memory: chosenEarly, wroteToday: false).remindNow)
    }

    func testADayWhoseClockSkipsTheTimeRemindsWhenTheClockGetsPastIt() {
        // Paris skips 02:00–03:00 on 29 March 2026: 02:30 that day is taken as 03:00.
        let skipped = paris.decide(now: at("2026-03-29 01:00"), time: ReminderTime(hour: 2, minute: 30)!, memory: .init(), wroteToday: false)
        XCTAssertFalse(skipped.remindNow)
        XCTAssertEqual(skipped.next, at("2026-03-29 03:00"))
        XCTAssertTrue(paris.decide(now: at("2026-03-29 03:00"), time: ReminderTime(hour: 2, minute: 30)!, memory: .init(), wroteToday: false).remindNow)
    }

    func testTimesAreReadAsHoursAndMinutesAndNothingElse() {
        XCTAssertEqual(ReminderTime("20:15")?.description, "20:15")
        XCTAssertEqual(ReminderTime("9:03")?.description, "09:03")
        XCTAssertEqual(ReminderTime("08:05")?.description, "08:05")
        XCTAssertEqual(ReminderTime("0:00")?.description, "00:00")
        for bad in ["25:00", "8pm", "20:60", "20:5", "", "20", "20:00:00", " 20:00", "20:00 ", "２０:００", "-1:00", "24:00"] {
            XCTAssertNil(ReminderTime(bad), bad)
        }
        XCTAssertEqual(ReminderTime.standard.description, "20:00")
    }
}
