import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Insights of measures: each measure's values day by day, and the mood that goes with each
/// step of a scale and each band of a number, over the chosen period.
final class MeasureInsightsTests: XCTestCase {
    let folder = TemporaryFolder()
    private let utc: Calendar = { var c = Calendar(identifier: .gregorian); c.timeZone = TimeZone(identifier: "UTC")!; return c }()

    func testMeasuresAreChartedAndTheirStepsAndBandsGetTheirMood() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let sleep = try store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number, unit: "hours"))
        let energy = try store.createMeasure(MeasureDefinition(name: "Energy", kind: .scale))
        let steps = try store.createMeasure(MeasureDefinition(name: "Steps", kind: .number))
        let start = Date(timeIntervalSince1970: 1_790_000_000) // 2026-09-21, 14:13 UTC
        // Day 0: two entries; days 1 to 7 one each. Sleep from 4 to 10 hours, mood following it.
        let rows: [(day: Int, sleep: Double, energy: Double?, mood: Mood)] = [
            (0, 4, 1, .theWorst), (0, 5, 2, .notSoGreat), (1, 6, 3, .meh), (2, 7, 3, .okay), (3, 8, 4, .reallyGood),
            (4, 9, 5, .theBest), (5, 10, 5, .theBest), (6, 5.5, nil, .meh), (7, 6.5, nil, .okay),
        ]
        for (index, row) in rows.enumerated() {
            var values: [Int64: Double] = [sleep.id: row.sleep]
            if let value = row.energy { values[energy.id] = value }
            _ = try store.save(try EntryDraft(title: "night \(index)", mood: row.mood, measures: values).validated().get(),
                               createdAt: start.addingTimeInterval(Double(row.day) * 86_400 + Double(index)))
        }
        _ = try store.save(try EntryDraft(title: "untracked", mood: .theBest).validated().get(), createdAt: start)
        let measures = try store.measureInsights(for: .all, now: start.addingTimeInterval(10 * 86_400), calendar: utc)
        XCTAssertEqual(measures.map(\.measure), [sleep, energy, steps], "every measure, in the journal's order")

        let night = try XCTUnwrap(measures.first)
        XCTAssertEqual(night.count, 9)
        XCTAssertEqual(night.average ?? 0, 61.0 / 9, accuracy: 1e-9)
        XCTAssertEqual(night.lowest, 4)
        XCTAssertEqual(night.highest, 10)
        let firstDay = Insights.Day(start, in: utc).number
        XCTAssertEqual(night.days.first, MeasureInsight.DayValue(day: firstDay, value: 4.5), "a day's values averaged")
        XCTAssertEqual(night.days.count, 8)
        // Nine values, more than a few: four bands of 1.5 hours from 4 to 10.
        XCTAssertEqual(night.bands.map(\.lower), [4, 5.5, 7, 8.5])
        XCTAssertEqual(night.bands.map(\.upper), [5.5, 7, 8.5, 10])
        XCTAssertEqual(night.bands.map(\.mood.count), [2, 3, 2, 2], "each value in one band, 10 in the last")
        XCTAssertEqual(night.bands.map(\.mood.total), [0 + 1, 2 + 2 + 3, 3 + 4, 5 + 5])

        let scale = measures[1]
        XCTAssertEqual(scale.bands.map(\.lower), [1, 2, 3, 4, 5], "a scale's five steps")
        XCTAssertEqual(scale.bands.map(\.mood.count), [1, 1, 2, 1, 2])
        XCTAssertEqual(scale.bands[4].mood.mood, .theBest)
        XCTAssertEqual(measures[2].count, 0, "a measure without values is there, empty")
        XCTAssertEqual(measures[2].bands, [])

        // A period holds only its own entries' values.
        let lastDays = try store.measureInsights(for: .last30Days, now: start.addingTimeInterval(40 * 86_400), calendar: utc)
        XCTAssertEqual(lastDays.first?.count, 0)
        let recent = try store.measureInsights(for: .last30Days, now: start.addingTimeInterval(10 * 86_400), calendar: utc)
        XCTAssertEqual(recent.first?.count, 9, "within the last 30 days")
    }

    func testANumberTakingFewValuesGetsABandForEach() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let glasses = try store.createMeasure(MeasureDefinition(name: "Glasses of water", kind: .number))
        for (index, (value, mood)) in [(2.0, Mood.meh), (2, .okay), (8, .theBest)].enumerated() {
            _ = try store.save(try EntryDraft(title: "\(index)", mood: mood, measures: [glasses.id: value]).validated().get(),
                               createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(index) * 3_600))
        }
        let measures = try store.measureInsights(for: .all, now: Date(timeIntervalSince1970: 1_790_100_000), calendar: utc)
        XCTAssertEqual(measures.first?.bands.map(\.lower), [2, 8])
        XCTAssertEqual(measures.first?.bands.map(\.mood.count), [2, 1])
    }
}
