import Foundation

/// What the Insights page looks at: the last 30 days, the last 12 months, everything, or a year.
public enum InsightsPeriod: Sendable, Hashable {
    case last30Days
    case last12Months
    case all
    case year(Int)

    /// The period's first moment and the moment after its last, in local time (nil: no bound).
    /// The recent periods run to the end of today.
    public func bounds(now: Date, calendar: Calendar = .current) -> (from: Date?, to: Date?) {
        let today = calendar.startOfDay(for: now)
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: today)
        switch self {
        case .last30Days:
            return (calendar.date(byAdding: .day, value: -29, to: today), tomorrow)
        case .last12Months:
            let month = calendar.date(from: calendar.dateComponents([.year, .month], from: today))
            return (month.flatMap { calendar.date(byAdding: .month, value: -11, to: $0) }, tomorrow)
        case .all:
            return (nil, nil)
        case .year(let year):
            return (calendar.date(from: DateComponents(year: year, month: 1, day: 1)),
                    calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1)))
        }
    }
}

extension Mood {
    /// How the mood counts in averages: the best 5, the worst 0.
    public var score: Int { 5 - rawValue }

    /// The mood an average score rounds to (for its colour).
    public static func nearest(toScore score: Double) -> Mood {
        Mood(rawValue: 5 - Int((min(5, max(0, score))).rounded())) ?? .okay
    }
}

/// Entries counted with their scores summed: an average mood, or none for no entries.
public struct MoodAverage: Sendable, Equatable {
    public var count: Int
    /// The sum of the entries' scores (`Mood.score`).
    public var total: Int

    public init(count: Int = 0, total: Int = 0) {
        self.count = count
        self.total = total
    }

    /// The average score, 0 (the worst) to 5 (the best); nil without entries.
    public var average: Double? { count == 0 ? nil : Double(total) / Double(count) }
    /// The mood the average rounds to.
    public var mood: Mood? { average.map(Mood.nearest(toScore:)) }

    public static func + (lhs: MoodAverage, rhs: MoodAverage) -> MoodAverage {
        MoodAverage(count: lhs.count + rhs.count, total: lhs.total + rhs.total)
    }

    public static func - (lhs: MoodAverage, rhs: MoodAverage) -> MoodAverage {
        MoodAverage(count: lhs.count - rhs.count, total: lhs.total - rhs.total)
    }
}

/// Morning, afternoon, evening and night, by the local hour an entry is dated.
public enum TimeOfDay: Int, CaseIterable, Sendable {
    /// 5:00 to 11:59.
    case morning
    /// 12:00 to 16:59.
    case afternoon
    /// 17:00 to 21:59.
    case evening
    /// 22:00 to 4:59.
    case night

    public init(hour: Int) {
        switch hour {
        case 5..<12: self = .morning
        case 12..<17: self = .afternoon
        case 17..<22: self = .evening
        default: self = .night
        }
    }
}

/// Everything the Insights page shows for a period, computed from SQL aggregations.
public struct Insights: Sendable, Equatable {
    /// A local calendar day with entries.
    public struct Day: Sendable, Equatable, Hashable {
        public let year: Int
        public let month: Int
        public let day: Int

        public init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }

        /// Days since 1 January 1970: for stepping through days and measuring spans.
        public var number: Int { LocalClock.dayNumber(year: year, month: month, day: day) }

        /// The day `number` days after 1 January 1970.
        public init(number: Int) { self = LocalClock.civil(day: number) }

        /// How many days `month` (1-12) of `year` has.
        public static func length(ofMonth month: Int, in year: Int) -> Int {
            let next = month == 12 ? Day(year: year + 1, month: 1, day: 1) : Day(year: year, month: month + 1, day: 1)
            return next.number - Day(year: year, month: month, day: 1).number
        }

        /// The day `date` falls on in `calendar`'s time zone.
        public init(_ date: Date, in calendar: Calendar = .current) {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            self.init(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
        }

        /// Its first moment in `calendar`'s time zone.
        public func start(in calendar: Calendar = .current) -> Date? {
            calendar.date(from: DateComponents(year: year, month: month, day: day))
        }
    }

    /// A tag with enough entries in the period, against the entries without it.
    public struct TagMood: Sendable, Equatable {
        public let tag: Tag
        public let with: MoodAverage
        public let without: MoodAverage

