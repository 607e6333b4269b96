import GRDB

/// What a delete took out of the journal: the entry, and its row exactly as it was stored, so
/// that undo puts back the same bytes (same id, uuid, text, mood, times and location) rather
/// than a re-encoding of them.
public struct DeletedEntry: Sendable, Equatable {
    public let entry: Entry
    /// Every column of the row as SQLite stored it, by column name.
    let storedRow: [String: DatabaseValue]
    /// The tags it carried, put back with it (those that still exist).
    var tagIDs: Set<Int64> = []
    /// The photos it carried, put back with it: their files stay while the Undo can bring them
    /// back (unused photos are let go only at the next start).
    var photos: [EntryPhoto] = []
    /// Its values for the measures, put back with it (for the measures that still exist).
    var measures: [Int64: Double] = [:]
}
