import Foundation
import GRDB

/// "On this day": what was written on today's date in earlier years.
extension JournalStore {
    /// One memory for each earlier year with an entry on `today`'s date (see `MemoryDays`),
    /// the most recent year first. A look-up through the date index for each year back to the
    /// oldest entry's: a few dozen at most, however large the journal.
    public func memories(on today: Date, calendar: Calendar) throws(JournalError) -> [Memory] {
        let found = try reading { db in try Self.memoryIDs(db, on: today, calendar: calendar) }
        guard !found.isEmpty else { return [] }
        let entries = Dictionary(try read(ids: found.map(\.id)).entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return found.compactMap { yearsAgo, id in entries[id].map { Memory(yearsAgo: yearsAgo, entry: $0) } }
    }

    /// The id of each earlier year's earliest entry on `today`'s date, the most recent year
    /// first: the memories' look-up, shared with the reminder's read-only one.
    static func memoryIDs(_ db: Database, on today: Date, calendar: Calendar) throws -> [(yearsAgo: Int, id: Int64)] {
        guard let oldest = try String.fetchOne(db, sql: "SELECT min(created_at) FROM entry") else { return [] }
        // The stored text is UTC and sorts as time does (see `ExportedTime.stored`); a year
        // more than its year allows for a local new year that was still the old one in UTC.
        let oldestYear = Int(oldest.prefix(4)) ?? 0
        let thisDay = Insights.Day(today, in: calendar)
        guard oldestYear > 0, oldestYear < thisDay.year + 1 else { return [] }
        var found: [(yearsAgo: Int, id: Int64)] = []
        for yearsAgo in 1...(thisDay.year - oldestYear + 1) {
            // A year without today's date (29 February) has nothing to remember.
            guard let day = MemoryDays.day(yearsAgo, before: thisDay, calendar: calendar) else { continue }
            let id = try Int64.fetchOne(db, sql: """
                SELECT id FROM entry WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id LIMIT 1
                """, arguments: [ExportedTime(day.start).stored, ExportedTime(day.end).stored])
            if let id { found.append((yearsAgo, id)) }
        }
        return found
    }
}
