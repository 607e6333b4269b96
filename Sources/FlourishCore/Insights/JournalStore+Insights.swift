import Foundation
import GRDB
import GRDBSQLite

/// The Insights page's figures. SQL picks the period's entries along the date index; each
/// entry's local day, hour and weekday are then worked out in one pass from its UTC time and
/// the time zone's offsets, and the tags are counted from their own table by each entry's mood.
/// (SQLite's `localtime` with a GROUP BY over every local hour, and joining every tag to its
/// entry's row, took 3 s for 100,000 entries.)
extension JournalStore {
    /// The figures of `period` as of `now`: computed once, then kept until the journal changes
    /// (a save here, or another program's write), the day turns or the time zone changes.
    public func insights(for period: InsightsPeriod, now: Date = Date(), calendar: Calendar = .current) throws(JournalError) -> Insights {
        let key = insightsKey(period, now: now, calendar: calendar)
        if let key, let cached = cachedInsights(key) { return cached }
        let insights = try computeInsights(for: period, now: now, calendar: calendar)
        // Kept only if nothing was written while they were computed.
        if let key, insightsKey(period, now: now, calendar: calendar) == key { cache(insights, for: key) }
        return insights
    }

    func computeInsights(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> Insights {
        let (from, to) = period.bounds(now: now, calendar: calendar)
        // The year in pixels is read in the same pass: the period's entries and the year's.
        let pixelYear = if case .year(let year) = period { year } else { calendar.component(.year, from: now) }
        let (yearFrom, yearTo) = InsightsPeriod.year(pixelYear).bounds(now: now, calendar: calendar)
        let lower = from.map { min($0, yearFrom ?? $0) }, upper = to.map { max($0, yearTo ?? $0) }
        // Rows whose mood is no mood (a damaged or foreign file) are skipped as they are read:
        // they still count as days written, for the streaks.
        let filter = DateFilter(from: lower, to: upper)
        let inPeriod = (from.map { Int($0.timeIntervalSince1970.rounded(.down)) } ?? .min)..<(to.map { Int($0.timeIntervalSince1970.rounded(.down)) } ?? .max)
        let pixelDays = LocalClock.dayNumber(year: pixelYear, month: 1, day: 1)..<LocalClock.dayNumber(year: pixelYear + 1, month: 1, day: 1)
        let zone = calendar.timeZone
        return try reading { db in
            var insights = Insights(days: [], moodCounts: Array(repeating: 0, count: 6),
                                    weekdays: Array(repeating: MoodAverage(), count: 7),
                                    timesOfDay: Array(repeating: MoodAverage(), count: TimeOfDay.allCases.count),
                                    tags: [], tagsByMood: Array(repeating: [], count: 6),
                                    streaks: .init(current: 0, longest: 0), pixelYear: pixelYear)
            var clock = LocalClock(zone: zone)
            // The days in date order, each added to while entries fall on it: the rows come
            // along the date index, so a day's entries come together (dictionaries of 100,000
            // days and ids cost more than SQLite's reading of the rows).
            var days: [(day: Int, mood: MoodAverage)] = []
            // Each entry's mood by id, for the tags: a lookup here instead of a join into the
            // entries' rows (wide with their bodies) for every tag an entry carries.
            var moods = MoodsByID()
            // Over the whole journal this pass sees every entry, so it also gives the days
            // written for the streaks; a shorter period reads them in a pass of their own.
            var written: [Int] = []
            // The year's days with entries that have no mood: a day of its own in the pixels
            // unless another entry of it has one.
            var writtenWithoutMood = Set<Int>()
            let writtenHere = from == nil && to == nil
            try Self.step(db, sql: "SELECT created_at, mood, id FROM entry WHERE \(filter.condition) ORDER BY created_at",
                          arguments: filter.arguments) { row in
                guard let seconds = Self.utcSeconds(row, column: 0) else { return }
                let local = seconds + clock.offset(at: seconds)
                let day = Int((Double(local) / 86_400).rounded(.down))
                if writtenHere && written.last != day { written.append(day) }
                let mood = Int(sqlite3_column_int64(row, 1))
                if sqlite3_column_type(row, 1) == SQLITE_NULL {
                    // An entry without a mood: counted apart, out of every average and chart.
                    if pixelDays.contains(day) { writtenWithoutMood.insert(day) }
                    if inPeriod.contains(seconds) { insights.withoutMood += 1 }
                    return
                }
                guard sqlite3_column_type(row, 1) == SQLITE_INTEGER, (0...5).contains(mood) else { return }
                let one = MoodAverage(count: 1, total: 5 - mood)
                if pixelDays.contains(day) { insights.pixelDays[day, default: MoodAverage()] = insights.pixelDays[day, default: MoodAverage()] + one }
                guard inPeriod.contains(seconds) else { return }
                moods.append(id: sqlite3_column_int64(row, 2), mood: mood, day: day)
                if days.last?.day == day { days[days.count - 1].mood = days[days.count - 1].mood + one } else { days.append((day, one)) }
                let weekday = MoodTimeline.weekday(day)
                insights.weekdays[weekday] = insights.weekdays[weekday] + one
                let time = TimeOfDay(hour: (local - day * 86_400) / 3_600).rawValue
                insights.timesOfDay[time] = insights.timesOfDay[time] + one
                insights.moodCounts[mood] += 1
            }
            insights.pixelDaysWithoutMood = writtenWithoutMood.subtracting(insights.pixelDays.keys)
            if let from, let to {
                let first = Insights.Day(from, in: calendar).number
                insights.span = first...max(first, Insights.Day(to, in: calendar).number - 1)
            }
            // The years to choose from: the first and last entries', read from the ends of the date index.
            try Self.step(db, sql: "SELECT (SELECT min(created_at) FROM entry), (SELECT max(created_at) FROM entry)") { row in
                var yearClock = LocalClock(zone: zone)
                guard let first = Self.utcSeconds(row, column: 0), let last = Self.utcSeconds(row, column: 1) else { return }
                let year = { (seconds: Int) in LocalClock.civil(day: Int((Double(seconds + yearClock.offset(at: seconds)) / 86_400).rounded(.down))).year }
                let firstYear = year(first), lastYear = year(last)
                insights.years = firstYear...max(firstYear, lastYear)
            }
            // A clock put back at midnight can bring a day back after the next one began.
            if !zip(days, days.dropFirst()).allSatisfy({ $0.day < $1.day }) {
                let merged = Dictionary(days, uniquingKeysWith: +)
                days = merged.keys.sorted().map { ($0, merged[$0]!) }
            }
            insights.span = insights.span ?? days.first.map { $0.day...days[days.count - 1].day }
            insights.days = days.map { (LocalClock.civil(day: $0.day), $0.mood) }

            // The tags by mood, counted from the tags' own table; a tag's figures sum its moods.
            let names = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, name FROM tag").map { ($0["id"] as Int64, $0["name"] as String) })
            var byTag: [Int64: [Int]] = [:]
            let lookup = moods.table()
            // A period's tags along entry_tag's key, over the ids its entries span; the whole
            // journal's along the tags' index, a tag's rows together, counted without looking
            // the tag up for each of 100,000 rows and more.
            let sql = writtenHere ? "SELECT entry_id, tag_id FROM entry_tag INDEXED BY entry_tag_by_tag"
                : "SELECT entry_id, tag_id FROM entry_tag WHERE entry_id BETWEEN ? AND ?"
            var tag: Int64?
            var counts = [Int](repeating: 0, count: 6)
            try Self.step(db, sql: sql, arguments: writtenHere ? [] : [lookup.ids.lowerBound, lookup.ids.upperBound]) { row in
                guard let mood = lookup.mood(sqlite3_column_int64(row, 0)) else { return } // outside the period
                let id = sqlite3_column_int64(row, 1)
                if id != tag {
                    if let tag { byTag[tag] = counts }
                    tag = id
                    counts = byTag[id] ?? [Int](repeating: 0, count: 6)
                }
                counts[mood] += 1
            }
            if let tag { byTag[tag] = counts }
            let everything = insights.total
            insights.tags = byTag.compactMap { id, counts -> Insights.TagMood? in
                guard let name = names[id] else { return nil }
                let with = MoodAverage(count: counts.reduce(0, +),
                                       total: counts.enumerated().map { mood, count in (5 - mood) * count }.reduce(0, +))
                guard with.count >= Insights.minimumTagEntries else { return nil }
                return Insights.TagMood(tag: Tag(id: id, name: name, entryCount: with.count), with: with, without: everything - with)
            }.sorted { ($0.difference ?? 0, $1.tag.name) > ($1.difference ?? 0, $0.tag.name) }
            for mood in 0..<6 {
                insights.tagsByMood[mood] = byTag.compactMap { id, counts -> (tag: Tag, count: Int)? in
                    guard counts[mood] > 0, let name = names[id] else { return nil }
                    return (Tag(id: id, name: name), counts[mood])
                }.sorted { first, second in
                    first.count != second.count ? first.count > second.count : TagName.key(first.tag.name) < TagName.key(second.tag.name)
                }.prefix(Insights.tagsPerMood).map { $0 }
            }

            // Streaks run over the whole journal, along the date index alone.
            var streakClock = LocalClock(zone: zone)
            if !writtenHere {
                try Self.step(db, sql: "SELECT created_at FROM entry ORDER BY created_at") { row in
                    guard let seconds = Self.utcSeconds(row, column: 0) else { return }
                    let day = Int((Double(seconds + streakClock.offset(at: seconds)) / 86_400).rounded(.down))
                    if written.last != day { written.append(day) }
                }
            }
            let nowSeconds = Int(now.timeIntervalSince1970.rounded(.down))
            let today = Int((Double(nowSeconds + streakClock.offset(at: nowSeconds)) / 86_400).rounded(.down))
            if !zip(written, written.dropFirst()).allSatisfy({ $0 < $1 }) { written = Array(Set(written)).sorted() }
            insights.streaks = Self.streaks(days: written, today: today)
            return insights
        }
    }

    /// Runs of consecutive day numbers among `days` (ascending, distinct).
    static func streaks(days: [Int], today: Int) -> Insights.Streaks {
        var longest = 0, run = 0, previous: Int?
        for day in days {
            run = previous.map { day == $0 + 1 ? run + 1 : 1 } ?? 1
            longest = max(longest, run)
            previous = day
        }
        let current = previous.map { $0 == today || $0 == today - 1 ? run : 0 } ?? 0
        return .init(current: current, longest: longest)
    }

    /// A stored date as seconds since 1970 (UTC): the text Flourish writes, read by hand, or any
    /// other form a date may have been stored in, through the strict reader.
    static func utcSeconds(_ row: OpaquePointer, column: Int32) -> Int? {
        if sqlite3_column_type(row, column) == SQLITE_TEXT, let text = sqlite3_column_text(row, column),
           sqlite3_column_bytes(row, column) >= 19 {
            // "YYYY-MM-DD HH:MM:SS…"
            func number(_ start: Int, _ length: Int) -> Int? {
                var value = 0
                for index in start..<(start + length) {
                    let digit = Int(text[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            if let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
               let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month), (1...31).contains(day) {
                return LocalClock.dayNumber(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
            }
        }
        let value = DatabaseValue(sqliteStatement: row, index: column)
        return StoredDate.parse(value.storage).map { Int($0.timeIntervalSince1970.rounded(.down)) }
    }
}

/// The moods and local days of a period's entries by id, gathered in date order and then looked
/// up by id for each tag or measure row: a table indexed by id when the ids are close together,
/// as a journal's are.
struct MoodsByID {
    private var pairs: [(id: Int64, mood: Int, day: Int)] = []
    /// The mood of an entry that has none, where a table keeps such entries (measure insights).
    static let noMood = 6
    private var lowest = Int64.max, highest = Int64.min

    mutating func append(id: Int64, mood: Int, day: Int = 0) {
        pairs.append((id, mood, day))
        lowest = min(lowest, id)
        highest = max(highest, id)
    }

    struct Table {
        /// The ids from the lowest to the highest (empty: no entries).
        let ids: ClosedRange<Int64>
        private let moods: [Int8]
        private let days: [Int32]
        private let scattered: [Int64: (mood: Int, day: Int)]

        init(ids: ClosedRange<Int64>, moods: [Int8], days: [Int32], scattered: [Int64: (mood: Int, day: Int)]) {
            self.ids = ids
            self.moods = moods
            self.days = days
            self.scattered = scattered
        }

        func mood(_ id: Int64) -> Int? {
            guard ids.contains(id) else { return nil }
            if moods.isEmpty { return scattered[id]?.mood }
            let mood = moods[Int(id - ids.lowerBound)]
            return mood < 0 ? nil : Int(mood)
        }

        /// The entry's mood and local day (its number), if it is one of the period's.
        func moodAndDay(_ id: Int64) -> (mood: Int, day: Int)? {
            guard ids.contains(id) else { return nil }
            if moods.isEmpty { return scattered[id] }
            let index = Int(id - ids.lowerBound)
            let mood = moods[index]
            return mood < 0 ? nil : (Int(mood), Int(days[index]))
        }
    }

    func table() -> Table {
        // No entries: id 0, which no entry has (ids start at 1), and no mood for it.
        guard lowest <= highest else { return Table(ids: 0...0, moods: [-1], days: [0], scattered: [:]) }
        // Ids far apart (a file written by something else) go in a dictionary instead.
        guard highest - lowest < 8 * Int64(pairs.count) + 4_096 else {
            return Table(ids: lowest...highest, moods: [], days: [],
                         scattered: Dictionary(pairs.map { ($0.id, ($0.mood, $0.day)) }, uniquingKeysWith: { $1 }))
        }
        var moods = [Int8](repeating: -1, count: Int(highest - lowest) + 1)
        var days = [Int32](repeating: 0, count: moods.count)
        for (id, mood, day) in pairs {
            moods[Int(id - lowest)] = Int8(mood)
            days[Int(id - lowest)] = Int32(clamping: day)
        }
        return Table(ids: lowest...highest, moods: moods, days: days, scattered: [:])
    }
}

/// A time zone's offset from UTC at moments met in ascending order (the usual case, along the
/// date index), following its transitions without asking the time zone about every moment.
struct LocalClock {
    let zone: TimeZone
    /// The offset in force, and the moment (seconds since 1970) until which it holds.
    private var offset = 0
    private var validFrom = Int.max
    private var validUntil = Int.min

    init(zone: TimeZone) { self.zone = zone }

    mutating func offset(at seconds: Int) -> Int {
        if seconds >= validFrom && seconds < validUntil { return offset }
        let moment = Date(timeIntervalSince1970: TimeInterval(seconds))
        offset = zone.secondsFromGMT(for: moment)
        validFrom = seconds
        validUntil = zone.nextDaylightSavingTimeTransition(after: moment).map { Int($0.timeIntervalSince1970.rounded(.up)) }
            ?? seconds + 86_400 * 366
        return offset
    }

    /// Days from 1 January 1970 to the given date of the proleptic Gregorian calendar.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of day number `day` (see `dayNumber`).
    static func civil(day: Int) -> Insights.Day {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return Insights.Day(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }
}
