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
    public var mood: Mood? { entry.mood }
    public var createdAt: Date { entry.createdAt }

    /// Its title, or the start of its words' first line when it has none.
    public var title: String {
        guard entry.title.isEmpty else { return entry.title.preview(limit: Self.titleLimit) }
        // The body's first line, its Markdown read ("# Lake day" is "Lake day").
        let plain = entry.body.plainPreview(limit: Self.titleLimit * 2)
        return String(plain.split(separator: "\n").first ?? "").preview(limit: Self.titleLimit)
    }

    /// How much of an entry's words stand for a title it does not have.
    public static let titleLimit = 80
}

/// Which days of earlier years today remembers.
public enum MemoryDays {
    /// The same day as `today` in the year `yearsAgo` years before it, as the moments from its
    /// local midnight (inclusive) to `end` (exclusive) in `calendar`; nil when that year has no
    /// such day (29 February). A 29 February is remembered on 28 February in the years that
    /// have none: on 28 February of a common year, a leap year's day runs on to 1 March, so its
    /// 28th and its 29th both come back.
    public static func day(_ yearsAgo: Int, before today: Insights.Day, calendar: Calendar) -> (start: Date, end: Date)? {
        let earlier = today.year - yearsAgo
        if today.month == 2 && today.day == 29 && !hasLeapDay(earlier) { return nil }
        guard let start = Insights.Day(year: earlier, month: today.month, day: today.day).start(in: calendar) else { return nil }
        let days = today.month == 2 && today.day == 28 && !hasLeapDay(today.year) && hasLeapDay(earlier) ? 2 : 1
        guard let end = calendar.date(byAdding: .day, value: days, to: start) else { return nil }
        return (start, end)
    }

    /// Whether `year` has a 29 February; asked of the day arithmetic, as the calendar's own
    /// would roll a missing 29 February on to 1 March.
    private static func hasLeapDay(_ year: Int) -> Bool {
        Insights.Day.length(ofMonth: 2, in: year) == 29
    }
}
