import Foundation
import GRDB

/// The store's search: the ids of the entries a query finds, through the full-text index.
extension JournalStore {
    /// The ids of the entries that match `query`, in no order: the journal model puts them in
    /// its own (it holds every id newest first), so no search sorts in SQL. A text-only query
    /// is answered by the index alone.
    public func matches(_ query: JournalQuery) throws(JournalError) -> [Int64] {
        try cautiously(query) { match throws(JournalError) in
            if let match, !query.filtersMood, query.tagIDs.isEmpty, query.from == nil, query.to == nil, query.measures.isEmpty {
                return try reading { db in
                    try Self.ids(db, sql: "SELECT rowid FROM entry_search WHERE entry_search MATCH ?", arguments: [match])
                }
            }
            if !query.measures.isEmpty, !query.filtersMood, query.tagIDs.isEmpty, query.from == nil, query.to == nil {
                // Values (and words) alone are answered by their indexes, never reading the
                // entries' rows: through the entries, "energy >= 4" read a fifth of a
                // 100,000-entry journal's rows one by one.
                var parts = match == nil ? [] : ["SELECT rowid FROM entry_search WHERE entry_search MATCH ?"]
                var arguments: StatementArguments = match.map { [$0] } ?? []
                for measure in query.measures {
                    parts.append("SELECT entry_id FROM entry_measure WHERE measure_id = ? AND value \(measure.comparison.sql) ?")
                    arguments += [measure.measureID, measure.value]
                }
                return try reading { db in try Self.ids(db, sql: parts.joined(separator: " INTERSECT "), arguments: arguments) }
            }
            let (filter, arguments) = Self.filter(query, match: match)
            return try reading { db in try Self.ids(db, sql: "SELECT id FROM entry \(filter)", arguments: arguments) }
        }
    }

    /// The ids of the entries that match `query`, newest first (the journal's own order).
    public func search(_ query: JournalQuery) throws(JournalError) -> [Int64] {
        try cautiously(query) { match throws(JournalError) in
            let (filter, arguments) = Self.filter(query, match: match)
            let sql = "SELECT id FROM entry \(filter) ORDER BY created_at DESC, id DESC"
            return try reading { db in try Int64.fetchAll(db, sql: sql, arguments: arguments) }
        }
    }

    /// Runs `find` with the query's words; if SQLite refuses them (a letter its tokenizer does
    /// not know split a word in two), once more with the words cut cautiously, and with no word
    /// left, nothing matches. A search is never an error because of what was typed.
    private func cautiously(_ query: JournalQuery, _ find: (String?) throws(JournalError) -> [Int64]) throws(JournalError) -> [Int64] {
        guard let match = query.matchExpression else { return try find(nil) }
        do {
            return try find(match)
        } catch .refusedSearch {
            guard let cautious = query.cautiousMatchExpression else { return [] }
            return try find(cautious)
        }
    }

    /// The WHERE clause for `query`, with its arguments ("" for the whole journal).
    private static func filter(_ query: JournalQuery, match: String?) -> (String, StatementArguments) {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let match {
            conditions.append("id IN (SELECT rowid FROM entry_search WHERE entry_search MATCH ?)")
            arguments += [match]
        }
        if query.filtersMood {
            let chosen = query.moods.isEmpty ? [] : ["mood IN (\(query.moods.map { String($0.rawValue) }.sorted().joined(separator: ",")))"]
            conditions.append("(" + (chosen + (query.withoutMood ? ["mood IS NULL"] : [])).joined(separator: " OR ") + ")")
        }
        if let from = query.from {
            conditions.append("created_at >= ?")
            arguments += [from]
        }
        if let to = query.to {
            conditions.append("created_at < ?")
            arguments += [to]
        }
        if !query.tagIDs.isEmpty {
            // Every chosen tag, not any of them.
            conditions.append("""
                (SELECT count(*) FROM entry_tag WHERE entry_tag.entry_id = entry.id
                 AND entry_tag.tag_id IN (\(query.tagIDs.map(String.init).sorted().joined(separator: ",")))) = \(query.tagIDs.count)
                """)
        }
        for measure in query.measures {
            // Through the index by measure and value: an entry without a value matches nothing.
            conditions.append("id IN (SELECT entry_id FROM entry_measure WHERE measure_id = ? AND value \(measure.comparison.sql) ?)")
            arguments += [measure.measureID, measure.value]
        }
        return (conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "), arguments)
    }
}
