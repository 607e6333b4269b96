import Foundation
import GRDB

/// The Insights page's figures, each from an SQL aggregation over the period's entries: SQLite
/// groups them by local day and hour (its `localtime` is the system's time zone, daylight saving
/// included), and Swift only adds the groups up.
extension JournalStore {
    public func insights(for period: InsightsPeriod, now: Date = Date(), calendar: Calendar = .current) throws(JournalError) -> Insights {
        let (from, to) = period.bounds(now: now, calendar: calendar)
        var conditions = ["typeof(entry.mood) = 'integer' AND entry.mood BETWEEN 0 AND 5"]
        var arguments: StatementArguments = []
        if let from {
            conditions.append("entry.created_at >= ?")
            arguments += [from]
        }
        if let to {
            conditions.append("entry.created_at < ?")
            arguments += [to]
        }
        let period = "WHERE " + conditions.joined(separator: " AND ")
        return try reading { db in
            var insights = Insights(days: [], moodCounts: Array(repeating: 0, count: 6),
                                    weekdays: Array(repeating: MoodAverage(), count: 7),
                                    timesOfDay: Array(repeating: MoodAverage(), count: TimeOfDay.allCases.count),
                                    tags: [], tagsByMood: Array(repeating: [], count: 6),
                                    streaks: .init(current: 0, longest: 0))
            // One row per local day and hour: days, weekdays and times of day from the same groups.
            let slots = try Row.fetchCursor(db, sql: """
                SELECT strftime('%Y-%m-%d %H %w', created_at, 'localtime') AS slot, count(*) AS entries,
                       sum(5 - mood) AS scores
                FROM entry \(period) GROUP BY slot HAVING slot IS NOT NULL ORDER BY slot
                """, arguments: arguments)
            var days: [(day: Insights.Day, mood: MoodAverage)] = []
            while let row = try slots.next() {
                let slot: String = row["slot"]
                let parts = slot.split(whereSeparator: { $0 == "-" || $0 == " " }).compactMap { Int($0) }
                guard parts.count == 5 else { continue }
                let group = MoodAverage(count: row["entries"], total: row["scores"])
                let day = Insights.Day(year: parts[0], month: parts[1], day: parts[2])
                if days.last?.day == day { days[days.count - 1].mood = days[days.count - 1].mood + group } else { days.append((day, group)) }
                // %w counts from Sunday (0); the page's weekdays start on Monday.
                insights.weekdays[(parts[4] + 6) % 7] = insights.weekdays[(parts[4] + 6) % 7] + group
                let time = TimeOfDay(hour: parts[3]).rawValue
                insights.timesOfDay[time] = insights.timesOfDay[time] + group
            }
            insights.days = days
            for row in try Row.fetchAll(db, sql: "SELECT mood, count(*) AS entries FROM entry \(period) GROUP BY mood",
                                        arguments: arguments) {
                insights.moodCounts[row["mood"] as Int] = row["entries"]
            }

            let everything = insights.total
            let tagged = try Row.fetchAll(db, sql: """
                SELECT tag.id, tag.name, count(*) AS entries, sum(5 - entry.mood) AS scores
                FROM entry_tag JOIN entry ON entry.id = entry_tag.entry_id JOIN tag ON tag.id = entry_tag.tag_id
                \(period) GROUP BY tag.id HAVING count(*) >= ?
                """, arguments: arguments + [Insights.minimumTagEntries])
            insights.tags = tagged.map { row in
                let with = MoodAverage(count: row["entries"], total: row["scores"])
                return Insights.TagMood(tag: Tag(id: row["id"], name: row["name"], entryCount: row["entries"]),
                                        with: with, without: everything - with)
            }.sorted { ($0.difference ?? 0, $1.tag.name) > ($1.difference ?? 0, $0.tag.name) }

            let byMood = try Row.fetchAll(db, sql: """
                SELECT entry.mood, tag.id, tag.name, count(*) AS entries
                FROM entry_tag JOIN entry ON entry.id = entry_tag.entry_id JOIN tag ON tag.id = entry_tag.tag_id
                \(period) GROUP BY entry.mood, tag.id ORDER BY entry.mood, entries DESC, tag.key
                """, arguments: arguments)
            for row in byMood {
                let mood: Int = row["mood"]
                guard insights.tagsByMood[mood].count < Insights.tagsPerMood else { continue }
                insights.tagsByMood[mood].append((Tag(id: row["id"], name: row["name"]), row["entries"]))
            }

            let written = try String.fetchAll(db, sql: """
                SELECT DISTINCT date(created_at, 'localtime') AS day FROM entry WHERE day IS NOT NULL ORDER BY day
                """)
            insights.streaks = Self.streaks(days: written, today: now, calendar: calendar)
            return insights
        }
    }

    /// Runs of consecutive days among `days` ("YYYY-MM-DD", ascending, distinct).
    static func streaks(days: [String], today: Date, calendar: Calendar) -> Insights.Streaks {
        let numbers = days.compactMap { text -> Int? in
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3,
                  let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)) else { return nil }
            return dayNumber(date, calendar)
        }
        var longest = 0, run = 0, previous: Int?
        for number in numbers {
            run = previous.map { number == $0 + 1 ? run + 1 : 1 } ?? 1
            longest = max(longest, run)
            previous = number
        }
        let todayNumber = dayNumber(today, calendar)
        let current = previous.map { $0 == todayNumber || $0 == todayNumber - 1 ? run : 0 } ?? 0
        return .init(current: current, longest: longest)
    }

    /// Days since a fixed day, counted on the calendar (so a daylight saving change is one day).
    private static func dayNumber(_ date: Date, _ calendar: Calendar) -> Int {
        let start = calendar.date(from: DateComponents(year: 2000, month: 1, day: 1, hour: 12))!
        return calendar.dateComponents([.day], from: start, to: calendar.startOfDay(for: date).addingTimeInterval(12 * 3600)).day ?? 0
    }
}
