import Foundation

/// When the daily reminder comes, as rules with no clock of their own: the caller says what time
/// it is, in which calendar (and so which time zone), and what happened already, and hears
/// whether to remind now and when to look again. The service asks after each timer, each
/// wake from sleep and each change of the settings, so a wrong guess never lasts.
///
/// - Once a day at most, at the chosen time or, for a machine asleep (or off) then, when it
///   wakes the same day; a day missed entirely is not reminded later, nor a time chosen after
///   it had passed that day.
/// - Never when the journal has an entry for today.
/// - **Later** reminds once more an hour on, the same day.
public struct ReminderRules: Sendable {
    public var calendar: Calendar

    public init(calendar: Calendar = .autoupdatingCurrent) {
        self.calendar = calendar
    }

    /// What the rules need to remember between two looks (kept in the preferences).
    public struct Memory: Equatable, Sendable {
        /// The day ("2026-11-26", in the calendar's time zone then) the daily reminder came.
        public var remindedDay: String?
        /// When a reminder put off with Later comes again.
        public var laterAt: Date?
        /// When the reminder was turned on or its time changed: a time already past then counts
        /// from the next day, so choosing 20:00 at 21:00 does not remind at once.
        public var setAt: Date?

        public init(remindedDay: String? = nil, laterAt: Date? = nil, setAt: Date? = nil) {
            self.remindedDay = remindedDay
            self.laterAt = laterAt
            self.setAt = setAt
        }
    }

    public struct Decision: Equatable, Sendable {
        /// Remind now.
        public var remindNow: Bool
        /// What to remember from now on.
        public var memory: Memory
        /// When to look again (nil: not before something changes).
        public var next: Date?
    }

    /// What to do at `now`, reminders being on at `time`.
    public func decide(now: Date, time: ReminderTime, memory: Memory, wroteToday: Bool) -> Decision {
        let today = day(of: now)
        var memory = memory
        // A Later from another day is a reminder of that day's: it lapses.
        if let later = memory.laterAt, day(of: later) != today { memory.laterAt = nil }
        let todays = at(time, onDayOf: now)
        let tomorrows = at(time, after: todays ?? now)
        if wroteToday {
            memory.laterAt = nil
            return Decision(remindNow: false, memory: memory, next: tomorrows)
        }
        if let later = memory.laterAt {
            if now >= later {
                memory.laterAt = nil
                return Decision(remindNow: true, memory: memory, next: tomorrows)
            }
            return Decision(remindNow: false, memory: memory, next: later)
        }
        if memory.remindedDay != today, let todays, now >= todays, (memory.setAt ?? .distantPast) <= todays {
            memory.remindedDay = today
            return Decision(remindNow: true, memory: memory, next: tomorrows)
        }
        let next = memory.remindedDay == today || todays.map({ now >= $0 }) ?? true ? tomorrows : todays
        return Decision(remindNow: false, memory: memory, next: next)
    }

    /// Later: the reminder comes again in an hour, if that is still today.
    public func later(now: Date, memory: Memory) -> Memory {
        var memory = memory
        let then = now.addingTimeInterval(3_600)
        memory.laterAt = day(of: then) == day(of: now) ? then : nil
        return memory
    }

    /// "2026-11-26": the day `date` falls on in the calendar's time zone.
    public func day(of date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The reminder's time on the day of `date` (nil on a day that skips that time: a clock
    /// change at that hour).
    private func at(_ time: ReminderTime, onDayOf date: Date) -> Date? {
        calendar.date(bySettingHour: time.hour, minute: time.minute, second: 0, of: date)
    }

    /// The next reminder time after `date` (the next day's, or the first after a gap).
    private func at(_ time: ReminderTime, after date: Date) -> Date? {
        calendar.nextDate(after: date, matching: DateComponents(hour: time.hour, minute: time.minute, second: 0),
                                 matchingPolicy: .nextTime)
    }
}
