import Foundation
import GRDB
import GRDBSQLite

/// Which entries a printed book or PDF holds: the whole journal, a year, a run of days, or the
/// entries the journal's search shows (its words and filters as they are).
public enum BookRange: Sendable, Equatable {
    case whole
    case year(Int)
    /// From the first day to the last, both included, in the person's time zone; an absent
    /// bound is the journal's start or end.
    case days(from: Insights.Day?, to: Insights.Day?)
    case search(JournalQuery)

    /// The range as the journal's search asks for it.
    public func query(calendar: Calendar = .current) -> JournalQuery {
        switch self {
        case .whole:
            return JournalQuery()
        case .year(let year):
            return Self.days(from: Insights.Day(year: year, month: 1, day: 1), to: Insights.Day(year: year, month: 12, day: 31), calendar: calendar)
        case let .days(from, to):
            return Self.days(from: from, to: to, calendar: calendar)
        case .search(let query):
            return query
        }
    }

    private static func days(from: Insights.Day?, to: Insights.Day?, calendar: Calendar) -> JournalQuery {
        JournalQuery(from: from?.start(in: calendar), to: to.flatMap { Insights.Day(number: $0.number + 1).start(in: calendar) })
    }

    /// What the cover says of the range: "2024", "1 March 2024 – 31 May 2024", "The whole
    /// journal", "Entries found by a search".
    public func words(calendar: Calendar = .current) -> String {
        switch self {
        case .whole: return tr("The whole journal")
        case .year(let year): return "\(year)"
        case let .days(from, to):
            let format = DateFormatter()
            format.calendar = calendar
            format.timeZone = calendar.timeZone
            format.dateStyle = .long
            format.timeStyle = .none
            let start = from?.start(in: calendar).map(format.string(from:)), end = to?.start(in: calendar).map(format.string(from:))
            switch (start, end) {
            case let (start?, end?): return start == end ? start : "\(start) – \(end)"
            case let (start?, nil): return String(format: tr("From %@"), start)
            case let (nil, end?): return String(format: tr("Until %@"), end)
            case (nil, nil): return tr("The whole journal")
            }
        case .search: return tr("Entries found by a search")
        }
    }
}

/// What a book holds before any page is laid out: its entries' ids, oldest first, and each
/// day's moods for the cover's years in pixels.
public struct BookPlan: Sendable, Equatable {
    public let ids: [Int64]
    /// The day of each of them, in the same order.
    public let days: [Insights.Day]
    /// The average mood of each day with an entry that has one.
    public let moods: [Insights.Day: Mood]
    /// Days whose entries all came without a mood.
    public let daysWithoutMood: Set<Insights.Day>

    /// The years the entries span, oldest first.
    public var years: [Int] { Set(moods.keys.map(\.year)).union(daysWithoutMood.map(\.year)).sorted() }
}

extension JournalStore {
    /// The entries `range` holds, oldest first, with their days' moods.
    public func bookPlan(_ range: BookRange, calendar: Calendar = .current) throws(JournalError) -> BookPlan {
        let ids = Array(try search(range.query(calendar: calendar)).reversed())
        var averages: [Insights.Day: MoodAverage] = [:]
        var written: Set<Insights.Day> = []
        var dayOf: [Int64: Insights.Day] = [:]
        for start in stride(from: 0, to: ids.count, by: Self.exportBatch) {
            let batch = ids[start..<min(ids.count, start + Self.exportBatch)]
            try reading { db in
                try Self.step(db, sql: "SELECT created_at, mood, id FROM entry WHERE id IN (\(batch.map(String.init).joined(separator: ",")))") { row in
                    guard let text = sqlite3_column_text(row, 0),
                          let date = StoredDate.parse(.string(String(cString: text))) else { return }
                    let day = Insights.Day(date, in: calendar)
                    written.insert(day)
                    dayOf[sqlite3_column_int64(row, 2)] = day
                    if sqlite3_column_type(row, 1) != SQLITE_NULL, let mood = Mood(rawValue: Int(sqlite3_column_int64(row, 1))) {
                        averages[day, default: MoodAverage()] = averages[day, default: MoodAverage()] + MoodAverage(count: 1, total: mood.score)
                    }
                }
            }
        }
        let moods = averages.compactMapValues(\.mood)
        // An entry deleted meanwhile has no day: it is left out of the book.
        let kept = ids.filter { dayOf[$0] != nil }
        return BookPlan(ids: kept, days: kept.map { dayOf[$0]! }, moods: moods, daysWithoutMood: written.subtracting(moods.keys))
    }
}
