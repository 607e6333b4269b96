import Foundation
import GRDB
import GRDBSQLite

/// A measure over an Insights period: its values day by day, and "mood by measure", the average
/// mood of the entries at each step of a scale or in each band of a number, with how many.
public struct MeasureInsight: Sendable, Equatable {
    public let measure: Measure
    /// Each day of the period with a value, oldest first: the day's number (`Insights.Day`)
    /// and the average of its values.
    public let days: [DayValue]
    /// The steps of a scale (all five), or a number's bands (each value, when it takes a few;
    /// otherwise four of equal width from its lowest to its highest value), lowest first.
    public let bands: [Band]
    /// How many entries of the period gave a value, and their sum.
    public let count: Int
    public let total: Double
    /// The lowest and highest values of the period (nil without values).
    public let lowest: Double?
    public let highest: Double?

    public struct DayValue: Sendable, Equatable {
        public let day: Int
        public let value: Double

        public init(day: Int, value: Double) {
            self.day = day
            self.value = value
        }
    }

    public struct Band: Sendable, Equatable {
        /// Its values, from `lower` up to and including `upper` (the same for one value).
        public let lower: Double
        public let upper: Double
        public let mood: MoodAverage
    }

    /// The average value; nil without values.
    public var average: Double? { count == 0 ? nil : total / Double(count) }

    /// A number taking at most this many values gets a band for each.
    static let fewValues = 6
    /// Otherwise its values are cut into this many bands.
    static let bandCount = 4

    init(measure: Measure, values: [(day: Int, value: Double, mood: Int)]) {
        self.measure = measure
        count = values.count
        var total = 0.0, low = Double.infinity, high = -Double.infinity
        // At most `fewValues + 1` distinct values are looked for: past that, bands.
        var distinct: Set<Double> = []
        for value in values {
            total += value.value
            low = min(low, value.value)
            high = max(high, value.value)
            if distinct.count <= Self.fewValues { distinct.insert(value.value) }
        }
        self.total = total
        lowest = values.isEmpty ? nil : low
        highest = values.isEmpty ? nil : high
        // The days in order, each averaged: values are read by entry, not by date.
        var days: [DayValue] = []
        var sum = 0.0, inDay = 0
        for value in values.sorted(by: { $0.day < $1.day }) {
            if inDay > 0, value.day != days[days.count - 1].day {
                days[days.count - 1] = DayValue(day: days[days.count - 1].day, value: sum / Double(inDay))
                sum = 0
                inDay = 0
            }
            if inDay == 0 { days.append(DayValue(day: value.day, value: 0)) }
            sum += value.value
            inDay += 1
        }
        if inDay > 0 { days[days.count - 1] = DayValue(day: days[days.count - 1].day, value: sum / Double(inDay)) }
        self.days = days
        // The bands' edges, then each value into its band in one pass.
        let edges: [(Double, Double)]
        if measure.kind == .scale {
            edges = (1...5).map { (Double($0), Double($0)) }
        } else if values.isEmpty {
            edges = []
        } else if distinct.count <= Self.fewValues {
            edges = distinct.sorted().map { ($0, $0) }
        } else {
            let width = (high - low) / Double(Self.bandCount)
            edges = (0..<Self.bandCount).map { index in
                (low + Double(index) * width, index == Self.bandCount - 1 ? high : low + Double(index + 1) * width)
            }
        }
        var moods = [MoodAverage](repeating: MoodAverage(), count: edges.count)
        let single = edges.allSatisfy { $0.0 == $0.1 }
        let steps = single ? Dictionary(uniqueKeysWithValues: edges.enumerated().map { ($0.element.0, $0.offset) }) : [:]
        for value in values {
            let band: Int?
            if single {
                band = steps[value.value]
            } else {
                // The first band that holds it: a band's upper edge is the next one's lower; the
                // highest value is in the last.
                band = edges.firstIndex { value.value >= $0.0 && value.value < $0.1 } ?? (value.value == high ? edges.count - 1 : nil)
            }
            guard let band, (0...5).contains(value.mood) else { continue } // no mood: in no band's average
            moods[band] = moods[band] + MoodAverage(count: 1, total: 5 - value.mood)
        }
        bands = zip(edges, moods).map { Band(lower: $0.0, upper: $0.1, mood: $1) }
    }
}

extension JournalStore {
    /// Each measure's figures over `period` as of `now`, in the journal's order. Apart from the
    /// rest of Insights, and asked for after them: reading every value of a journal of years
    /// (150,000 at 100,000 entries) takes about as long as the other figures together, and the
    /// page's first figures do not wait for it.
    public func measureInsights(for period: InsightsPeriod, now: Date = Date(), calendar: Calendar = .current) throws(JournalError) -> [MeasureInsight] {
        let (from, to) = period.bounds(now: now, calendar: calendar)
        let filter = DateFilter(from: from, to: to)
        let zone = calendar.timeZone
        return try reading { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM measure)") == true else { return [] }
            // The period's entries along the date index (with their moods, from the same index),
            // each placed on its local day.
            var clock = LocalClock(zone: zone)
            var moods = MoodsByID()
            try Self.step(db, sql: "SELECT created_at, mood, id FROM entry WHERE \(filter.condition) ORDER BY created_at",
                     arguments: filter.arguments) { row in
                guard let seconds = Self.utcSeconds(row, column: 0) else { return }
                // An entry without a mood still gives its values (their days and averages), and
                // is left out of the moods by band only.
                var mood = Int(sqlite3_column_int64(row, 1))
                if sqlite3_column_type(row, 1) == SQLITE_NULL {
                    mood = MoodsByID.noMood
                } else {
                    guard sqlite3_column_type(row, 1) == SQLITE_INTEGER, (0...5).contains(mood) else { return }
                }
                let day = Int((Double(seconds + clock.offset(at: seconds)) / 86_400).rounded(.down))
                moods.append(id: sqlite3_column_int64(row, 2), mood: mood, day: day)
            }
            return try Self.measureInsights(moods.table(), wholeJournal: from == nil && to == nil, db)
        }
    }

    /// Each measure's figures over the period whose entries `lookup` holds: its values read
    /// along their table's key (or, for the whole journal, all of them), each placed on its
    /// entry's day and mood without reading the entries again.
    static func measureInsights(_ lookup: MoodsByID.Table, wholeJournal: Bool, _ db: Database) throws -> [MeasureInsight] {
        let measures = try self.measures(db)
        guard !measures.isEmpty else { return [] }
        // By the measure's place in `measures` (a handful: a look along them beats hashing 150,000 ids).
        let ids = measures.map(\.id)
        var values = [[(day: Int, value: Double, mood: Int)]](repeating: [], count: measures.count)
        let sql = wholeJournal ? "SELECT entry_id, measure_id, value FROM entry_measure"
            : "SELECT entry_id, measure_id, value FROM entry_measure WHERE entry_id BETWEEN ? AND ?"
        try step(db, sql: sql, arguments: wholeJournal ? [] : [lookup.ids.lowerBound, lookup.ids.upperBound]) { row in
            guard let (mood, day) = lookup.moodAndDay(sqlite3_column_int64(row, 0)), // nil: outside the period
                  let index = ids.firstIndex(of: sqlite3_column_int64(row, 1)) else { return }
            let value = sqlite3_column_double(row, 2)
            guard value.isFinite else { return }
            values[index].append((day, value, mood))
        }
        return zip(measures, values).map { MeasureInsight(measure: $0, values: $1) }
    }
}
