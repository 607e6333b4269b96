import Foundation

extension JournalModel {
    /// Today's memories (see `JournalStore.memories`), read in the background, today being the
    /// model's clock's day in `calendar`.
    public func memories(calendar: Calendar = .current, completion: @escaping @MainActor (Result<[Memory], JournalError>) -> Void) {
        let (store, today) = (self.store, clock())
        searching.async {
            let result = Result { () throws(JournalError) in try store.memories(on: today, calendar: calendar) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    /// The model's today, for what is said about it ("dismissed for the day").
    public var today: Date { clock() }
}
