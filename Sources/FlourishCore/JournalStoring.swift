import Foundation

/// What the journal model needs of a store. `JournalStore` is the real one; tests wrap it to
/// inject faults. Every method may block on disk, so callers run them off the GTK thread.
public protocol JournalStoring: Sendable {
    /// Saves a complete entry, stamped `createdAt`, and returns it with its id.
    func save(_ entry: NewEntry, createdAt: Date) throws(JournalError) -> Entry
    /// Every entry's id, newest first: cheap even for years of entries.
    func entryIDs() throws(JournalError) -> [Int64]
    /// The entries with these ids, in no particular order.
    func entries(ids: [Int64]) throws(JournalError) -> [Entry]
}
