import Foundation

/// The points of the mood-over-time chart: the period cut into equal steps (days, or for long
/// periods weeks, months or years, so that a chart never has more points than a window can
/// show apart), each with the average mood of its entries; a step without entries is a gap.
public struct MoodTimeline: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        case day, week, month, year
    }

    public struct Point: Sendable, Equatable {
        /// The step's first day.
        public let start: Insights.Day
        public let mood: MoodAverage
    }

    public let step: Step
    /// Every step of the period, oldest first, gaps included.
    public let points: [Point]

    /// A chart this many points wide still shows each of them apart in a window of ordinary width.
    public static let mostPoints = 400

    public init(days: [(day: Insights.Day, mood: MoodAverage)], span: ClosedRange<Int>?) {
        guard let span else {
            step = .day
            points = []
            return
        }
        let first = Insights.Day(number: span.lowerBound), last = Insights.Day(number: span.upperBound)
        let months = (last.year - first.year) * 12 + last.month - first.month + 1
        step = span.count <= Self.mostPoints ? .day
            : (span.count + 6) / 7 <= Self.mostPoints ? .week
            : months <= Self.mostPoints ? .month : .year
        // Each step's index from the period's first step, and each step's first day.
        let firstMonday = span.lowerBound - Self.weekday(span.lowerBound)
        let index: (Insights.Day) -> Int
        let start: (Int) -> Insights.Day
        let count: Int
        switch step {
        case .day:
            index = { $0.number - span.lowerBound }
            start = { Insights.Day(number: span.lowerBound + $0) }
            count = span.count
        case .week:
            index = { ($0.number - firstMonday) / 7 }
            start = { Insights.Day(number: firstMonday + $0 * 7) }
            count = (span.upperBound - firstMonday) / 7 + 1
        case .month:
            index = { ($0.year - first.year) * 12 + $0.month - first.month }
            start = { Insights.Day(year: first.year + (first.month - 1 + $0) / 12, month: (first.month - 1 + $0) % 12 + 1, day: 1) }
            count = months
        case .year:
            index = { $0.year - first.year }
            start = { Insights.Day(year: first.year + $0, month: 1, day: 1) }
            count = last.year - first.year + 1
        }
        var moods = Array(repeating: MoodAverage(), count: count)
        for (day, mood) in days {
            let position = index(day)
            guard moods.indices.contains(position) else { continue }
            moods[position] = moods[position] + mood
        }
        points = moods.enumerated().map { Point(start: start($0.offset), mood: $0.element) }
    }

    /// Monday 0 … Sunday 6 (1 January 1970 was a Thursday).
    static func weekday(_ day: Int) -> Int { ((day + 3) % 7 + 7) % 7 }
}
