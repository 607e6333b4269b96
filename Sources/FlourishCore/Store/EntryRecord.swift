import Foundation
import GRDB

/// A new row of `entry`, as it is inserted; internal so that nothing outside the store sees SQL.
/// Rows are read back by `StoredEntry`, which checks every value a hand edit could have spoiled.
struct EntryRecord: Encodable, MutablePersistableRecord {
    static let databaseTableName = "entry"

    var id: Int64?
    var title: String
    var body: String
    var mood: Int?
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
        mood = entry.mood?.rawValue
        self.createdAt = createdAt
        latitude = entry.location?.latitude
        longitude = entry.location?.longitude
        accuracy = entry.location?.accuracy
        uuid = UUID().uuidString.lowercased()
    }
}
