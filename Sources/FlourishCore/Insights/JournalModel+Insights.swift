import Foundation

/// The Insights page's figures, computed on the search's queue (apart from the rows' reads and
/// the saves), the latest asked for delivered on the main queue.
extension JournalModel {
    public func insights(for period: InsightsPeriod, completion: @escaping @MainActor (Result<Insights, JournalError>) -> Void) {
        let (store, now) = (self.store, clock())
        searching.async {
            let result = Result { () throws(JournalError) in try store.insights(for: period, now: now, calendar: .current) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    /// Each measure over `period` (see `JournalStore.measureInsights`), on the same queue, after
    /// the figures asked for before it.
    public func measureInsights(for period: InsightsPeriod, completion: @escaping @MainActor (Result<[MeasureInsight], JournalError>) -> Void) {
        let (store, now) = (self.store, clock())
        searching.async {
            let result = Result { () throws(JournalError) in try store.measureInsights(for: period, now: now, calendar: .current) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    /// The words written in each month of `period` (see `JournalStore.wordsByMonth`), on the same
    /// queue, after the figures asked for before it.
    public func wordsByMonth(for period: InsightsPeriod, completion: @escaping @MainActor (Result<[MonthWords], JournalError>) -> Void) {
        let (store, now) = (self.store, clock())
        searching.async {
            let result = Result { () throws(JournalError) in try store.wordsByMonth(for: period, now: now, calendar: .current) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }
}
