import Foundation

/// Search as the person types: each change of the query asks the store for the matching ids (on
/// a queue of its own, so neither the window nor the rows' reads wait), and the answer comes
/// back in the journal's own order, newest first, taken from the ids the model holds.
extension JournalModel {
    /// Finds the entries matching `query`; `completion` runs on the main queue with their ids,
    /// newest first, unless a newer search was started meanwhile (typing on makes the earlier
    /// answers moot, and they are dropped).
    public func search(_ query: JournalQuery, completion: @escaping @MainActor (Result<[Int64], JournalError>) -> Void) {
        searchGeneration += 1
        let generation = searchGeneration
        let (store, order) = (self.store, ids)
        searching.async {
            let result = Result { () throws(JournalError) in
                try JournalQuery.inOrder(try store.matches(query), of: order)
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard generation == self.searchGeneration else { return }
                    completion(result)
                }
            }
        }
    }
}
