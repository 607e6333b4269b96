import Foundation

/// A version of an entry that lost a conflict (the same entry edited on two machines before
/// they synced), kept whole so that no edit is dropped: the entry's page offers it back.
public struct EarlierVersion: Sendable, Equatable, Identifiable {
    public let id: Int64
    public let entryUUID: String
    public let title: String
    public let body: String
    /// nil for a version without a mood.
    public let mood: Mood?
    public let createdAt: Date
    public let updatedAt: Date?
    /// Its tags, by name.
    public let tags: [String]
    /// Its values for measures, by the measures' uuids (empty for none, or kept before measures).
    public var measures: [String: Double] = [:]

    /// Whether `entry` (with its tags' names, and its values by the measures' uuids) already
    /// says what this version says. A version kept without values says nothing of them.
    public func isSame(as entry: Entry, tags names: [String], measures values: [String: Double] = [:]) -> Bool {
        title == entry.title && body == entry.body && mood == entry.mood && createdAt == entry.createdAt
            && Set(tags.map(TagName.key)) == Set(names.map(TagName.key)) && (measures.isEmpty || measures == values)
    }
}
