import Foundation

/// One saved journal entry.
public struct Entry: Sendable, Equatable, Identifiable {
    public let id: Int64
    public let title: String
    public let body: String
    public let mood: Mood
    public let createdAt: Date
    /// Where the person was, when they chose to attach it (filled by the location feature).
    public let location: Location?

    public init(id: Int64, title: String, body: String, mood: Mood, createdAt: Date, location: Location? = nil) {
        self.id = id
        self.title = title
        self.body = body
        self.mood = mood
        self.createdAt = createdAt
        self.location = location
    }
}

/// A position on Earth with its accuracy radius in metres.
public struct Location: Sendable, Equatable {
    public let latitude: Double
    public let longitude: Double
    public let accuracy: Double

    public init(latitude: Double, longitude: Double, accuracy: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }
}
