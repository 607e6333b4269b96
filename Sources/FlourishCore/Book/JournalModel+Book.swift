import Foundation

/// A printed book of the journal: its plan is read in the background; its pages read entries
/// as a printer draws them, which GTK does on the main thread, a page at a time.
extension JournalModel {
    public func bookPlan(_ range: BookRange, calendar: Calendar = .current,
                         completion: @escaping @MainActor (Result<BookPlan, JournalError>) -> Void) {
        onQueue({ store throws(JournalError) in try store.bookPlan(range, calendar: calendar) }, completion: completion)
    }

    /// The store, for the pages of a book as they are drawn (see `bookPlan`).
    public var pageReader: any JournalStoring { store }
}
