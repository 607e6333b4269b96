import Foundation
import GRDB

/// The row mapping of `entry`; internal so that nothing outside the store sees SQL.
struct EntryRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "entry"

    var id: Int64?
    var title: String
    var body: String
    var mood: Int
    var createdAt: Date
    var latitude: Double?
    var longitude: Double?
    var accuracy: Double?
    var uuid: String
    var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, title, body, mood, latitude, longitude, accuracy, uuid
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ entry: NewEntry, createdAt: Date) {
        title = entry.title
        body = entry.body
        mood = entry.mood.rawValue
        self.createdAt = createdAt
        latitude = entry.location?.latitude
        longitude = entry.location?.longitude
        accuracy = entry.location?.accuracy
        uuid = UUID().uuidString.lowercased()
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The model value; nil for a row whose mood is outside the scale (only possible by hand-editing,
    /// since the schema checks it), which the journal then skips rather than guessing a mood.
    var entry: Entry? {
        guard let id, let mood = Mood(rawValue: mood) else { return nil }
        let location: Location? = if let latitude, let longitude {
            Location(latitude: latitude, longitude: longitude, accuracy: accuracy ?? 0)
        } else {
            nil
        }
        return Entry(id: id, title: title, body: body, mood: mood, createdAt: createdAt, location: location,
                     uuid: uuid, updatedAt: updatedAt)
    }
}
