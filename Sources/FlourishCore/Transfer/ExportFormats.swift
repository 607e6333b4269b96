import Foundation

/// What an export writes: everything as JSON (lossless, what Flourish imports again; the photos
/// named, not included), everything with the photos as a ZIP file, a table as CSV, or a readable
/// Markdown document (one, or one a year) with its photos beside it.
public enum ExportFormat: String, CaseIterable, Sendable {
    case json
    /// `journal.json` and `photos/` in a ZIP file (see `ZIPExport`).
    case zip
    case csv
    /// One file, its photos in a folder beside it named after it ("journal-photos/").
    case markdown
    /// Markdown, one file a year, into a folder, their photos in its "photos/".
    case markdownByYear = "markdown-by-year"

    public var fileExtension: String {
        switch self {
        case .json: "json"
        case .zip: "zip"
        case .csv: "csv"
        case .markdown, .markdownByYear: "md"
        }
    }

    /// Whether the photos' originals are written with the text (otherwise they are only named,
    /// or, in CSV, left out).
    public var includesPhotos: Bool {
        switch self {
        case .zip, .markdown, .markdownByYear: true
        case .json, .csv: false
        }
    }
}

/// One entry as the JSON export writes it (see docs/data.md, "Export and import formats").
public struct ExportedEntry: Codable, Equatable, Sendable {
    public var uuid: String
    public var title: String
    public var body: String
    /// 0 (the best) to 5 (the worst), as the journal stores it; null for an entry without a
    /// mood (written as null, never left out, so a reader sees the state for what it is).
    public var mood: Int?
    public var moodTitle: String?
    /// ISO 8601 in UTC, to the millisecond.
    public var createdAt: String
    /// Absent until the entry is first edited.
    public var updatedAt: String?
    public var tags: [String]
    public var location: Location?
    /// The photos it carries, in order; absent when it has none.
    public var photos: [Photo]?
    /// Its values, by measure name (as listed at the top); absent when it gave none.
    public var measures: [String: Double]?

    public struct Location: Codable, Equatable, Sendable {
        public var latitude: Double
        public var longitude: Double
        /// Metres.
        public var accuracy: Double
    }

    /// A photo of the entry: where it is in the ZIP export ("photos/IMG_2041.jpg", unique in
    /// the export: another photo of the same name has part of its id before it), and the name
    /// the entry gives it ("IMG_2041.jpg").
    public struct Photo: Codable, Equatable, Sendable {
        public var file: String
        public var name: String

        public init(file: String, name: String) {
            self.file = file
            self.name = name
        }
    }

    enum CodingKeys: String, CodingKey {
        case uuid, title, body, mood, tags, location, photos, measures
        case moodTitle = "mood_title"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(_ entry: Entry, tags: [String], photos: [Photo] = [], measures: [String: Double] = [:]) {
        uuid = entry.uuid
        title = entry.title
        body = entry.body
        mood = entry.mood?.rawValue
        moodTitle = entry.mood?.englishTitle
        createdAt = ExportedTime(entry.createdAt).iso8601
        updatedAt = entry.updatedAt.map { ExportedTime($0).iso8601 }
        self.tags = tags
        location = entry.location.map { Location(latitude: $0.latitude, longitude: $0.longitude, accuracy: $0.accuracy) }
        self.photos = photos.isEmpty ? nil : photos
        self.measures = measures.isEmpty ? nil : measures
    }

    /// As the synthesized encoding, but the mood and its title written even when null.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uuid, forKey: .uuid)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(mood, forKey: .mood)
        try container.encode(moodTitle, forKey: .moodTitle)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
        try container.encode(tags, forKey: .tags)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encodeIfPresent(photos, forKey: .photos)
        try container.encodeIfPresent(measures, forKey: .measures)
    }
}

/// The JSON export's envelope: what it is, which version of the format, and what it holds.
public struct ExportDocument: Codable, Sendable {
    public static let formatName = "flourish-journal"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var exportedAt: String
    /// Where the photos the entries name are: present only when some entry has photos. In
    /// English, as the rest of the file: it is read by programs and people of any language.
    public var photosNote: String?
    /// Every tag of the journal, with or without entries.
    public var tags: [String]
    /// Every measure of the journal, in its order; absent when it has none.
    public var measures: [ExportedMeasure]?
    /// Every template of the journal, in its order; absent when it has none.
    public var templates: [ExportedTemplate]?
    public var entries: [ExportedEntry]

    enum CodingKeys: String, CodingKey {
        case format, version, tags, measures, templates, entries
        case exportedAt = "exported_at"
        case photosNote = "photos_note"
    }

    /// The note of a JSON export, whose photos are named but not in it.
    public static let photosNotIncluded = "The photos each entry names are not in this file: "
        + "export as ZIP (flourish --export zip PATH, or Export… › Everything, with photos) to have them."
    /// The note of the ZIP export's journal.json.
    public static let photosBeside = "The photos each entry names are in the photos folder of this ZIP file, as they were added."
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
