import Foundation

/// One saved journal entry.
public struct Entry: Sendable, Equatable, Identifiable {
    public let id: Int64
    public let title: String
    public let body: String
    /// How the person felt; nil for an entry that came without one (an import from a journal
    /// that has no moods). Never made up: "no mood" is a state of its own wherever it shows.
    public let mood: Mood?
    public let createdAt: Date
    /// Where the person was, when they chose to attach it (filled by the location feature).
    public let location: Location?
    /// A random identity that never changes, for export, import and sync between machines
    /// (lower-case UUID text).
    public let uuid: String
    /// When the entry was last edited; nil until it first is.
    public let updatedAt: Date?
    /// The tags it carries ("What did you do?"), by id.
    public internal(set) var tagIDs: Set<Int64>
    /// The photos it carries, in order.
    public internal(set) var photos: [EntryPhoto]
    /// Its values for the journal's measures, by measure id (a measure without one is absent).
    public internal(set) var measures: [Int64: Double]

    public init(id: Int64, title: String, body: String, mood: Mood?, createdAt: Date, location: Location? = nil,
                uuid: String = UUID().uuidString.lowercased(), updatedAt: Date? = nil, tagIDs: Set<Int64> = [],
                photos: [EntryPhoto] = [], measures: [Int64: Double] = [:]) {
        self.id = id
        self.title = title
        self.body = body
        self.mood = mood
        self.createdAt = createdAt
        self.location = location
        self.uuid = uuid
        self.updatedAt = updatedAt
        self.tagIDs = tagIDs
        self.photos = photos
        self.measures = measures
    }

    /// The same entry carrying `tags` instead.
    public func withTags(_ tags: Set<Int64>) -> Entry {
        var entry = self
        entry.tagIDs = tags
        return entry
    }
}
