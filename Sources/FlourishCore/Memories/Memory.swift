import Foundation

/// An entry written on this day of an earlier year, as the Journal page's "On this day" card
/// lists it: one a year, the earliest of that day.
public struct Memory: Equatable, Sendable {
    /// How many years before today it was written (1 for last year).
    public let yearsAgo: Int
    public let entry: Entry

    public init(yearsAgo: Int, entry: Entry) {
        self.yearsAgo = yearsAgo
        self.entry = entry
    }

    public var id: Int64 { entry.id }
    public var mood: Mood { entry.mood }
    public var createdAt: Date { entry.createdAt }

    /// Its title, or the start of its words' first line when it has none.
    public var title: String {
        let words = entry.title.isEmpty ? entry.body.split(separator: "\n").first.map(String.init) ?? "" : entry.title
        return words.preview(limit: Self.titleLimit)
    }

    /// How much of an entry's words stand for a title it does not have.
    public static let titleLimit = 80
}

/// Which days of earlier years today remembers.
public enum MemoryDays {
    /// A day of an earlier year: from its local midnight (inclusive) to `end` (exclusive).
    public struct Day: Equatable, Sendable {
        public let yearsAgo: Int
        public let start: Date
        public let end: Date
    }

    /// The same day as `today` in the year `yearsAgo` years before it, in `calendar`; nil when
    /// that year has no such day (29 February). A 29 February is remembered on 28 February in
    /// the years that have none: on 28 February of a common year, a leap year's day runs on to
    /// 1 March, so its 28th and its 29th both come back.
    public static func day(_ yearsAgo: Int, before today: Date, calendar: Calendar) -> Day? {
        let parts = calendar.dateComponents([.year, .month, .day], from: today)
        guard let year = parts.year, let month = parts.month, let dayOfMonth = parts.day else { return nil }
        let earlier = year - yearsAgo
        if month == 2 && dayOfMonth == 29 && !isLeap(earlier) { return nil }
        guard let start = calendar.date(from: DateComponents(year: earlier, month: month, day: dayOfMonth)) else { return nil }
        let days = month == 2 && dayOfMonth == 28 && !isLeap(year) && isLeap(earlier) ? 2 : 1
        guard let end = calendar.date(byAdding: .day, value: days, to: start) else { return nil }
        return Day(yearsAgo: yearsAgo, start: start, end: end)
    }

    /// The Gregorian rule; the calendar's own arithmetic would roll 29 February on to 1 March.
    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }
}
