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
        total = values.reduce(0) { $0 + $1.value }
        lowest = values.map(\.value).min()
        highest = values.map(\.value).max()
        var byDay: [Int: (sum: Double, count: Int)] = [:]
        for value in values { byDay[value.day, default: (0, 0)] = (byDay[value.day, default: (0, 0)].sum + value.value, byDay[value.day, default: (0, 0)].count + 1) }
        days = byDay.keys.sorted().map { DayValue(day: $0, value: byDay[$0]!.sum / Double(byDay[$0]!.count)) }
        let edges: [(Double, Double)]
        let distinct = Set(values.map(\.value)).sorted()
        if measure.kind == .scale {
            edges = (1...5).map { (Double($0), Double($0)) }
        } else if distinct.count <= Self.fewValues {
            edges = distinct.map { ($0, $0) }
        } else if let low = lowest, let high = highest {
            let width = (high - low) / Double(Self.bandCount)
            edges = (0..<Self.bandCount).map { index in
                (low + Double(index) * width, index == Self.bandCount - 1 ? high : low + Double(index + 1) * width)
            }
        } else {
            edges = []
        }
        bands = edges.enumerated().map { index, edge in
            // Each value in the first band that holds it (a band's upper edge is the next one's lower).
            let inBand = values.filter { value in
                value.value >= edge.0 && (value.value < edge.1 || (value.value == edge.1 && (edge.0 == edge.1 || index == edges.count - 1)))
            }
            return Band(lower: edge.0, upper: edge.1,
                        mood: MoodAverage(count: inBand.count, total: inBand.reduce(0) { $0 + 5 - $1.mood }))
        }
    }
}

extension JournalStore {
    /// Each measure's figures over the period whose entries `lookup` holds: its values read
    /// along their table's key (or, for the whole journal, all of them), each placed on its
    /// entry's day and mood without reading the entries again.
    static func measureInsights(_ lookup: MoodsByID.Table, wholeJournal: Bool, _ db: Database) throws -> [MeasureInsight] {
        let measures = try self.measures(db)
        guard !measures.isEmpty else { return [] }
        var values: [Int64: [(day: Int, value: Double, mood: Int)]] = [:]
        let sql = wholeJournal ? "SELECT entry_id, measure_id, value FROM entry_measure"
            : "SELECT entry_id, measure_id, value FROM entry_measure WHERE entry_id BETWEEN ? AND ?"
        try step(db, sql: sql, arguments: wholeJournal ? [] : [lookup.ids.lowerBound, lookup.ids.upperBound]) { row in
            let entry = sqlite3_column_int64(row, 0)
            guard let mood = lookup.mood(entry), let day = lookup.day(entry) else { return } // outside the period
            let value = sqlite3_column_double(row, 2)
            guard value.isFinite else { return }
            values[sqlite3_column_int64(row, 1), default: []].append((day, value, mood))
        }
        return measures.map { MeasureInsight(measure: $0, values: values[$0.id] ?? []) }
    }
}
