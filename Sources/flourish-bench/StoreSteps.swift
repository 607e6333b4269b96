import FlourishCore
import Foundation

/// The store's steps as the app takes them, each timed the same way wherever the bench runs
/// it: on one journal (`flourish-bench store`), or on a plain and a locked one in turn
/// (`flourish-bench locked`).
enum StoreSteps {
    /// Rows the list reads at a time as it scrolls (`JournalModel.fetchWindow`).
    static let scrollBatch = 60
    /// Typed a keystroke at a time; the last matches nothing.
    static let searchPhrases = ["walk", "coffee", "rain garden", "mum called", "zebra"]

    /// What the app reads as its window opens, once the store is open: the tags, for the form.
    static func opening(_ store: JournalStore) throws {
        _ = try store.tags(counted: false)
    }

    /// What the app reads before its list can show: the ids and the newest rows, as
    /// `JournalModel.load()` reads them. Returns the ids.
    static func firstPage(_ store: JournalStore) throws -> [Int64] {
        let ids = try store.entryIDs()
        if !ids.isEmpty { _ = try store.read(ids: Array(ids.prefix(JournalModel.openingEntries))) }
        return ids
    }

    /// `count` batches of rows from places spread over the journal, as a long scroll reads them.
    static func scroll(_ store: JournalStore, ids: [Int64], count: Int = 100) throws -> [Double] {
        guard !ids.isEmpty else { return [] }
        return try (0..<count).map { trial in
            let start = (trial &* 7919) % max(1, ids.count - scrollBatch)
            let batch = Array(ids[start..<min(ids.count, start + scrollBatch)])
            return try milliseconds { _ = try store.entries(ids: batch) }
        }
    }

    /// Search as the person types it, a keystroke at a time: the store's matches, then the
    /// model's ordering of them by the ids it holds (the model's own two steps).
    static func search(_ store: JournalStore, ids: [Int64]) throws -> [Double] {
        var times: [Double] = []
        for phrase in searchPhrases {
            for end in phrase.indices.dropFirst() + [phrase.endIndex] {
                let query = JournalQuery(text: String(phrase[..<end]))
                times.append(try milliseconds { _ = JournalQuery.inOrder(try store.matches(query), of: ids) })
            }
        }
        return times
    }

    /// "sleep < 6" and the like, typed whole into the search bar (the sample's three measures):
    /// each `rounds` times, as the store answers and the model orders the answer.
    static func measureSearch(_ store: JournalStore, ids: [Int64], rounds: Int = 5) throws -> [Double] {
        let measures = try store.measures()
        guard !measures.isEmpty else { return [] }
        var times: [Double] = []
        for text in ["sleep < 6", "energy >= 4", "steps > 12000 walk"] {
            let (words, conditions) = MeasureCondition.extract(from: text, measures: measures)
            var query = JournalQuery(text: words)
            query.measures = conditions
            for _ in 0..<rounds { times.append(try milliseconds { _ = JournalQuery.inOrder(try store.matches(query), of: ids) }) }
        }
        return times
    }

    /// The Insights page's measures for everything, asked for after its other figures, `rounds` times.
    static func measureInsights(_ store: JournalStore, rounds: Int = 5) throws -> [Double] {
        try (0..<rounds).map { _ in try milliseconds { _ = try store.measureInsights(for: .all) } }
    }

    /// "On this day" as the Journal page looks it up, for `count` days spread over a year: a
    /// look-up a year back to the oldest entry (two centuries, in the sample of 100,000).
    static func memories(_ store: JournalStore, count: Int = 24) throws -> [Double] {
        // 1 November 2026, the sample's newest day, then back a fortnight at a time.
        let newest = Date(timeIntervalSince1970: 1_793_566_800)
        return try (0..<count).map { trial in
            try milliseconds { _ = try store.memories(on: newest.addingTimeInterval(-Double(trial) * 14 * 86_400), calendar: .current) }
        }
    }

    /// The Insights page's figures, `rounds` times each: everything, and the latest year. Before
    /// the health check the store cannot tell the journal's version, so it keeps nothing: each
    /// of these is computed in full.
    static func insights(_ store: JournalStore, rounds: Int = 5) throws -> (all: [Double], year: [Double]) {
        var all: [Double] = [], year: [Double] = []
        for _ in 0..<rounds {
            all.append(try milliseconds { _ = try store.insights(for: .all) })
            year.append(try milliseconds { _ = try store.insights(for: .last12Months) })
        }
        return (all, year)
    }

    /// `count` saves of a short entry, as the form saves them (each a FULL-synced transaction).
    static func save(_ store: JournalStore, count: Int) throws -> [Double] {
        try (0..<count).map { index in
            let entry = try EntryDraft(title: "Saved \(index)", body: "A few words, saved as the form saves them.",
                                       mood: Mood(rawValue: index % 6)).validated().get()
            return try milliseconds { _ = try store.save(entry, createdAt: Date()) }
        }
    }
}
