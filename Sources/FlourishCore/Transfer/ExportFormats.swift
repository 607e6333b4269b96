import Foundation

/// What an export writes: everything as JSON (lossless, what Flourish imports again), a table
/// as CSV, or a readable Markdown document (one, or one a year).
public enum ExportFormat: String, CaseIterable, Sendable {
    case json
    case csv
    case markdown
    /// Markdown, one file a year, into a folder.
    case markdownByYear = "markdown-by-year"

    public var fileExtension: String {
        switch self {
        case .json: "json"
        case .csv: "csv"
        case .markdown, .markdownByYear: "md"
        }
    }
}

/// One entry as the JSON export writes it (see the README's "Export and import").
public struct ExportedEntry: Codable, Equatable, Sendable {
    public var uuid: String
    public var title: String
    public var body: String
    /// 0 (the best) to 5 (the worst), as the journal stores it.
    public var mood: Int
    public var moodTitle: String
    /// ISO 8601 in UTC, to the millisecond.
    public var createdAt: String
    /// Absent until the entry is first edited.
    public var updatedAt: String?
    public var tags: [String]
    public var location: Location?

    public struct Location: Codable, Equatable, Sendable {
        public var latitude: Double
        public var longitude: Double
        /// Metres.
        public var accuracy: Double
    }

    enum CodingKeys: String, CodingKey {
        case uuid, title, body, mood, tags, location
        case moodTitle = "mood_title"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ entry: Entry, tags: [String]) {
        uuid = entry.uuid
        title = entry.title
        body = entry.body
        mood = entry.mood.rawValue
        moodTitle = entry.mood.englishTitle
        createdAt = ExportedTime(entry.createdAt).iso8601
        updatedAt = entry.updatedAt.map { ExportedTime($0).iso8601 }
        self.tags = tags
        location = entry.location.map { Location(latitude: $0.latitude, longitude: $0.longitude, accuracy: $0.accuracy) }
    }
}

/// The JSON export's envelope: what it is, which version of the format, and what it holds.
public struct ExportDocument: Codable, Sendable {
    public static let formatName = "flourish-journal"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var exportedAt: String
    /// Every tag of the journal, with or without entries.
    public var tags: [String]
    public var entries: [ExportedEntry]

    enum CodingKeys: String, CodingKey {
        case format, version, tags, entries
        case exportedAt = "exported_at"
    }
}

extension Mood {
    /// The mood's name in English, whatever the language Flourish speaks: files are read by
    /// programs and by people of other languages.
    public var englishTitle: String {
        switch self {
        case .theBest: "the best"
        case .reallyGood: "really good"
        case .okay: "okay"
        case .meh: "meh"
        case .notSoGreat: "not so great"
        case .theWorst: "the worst"
        }
    }
}