        public init(tag: Tag, with: MoodAverage, without: MoodAverage) {
            self.tag = tag
            self.with = with
            self.without = without
        }

        /// How much better (positive) or worse the average is with the tag than without it.
        public var difference: Double? {
            guard let with = with.average, let without = without.average else { return nil }
            return with - without
        }
    }

    /// Days in a row with at least one entry.
    public struct Streaks: Sendable, Equatable {
        /// The run that reaches today (or yesterday, while today has no entry yet); 0 if none.
        public let current: Int
        public let longest: Int

        public init(current: Int, longest: Int) {
            self.current = current
            self.longest = longest
        }
    }

    /// Each day with entries in the period, oldest first, with its average mood.
    public var days: [(day: Day, mood: MoodAverage)]
    /// How many entries of each mood, by `Mood.rawValue`.
    public var moodCounts: [Int]
    /// Each weekday's average, Monday first.
    public var weekdays: [MoodAverage]
    /// Each time of day's average, by `TimeOfDay.rawValue`.
    public var timesOfDay: [MoodAverage]
    /// Tags on at least `minimumTagEntries` entries of the period, the best going first.
    public var tags: [TagMood]
    /// For each mood (by `Mood.rawValue`), the tags most often on its entries, with their counts.
    public var tagsByMood: [[(tag: Tag, count: Int)]]
    /// Over the whole journal, up to today.
    public var streaks: Streaks
    /// The period's first and last days (for "All", those of the first and last entries; nil in
    /// an empty journal): the span of the mood-over-time chart.
    public var span: ClosedRange<Int>?
    /// The year shown in pixels (the chosen one, or this year), and the average of each of its
    /// days with entries, by `Day.number`.
    public var pixelYear: Int
    public var pixelDays: [Int: MoodAverage]
    /// The year's days written with no mood at all (entries that came without one), by
    /// `Day.number`: shown as written, in no mood's colour.
    public var pixelDaysWithoutMood: Set<Int> = []
    /// How many entries of the period have no mood: left out of every average and chart, and
    /// said apart ("42 entries without a mood").
    public var withoutMood = 0
    /// The first and the last year with entries (nil in an empty journal): the years to choose from.
    public var years: ClosedRange<Int>?

    public init(days: [(day: Day, mood: MoodAverage)], moodCounts: [Int], weekdays: [MoodAverage], timesOfDay: [MoodAverage],
                tags: [TagMood], tagsByMood: [[(tag: Tag, count: Int)]], streaks: Streaks,
                span: ClosedRange<Int>? = nil, pixelYear: Int = 0, pixelDays: [Int: MoodAverage] = [:], years: ClosedRange<Int>? = nil) {
        self.days = days
        self.moodCounts = moodCounts
        self.weekdays = weekdays
        self.timesOfDay = timesOfDay
        self.tags = tags
        self.tagsByMood = tagsByMood
        self.streaks = streaks
        self.span = span
        self.pixelYear = pixelYear
        self.pixelDays = pixelDays
        self.years = years
    }

    /// A tag is compared with the rest once this many entries of the period carry it.
    public static let minimumTagEntries = 5
    /// How many tags are named for each mood.
    public static let tagsPerMood = 3

    /// Every entry of the period.
    public var total: MoodAverage { weekdays.reduce(MoodAverage(), +) }

    public static func == (lhs: Insights, rhs: Insights) -> Bool {
        lhs.days.map(\.day) == rhs.days.map(\.day) && lhs.days.map(\.mood) == rhs.days.map(\.mood)
            && lhs.moodCounts == rhs.moodCounts && lhs.weekdays == rhs.weekdays && lhs.timesOfDay == rhs.timesOfDay
            && lhs.tags == rhs.tags && lhs.streaks == rhs.streaks && lhs.span == rhs.span
            && lhs.pixelYear == rhs.pixelYear && lhs.pixelDays == rhs.pixelDays && lhs.years == rhs.years
            && lhs.pixelDaysWithoutMood == rhs.pixelDaysWithoutMood && lhs.withoutMood == rhs.withoutMood
            && lhs.tagsByMood.map { $0.map(\.tag) } == rhs.tagsByMood.map { $0.map(\.tag) }
            && lhs.tagsByMood.map { $0.map(\.count) } == rhs.tagsByMood.map { $0.map(\.count) }
    }
}
