import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// The Insights figures on generated journals, against the same figures computed here
/// independently, entry by entry, with Foundation's calendar in the same time zone.
final class InsightsTests: XCTestCase {
    let folder = TemporaryFolder()
    private var savedTZ: String?

    /// SQLite's `localtime` follows the process's TZ; Foundation is given the same zone.
    private func useTimeZone(_ identifier: String) -> Calendar {
        savedTZ = ProcessInfo.processInfo.environment["TZ"]
        setenv("TZ", identifier, 1)
        tzset()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: identifier)!
        return calendar
    }

    override func tearDown() {
        if let savedTZ { setenv("TZ", savedTZ, 1) } else { unsetenv("TZ") }
        tzset()
        super.tearDown()
    }

    private struct Written {
        let date: Date
        let mood: Mood
        let tags: Set<Int64>
    }

    /// `count` entries over about two years, several on some days, some tagged, in a fixed order.
    private func journal(_ store: JournalStore, count: Int, now: Date) throws -> [Written] {
        let tags = try store.tags()
        var seed: UInt64 = 42
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        var written: [Written] = []
        for _ in 0..<count {
            let date = now.addingTimeInterval(-Double(next(730 * 24 * 60)) * 60)
            let mood = Mood(rawValue: next(6))!
            var chosen: Set<Int64> = []
            for tag in tags where next(4) == 0 { chosen.insert(tag.id) }
            // Exercise goes with better days, so its difference has a known sign.
            if mood.rawValue <= 1, let exercise = tags.first(where: { $0.name == "exercise" }) { chosen.insert(exercise.id) }
            written.append(Written(date: date, mood: mood, tags: chosen))
        }
        try store.save(written.map { (entry: try EntryDraft(title: "Day", mood: $0.mood, tagIDs: $0.tags).validated().get(), createdAt: $0.date) })
        return written
    }

    private func expected(_ written: [Written], period: InsightsPeriod, now: Date, calendar: Calendar, tags: [Tag]) -> Insights {
        let (from, to) = period.bounds(now: now, calendar: calendar)
        let inPeriod = written.filter { entry in
            (from.map { entry.date >= $0 } ?? true) && (to.map { entry.date < $0 } ?? true)
        }
        var days: [Insights.Day: MoodAverage] = [:]
        var weekdays = Array(repeating: MoodAverage(), count: 7)
        var times = Array(repeating: MoodAverage(), count: 4)
        var counts = Array(repeating: 0, count: 6)
        for entry in inPeriod {
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .weekday], from: entry.date)
            let one = MoodAverage(count: 1, total: entry.mood.score)
            let day = Insights.Day(year: parts.year!, month: parts.month!, day: parts.day!)
            days[day, default: MoodAverage()] = days[day, default: MoodAverage()] + one
            // Foundation's weekday: 1 is Sunday. Monday first here.
            let weekday = (parts.weekday! + 5) % 7
            weekdays[weekday] = weekdays[weekday] + one
            let time = TimeOfDay(hour: parts.hour!).rawValue
            times[time] = times[time] + one
            counts[entry.mood.rawValue] += 1
        }
        func average(_ entries: [Written]) -> MoodAverage {
            MoodAverage(count: entries.count, total: entries.map(\.mood.score).reduce(0, +))
        }
        let all = average(inPeriod)
        let tagMoods = tags.compactMap { tag -> Insights.TagMood? in
            let with = average(inPeriod.filter { $0.tags.contains(tag.id) })
            guard with.count >= Insights.minimumTagEntries else { return nil }
            return Insights.TagMood(tag: Tag(id: tag.id, name: tag.name, entryCount: with.count), with: with, without: all - with)
        }.sorted { ($0.difference ?? 0, $1.tag.name) > ($1.difference ?? 0, $0.tag.name) }
        let byMood: [[(tag: Tag, count: Int)]] = Mood.allCases.map { mood in
            let counted: [(tag: Tag, count: Int)] = tags.map { tag in
                (Tag(id: tag.id, name: tag.name), inPeriod.filter { $0.mood == mood && $0.tags.contains(tag.id) }.count)
            }
            let ordered = counted.filter { $0.count > 0 }.sorted { first, second in
                first.count != second.count ? first.count > second.count : first.tag.name.lowercased() < second.tag.name.lowercased()
            }
            return Array(ordered.prefix(Insights.tagsPerMood))
        }
        let orderedDays = days.keys.sorted { ($0.year, $0.month, $0.day) < ($1.year, $1.month, $1.day) }
        return Insights(days: orderedDays.map { ($0, days[$0]!) }, moodCounts: counts, weekdays: weekdays, timesOfDay: times,
                        tags: tagMoods, tagsByMood: byMood, streaks: streaks(written, now: now, calendar: calendar))
    }

    private func streaks(_ written: [Written], now: Date, calendar: Calendar) -> Insights.Streaks {
        let days = Set(written.map { calendar.startOfDay(for: $0.date) })
        var longest = 0
        for day in days {
            guard let before = calendar.date(byAdding: .day, value: -1, to: day), !days.contains(before) else { continue }
            var length = 1, next = day
            while let following = calendar.date(byAdding: .day, value: 1, to: next), days.contains(following) {
                length += 1
                next = following
            }
            longest = max(longest, length)
        }
        var current = 0
        var day = calendar.startOfDay(for: now)
        if !days.contains(day) { day = calendar.date(byAdding: .day, value: -1, to: day)! }
        while days.contains(day) {
            current += 1
            day = calendar.date(byAdding: .day, value: -1, to: day)!
        }
        return .init(current: current, longest: longest)
    }

    func testEveryFigureMatchesOneComputedEntryByEntry() throws {
        for zone in ["America/New_York", "Asia/Kolkata", "UTC"] {
            let calendar = useTimeZone(zone)
            let store = try JournalStore(path: folder.file("journal-\(zone.replacingOccurrences(of: "/", with: "-")).sqlite"))
            let now = Date(timeIntervalSince1970: 1_762_000_000) // early November 2025
            let written = try journal(store, count: 1_500, now: now)
            let tags = try store.tags()
            for period in [InsightsPeriod.last30Days, .last12Months, .all, .year(2024), .year(2020)] {
                let found = try store.insights(for: period, now: now, calendar: calendar)
                let want = expected(written, period: period, now: now, calendar: calendar, tags: tags)
                XCTAssertEqual(found.days.map(\.day), want.days.map(\.day), "\(zone) \(period): days")
                XCTAssertEqual(found.days.map(\.mood), want.days.map(\.mood), "\(zone) \(period): day averages")
                XCTAssertEqual(found.moodCounts, want.moodCounts, "\(zone) \(period): mood counts")
                XCTAssertEqual(found.weekdays, want.weekdays, "\(zone) \(period): weekdays")
                XCTAssertEqual(found.timesOfDay, want.timesOfDay, "\(zone) \(period): times of day")
                XCTAssertEqual(found.tags, want.tags, "\(zone) \(period): tags")
                XCTAssertEqual(found.tagsByMood.map { $0.map(\.tag.name) }, want.tagsByMood.map { $0.map(\.tag.name) }, "\(zone) \(period)")
                XCTAssertEqual(found.tagsByMood.map { $0.map(\.count) }, want.tagsByMood.map { $0.map(\.count) }, "\(zone) \(period)")
                XCTAssertEqual(found.streaks, want.streaks, "\(zone) \(period): streaks")

                // The year in pixels: the chosen year, or this one, whatever the period.
                let pixelYear = if case .year(let year) = period { year } else { calendar.component(.year, from: now) }
                XCTAssertEqual(found.pixelYear, pixelYear)
                var pixels: [String: MoodAverage] = [:]
                for entry in written where calendar.component(.year, from: entry.date) == pixelYear {
                    let parts = calendar.dateComponents([.year, .month, .day], from: entry.date)
                    pixels["\(parts.year!)-\(parts.month!)-\(parts.day!)", default: MoodAverage()] =
                        pixels["\(parts.year!)-\(parts.month!)-\(parts.day!)", default: MoodAverage()] + MoodAverage(count: 1, total: entry.mood.score)
                }
                let foundPixels = Dictionary(uniqueKeysWithValues: found.pixelDays.map { number, mood in
                    let day = Insights.Day(number: number)
                    return ("\(day.year)-\(day.month)-\(day.day)", mood)
                })
                XCTAssertEqual(foundPixels, pixels, "\(zone) \(period): year in pixels")

                // The chart's span: the period's days, or for everything the first and last entries'.
                let (from, to) = period.bounds(now: now, calendar: calendar)
                let spanDays = from.flatMap { from in to.map { (from, $0.addingTimeInterval(-1)) } }
                    ?? (written.map(\.date).min()!, written.map(\.date).max()!)
                let ends = [spanDays.0, spanDays.1].map { calendar.dateComponents([.year, .month, .day], from: $0) }
                let span = try XCTUnwrap(found.span)
                XCTAssertEqual([Insights.Day(number: span.lowerBound), Insights.Day(number: span.upperBound)],
                               ends.map { Insights.Day(year: $0.year!, month: $0.month!, day: $0.day!) }, "\(zone) \(period): span")
                let years = written.map { calendar.component(.year, from: $0.date) }
                XCTAssertEqual(found.years, years.min()!...years.max()!)
            }
            let year = try store.insights(for: .all, now: now, calendar: calendar)
            let exercise = try XCTUnwrap(year.tags.first { $0.tag.name == "exercise" })
            XCTAssertGreaterThan(exercise.difference ?? 0, 0, "exercise goes with better days")
            store.close()
        }
    }

    func testAnEntryJustBeforeLocalMidnightCountsOnItsLocalDay() throws {
        let calendar = useTimeZone("America/New_York")
        let store = try JournalStore(path: folder.file("midnight.sqlite"))
        // 23:30 in New York on Sunday 9 March 2025 is 03:30 UTC on Monday the 10th; the day
        // before, clocks went forward.
        let late = calendar.date(from: DateComponents(year: 2025, month: 3, day: 9, hour: 23, minute: 30))!
        let early = calendar.date(from: DateComponents(year: 2025, month: 3, day: 10, hour: 0, minute: 15))!
        _ = try store.save(try EntryDraft(title: "Late", mood: .theBest).validated().get(), createdAt: late)
        _ = try store.save(try EntryDraft(title: "Early", mood: .theWorst).validated().get(), createdAt: early)
        let insights = try store.insights(for: .year(2025), now: early, calendar: calendar)
        XCTAssertEqual(insights.days.map(\.day), [Insights.Day(year: 2025, month: 3, day: 9), Insights.Day(year: 2025, month: 3, day: 10)])
        XCTAssertEqual(insights.weekdays[6], MoodAverage(count: 1, total: 5), "Sunday: the late entry")
        XCTAssertEqual(insights.weekdays[0], MoodAverage(count: 1, total: 0), "Monday: the early one")
        XCTAssertEqual(insights.timesOfDay[TimeOfDay.evening.rawValue].count, 0)
        XCTAssertEqual(insights.timesOfDay[TimeOfDay.night.rawValue].count, 2, "23:30 and 00:15 are night")
        XCTAssertEqual(insights.streaks, .init(current: 2, longest: 2))
    }

    func testAnEmptyPeriodAndASingleEntry() throws {
        let calendar = useTimeZone("UTC")
        let store = try JournalStore(path: folder.file("small.sqlite"))
        let now = Date(timeIntervalSince1970: 1_762_000_000)
        let empty = try store.insights(for: .last30Days, now: now, calendar: calendar)
        XCTAssertTrue(empty.days.isEmpty)
        XCTAssertEqual(empty.moodCounts, [0, 0, 0, 0, 0, 0])
        XCTAssertNil(empty.total.average)
        XCTAssertEqual(empty.streaks, .init(current: 0, longest: 0))
        _ = try store.save(try EntryDraft(title: "One", mood: .meh).validated().get(), createdAt: now.addingTimeInterval(-3 * 86_400))
        let one = try store.insights(for: .last30Days, now: now, calendar: calendar)
        XCTAssertEqual(one.moodCounts, [0, 0, 0, 1, 0, 0])
        XCTAssertEqual(one.total.average, 2)
        XCTAssertEqual(one.total.mood, .meh)
        XCTAssertEqual(one.streaks, .init(current: 0, longest: 1), "three days ago is no current streak")
        XCTAssertTrue(one.tags.isEmpty, "no tag has five entries")
    }

    /// The chart's steps: days up to 400 of them, then weeks from Monday, months, years; each
    /// step sums its days, and steps without entries are gaps.
    func testTheTimelineCutsThePeriodIntoStepsAChartCanShow() {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = { (y: Int, m: Int, d: Int) in Insights.Day(year: y, month: m, day: d) }
        let days: [(day: Insights.Day, mood: MoodAverage)] = [
            (day(2024, 1, 1), MoodAverage(count: 1, total: 5)), (day(2024, 1, 3), MoodAverage(count: 2, total: 4)),
            (day(2024, 1, 8), MoodAverage(count: 1, total: 0)), (day(2025, 3, 31), MoodAverage(count: 1, total: 3)),
        ]
        let month = MoodTimeline(days: Array(days.prefix(3)), span: day(2024, 1, 1).number...day(2024, 1, 31).number)
        XCTAssertEqual(month.step, .day)
        XCTAssertEqual(month.points.count, 31)
        XCTAssertEqual(month.points[2].mood, MoodAverage(count: 2, total: 4))
        XCTAssertEqual(month.points[1].mood.count, 0, "a day without entries is a gap")
        XCTAssertEqual(month.points[30].start, day(2024, 1, 31))

        // 2 January 2024 to 31 March 2025: 455 days, so weeks, from Monday 1 January 2024.
        let weeks = MoodTimeline(days: days, span: day(2024, 1, 2).number...day(2025, 3, 31).number)
        XCTAssertEqual(weeks.step, .week)
        for point in weeks.points {
            let start = calendar.date(from: DateComponents(year: point.start.year, month: point.start.month, day: point.start.day))!
            XCTAssertEqual(calendar.component(.weekday, from: start), 2, "every week starts on a Monday")
        }
        XCTAssertEqual(weeks.points.first?.mood, MoodAverage(count: 3, total: 9), "1 and 3 January")
        XCTAssertEqual(weeks.points[1].mood, MoodAverage(count: 1, total: 0), "8 January")
        XCTAssertEqual(weeks.points.last?.start, day(2025, 3, 31))
        XCTAssertEqual(weeks.points.last?.mood, MoodAverage(count: 1, total: 3))

        let decade = MoodTimeline(days: days, span: day(2016, 5, 1).number...day(2025, 3, 31).number)
        XCTAssertEqual(decade.step, .month)
        XCTAssertEqual(decade.points.count, 12 * 9 - 4 + 3)
        XCTAssertEqual(decade.points.first(where: { $0.mood.count > 0 })?.start, day(2024, 1, 1))
        XCTAssertEqual(decade.points.first(where: { $0.mood.count > 0 })?.mood, MoodAverage(count: 4, total: 9))

        let centuries = MoodTimeline(days: days, span: day(1800, 1, 1).number...day(2025, 3, 31).number)
        XCTAssertEqual(centuries.step, .year)
        XCTAssertEqual(centuries.points.count, 226)
        XCTAssertEqual(centuries.points[224].mood, MoodAverage(count: 4, total: 9))
        XCTAssertTrue(MoodTimeline(days: [], span: nil).points.isEmpty)
    }

    /// A mood edited by hand into no mood ('abc', 9, 2.5) is left out of every figure, but its
    /// day was still written: the streaks count it, over everything as over a shorter period.
    func testAnEntryWithNoValidMoodIsNoFigureButADayWritten() throws {
        let calendar = useTimeZone("UTC")
        let path = folder.file("bad.sqlite")
        let store = try JournalStore(path: path)
        let now = Date(timeIntervalSince1970: 1_762_000_000)
        var ids: [Int64] = []
        for day in 0..<4 {
            ids.append(try store.save(try EntryDraft(title: "Day", mood: .reallyGood).validated().get(),
                                      createdAt: now.addingTimeInterval(-Double(day) * 86_400)).id)
        }
        store.close()
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            for (id, mood) in zip(ids.dropFirst(), ["'abc'", "9", "2.5"]) {
                try db.execute(sql: "UPDATE entry SET mood = \(mood) WHERE id = ?", arguments: [id])
            }
        }
        try queue.close()
        let reopened = try JournalStore(path: path)
        for period in [InsightsPeriod.all, .last30Days] {
            let insights = try reopened.insights(for: period, now: now, calendar: calendar)
            XCTAssertEqual(insights.moodCounts, [0, 1, 0, 0, 0, 0], "\(period)")
            XCTAssertEqual(insights.days.count, 1, "\(period)")
            XCTAssertEqual(insights.streaks, .init(current: 4, longest: 4), "\(period)")
        }
    }

    /// Figures are kept until the journal changes: a save through the store, or another
    /// program's write to the file, is counted at the next asking.
    func testKeptFiguresFollowEveryChangeToTheJournal() throws {
        let calendar = useTimeZone("UTC")
        let path = folder.file("cached.sqlite")
        let store = try JournalStore(path: path)
        _ = store.check() // open for writing, as the app is after its health check
        let now = Date(timeIntervalSince1970: 1_762_000_000)
        _ = try store.save(try EntryDraft(title: "One", mood: .okay).validated().get(), createdAt: now)
        XCTAssertEqual(try store.insights(for: .all, now: now, calendar: calendar).total.count, 1)
        XCTAssertEqual(try store.insights(for: .all, now: now, calendar: calendar).total.count, 1, "kept")
        _ = try store.save(try EntryDraft(title: "Two", mood: .okay).validated().get(), createdAt: now)
        XCTAssertEqual(try store.insights(for: .all, now: now, calendar: calendar).total.count, 2, "a save is counted")
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: "INSERT INTO entry (title, body, mood, created_at, uuid) VALUES ('Elsewhere', '', 0, '2025-11-01 10:00:00.000', 'other-writer')")
        }
        try other.close()
        XCTAssertEqual(try store.insights(for: .all, now: now, calendar: calendar).total.count, 3, "another program's write is counted")
        XCTAssertEqual(try store.insights(for: .all, now: now.addingTimeInterval(86_400 * 400), calendar: calendar).streaks.current, 0,
                       "another day, other figures")
    }

    func testAveragesRoundToTheNearestMood() {
        XCTAssertEqual(Mood.nearest(toScore: 5), .theBest)
        XCTAssertEqual(Mood.nearest(toScore: 4.6), .theBest)
        XCTAssertEqual(Mood.nearest(toScore: 4.4), .reallyGood)
        XCTAssertEqual(Mood.nearest(toScore: 0.2), .theWorst)
        XCTAssertEqual(MoodAverage(count: 4, total: 13).average, 3.25)
        XCTAssertEqual(MoodAverage(count: 4, total: 13).mood, .okay)
    }
}
