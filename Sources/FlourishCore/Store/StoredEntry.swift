import Foundation
import GRDB

/// A row of `entry` that is there but cannot be shown as an entry (edited by hand outside
/// Flourish, or damaged): its id, and why, in the person's words.
public struct UnreadableEntry: Error, Sendable, Equatable {
    public let id: Int64
    public let reason: String

    public init(id: Int64, reason: String) {
        self.id = id
        self.reason = reason
    }
}

/// What one read of entries found: the ones that read as entries, and the rows that did not.
/// An id in neither is not in the journal (deleted meanwhile).
public struct EntryBatch: Sendable, Equatable {
    public var entries: [Entry]
    public var unreadable: [UnreadableEntry]

    public init(entries: [Entry] = [], unreadable: [UnreadableEntry] = []) {
        self.entries = entries
        self.unreadable = unreadable
    }
}

/// Reads a stored `entry` row strictly, column by column. SQLite keeps whatever a hand edit put
/// in a column, so every value is checked for its kind and range: a bad value makes that one
/// row unreadable (with the reason), never a wrong entry and never a failed batch.
enum StoredEntry {
    static func read(_ row: Row) -> Result<Entry, UnreadableEntry> {
        let id: Int64 = row["id"]
        func unreadable(_ reason: String) -> Result<Entry, UnreadableEntry> {
            .failure(UnreadableEntry(id: id, reason: reason))
        }
        guard case .string(let title) = storage(row, "title") else {
            return unreadable(tr("Its title is missing or is not text."))
        }
        guard case .string(let body) = storage(row, "body") else {
            return unreadable(tr("Its text is missing or is not text."))
        }
        let mood: Mood?
        switch storage(row, "mood") {
        case .null?:
            mood = nil // an entry that came without one
        case .int64(let moodIndex)? where Mood(rawValue: Int(clamping: moodIndex)).map { Int64($0.rawValue) == moodIndex } ?? false:
            mood = Mood(rawValue: Int(moodIndex))
        default:
            return unreadable(tr("Its mood is not one of Flourish’s six moods."))
        }
        guard let createdAt = StoredDate.parse(storage(row, "created_at")) else {
            return unreadable(tr("Its date is not a valid date."))
        }
        guard case .string(let uuid) = storage(row, "uuid"), !uuid.isEmpty else {
            return unreadable(tr("Its identity is missing."))
        }
        let updatedAt: Date?
        switch storage(row, "updated_at") {
        case .none, .null?:
            updatedAt = nil
        case let stored:
            guard let date = StoredDate.parse(stored) else {
                return unreadable(tr("The date of its last edit is not a valid date."))
            }
            updatedAt = date
        }
        let location: Location?
        switch (number(row, "latitude"), number(row, "longitude"), number(row, "accuracy")) {
        case (.absent, .absent, _):
            location = nil
        case let (.value(latitude), .value(longitude), accuracy)
            where (-90...90).contains(latitude) && (-180...180).contains(longitude):
            switch accuracy {
            case .absent: location = Location(latitude: latitude, longitude: longitude, accuracy: 0)
            case .value(let metres) where metres >= 0: location = Location(latitude: latitude, longitude: longitude, accuracy: metres)
            default: return unreadable(tr("Its place is not a valid location."))
            }
        default:
            return unreadable(tr("Its place is not a valid location."))
        }
        return .success(Entry(id: id, title: title, body: body, mood: mood, createdAt: createdAt,
                              location: location, uuid: uuid, updatedAt: updatedAt))
    }

    /// How SQLite stores the column's value; nil when the row has no such column.
    private static func storage(_ row: Row, _ column: String) -> DatabaseValue.Storage? {
        row.hasColumn(column) ? (row[column] as DatabaseValue).storage : nil
    }

    private enum Number: Equatable {
        case absent, value(Double), invalid
    }

    /// A REAL or INTEGER column; NULL is absent; text or a blob is invalid (never read as 0).
    private static func number(_ row: Row, _ column: String) -> Number {
        switch storage(row, column) {
        case .none, .null?: .absent
        case .int64(let value)?: .value(Double(value))
        case .double(let value)? where value.isFinite: .value(value)
        default: .invalid
        }
    }
}

/// The dates Flourish stores: text "YYYY-MM-DD HH:MM:SS.SSS" in UTC, as GRDB writes a `Date`.
/// Parsed strictly: "2024-13-45 99:99:99" is no date, where a lenient parser would roll it over
/// into a real one.
enum StoredDate {
    static func parse(_ value: DatabaseValue.Storage?) -> Date? {
        guard case .string(let text) = value else { return nil }
        let characters = Array(text.utf8)
        // YYYY-MM-DD, then " " or "T", HH:MM, then optional :SS and optional .fraction.
        guard (16...40).contains(characters.count),
              characters[4] == UInt8(ascii: "-"), characters[7] == UInt8(ascii: "-"),
              characters[10] == UInt8(ascii: " ") || characters[10] == UInt8(ascii: "T"),
              characters[13] == UInt8(ascii: ":") else { return nil }
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < characters.count, (48...57).contains(characters[index]) else { return nil }
                value = value * 10 + Int(characters[index] - 48)
            }
            return value
        }
        guard let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10),
              let hour = digits(11..<13), let minute = digits(14..<16) else { return nil }
        if characters.count > 16 {
            // :SS, then optionally a dot and at least one digit of a fraction.
            guard characters[16] == UInt8(ascii: ":"), let second = digits(17..<19), second <= 59 else { return nil }
            if characters.count > 19 {
                guard characters[19] == UInt8(ascii: "."), characters.count > 20,
                      characters[20...].allSatisfy({ (48...57).contains($0) }) else { return nil }
            }
        }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        // Checked: now GRDB reads it, exactly as it reads every date it wrote.
        return Date.fromDatabaseValue(text.databaseValue)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
