import Foundation
import GRDB
import GRDBSQLite

/// The words written in one month: what Insights' "Words written" shows a line of.
public struct MonthWords: Sendable, Equatable {
    public let year: Int
    public let month: Int
    public let words: Int

    public init(year: Int, month: Int, words: Int) {
        self.year = year
        self.month = month
        self.words = words
    }
}

extension JournalStore {
    /// The words the bodies of `period`'s entries hold (counted as the form counts them), by the
    /// local month they were written in: every month of the period in order, those without a
    /// word too, from its first month (the journal's first, over all of it) to its last (this
    /// one, for a period that runs to now). Read in one pass along the date index.
    public func wordsByMonth(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> [MonthWords] {
        let (from, to) = period.bounds(now: now, calendar: calendar)
        let filter = DateFilter(from: from, to: to)
        let zone = calendar.timeZone
        let totals: [Int: Int] = try reading { db in
            var clock = LocalClock(zone: zone)
            var totals: [Int: Int] = [:]
            try Self.step(db, sql: "SELECT created_at, body FROM entry WHERE \(filter.condition) ORDER BY created_at",
                          arguments: filter.arguments) { row in
                guard let seconds = Self.utcSeconds(row, column: 0) else { return }
                let local = seconds + clock.offset(at: seconds)
                let day = Insights.Day(number: Int((Double(local) / 86_400).rounded(.down)))
                let body = sqlite3_column_text(row, 1).map { String(cString: $0) } ?? ""
                totals[day.year * 12 + day.month - 1, default: 0] += WordCount.of(body)
            }
            return totals
        }
        func key(_ date: Date) -> Int {
            let parts = calendar.dateComponents([.year, .month], from: date)
            return (parts.year ?? 1970) * 12 + (parts.month ?? 1) - 1
        }
        // The period's last month: the one before its end (which is the first moment after it).
        let last = to.map { key($0.addingTimeInterval(-1)) } ?? max(key(now), totals.keys.max() ?? key(now))
        guard let first = from.map(key) ?? totals.keys.min(), first <= last else { return [] }
        return (first...last).map { MonthWords(year: $0 / 12, month: $0 % 12 + 1, words: totals[$0] ?? 0) }
    }
}
