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

/// Turns entries into the text of each format, a piece at a time (an export of 100,000 entries
/// is written as it is read, never held whole).
struct ExportText {
    let format: ExportFormat
    let calendar: Calendar
    let tagNames: [String]
    let exportedAt: Date
    /// "Saturday 21 November 2026", made once (a formatter a day cost seconds over decades).
    private let dayFormatter: DateFormatter

    init(format: ExportFormat, calendar: Calendar, tagNames: [String], exportedAt: Date) {
        self.format = format
        self.calendar = calendar
        self.tagNames = tagNames
        self.exportedAt = exportedAt
        dayFormatter = DateFormatter()
        dayFormatter.calendar = calendar
        dayFormatter.timeZone = calendar.timeZone
        dayFormatter.locale = Locale(identifier: "en_US_POSIX")
        dayFormatter.dateFormat = "EEEE d MMMM yyyy"
    }

    static let csvHeader = ["date", "time", "weekday", "mood", "mood title", "tags", "title", "body", "latitude", "longitude"]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// What comes before the first entry.
    func header(title: String = "Flourish journal") -> String {
        switch format {
        case .json:
            let tags = (try? String(decoding: Self.encoder.encode(tagNames), as: UTF8.self)) ?? "[]"
            return "{\n  \"format\": \"\(ExportDocument.formatName)\",\n  \"version\": \(ExportDocument.currentVersion),\n"
                + "  \"exported_at\": \"\(ExportedTime(exportedAt).iso8601)\",\n  \"tags\": \(tags),\n  \"entries\": [\n"
        case .csv:
            return CSV.record(Self.csvHeader)
        case .markdown, .markdownByYear:
            return "# \(title)\n"
        }
    }

    /// Where an entry falls on the person's clock: its local date and time, worked out once an
    /// entry (every format and the files by year read it).
    struct LocalTime {
        let day: Insights.Day
        let components: DateComponents
    }

    func localTime(of entry: Entry) -> LocalTime {
        let local = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: entry.createdAt)
        return LocalTime(day: Insights.Day(year: local.year ?? 1970, month: local.month ?? 1, day: local.day ?? 1), components: local)
    }

    /// One entry, oldest first, at `time` (`localTime(of:)`); `first` says whether it is the
    /// first, `previousDay` the local day of the one before it (Markdown heads each day once).
    func entry(_ entry: Entry, at time: LocalTime, tags: [String], first: Bool, previousDay: Insights.Day?) throws -> String {
        let (local, day) = (time.components, time.day)
        let time = String(format: "%02d:%02d", local.hour ?? 0, local.minute ?? 0)
        switch format {
        case .json:
            let text = String(decoding: try Self.encoder.encode(ExportedEntry(entry, tags: tags)), as: UTF8.self)
            return (first ? "    " : ",\n    ") + text
        case .csv:
            return CSV.record([
                String(format: "%04d-%02d-%02d", day.year, day.month, day.day), time, Self.weekdays[((local.weekday ?? 1) - 1) % 7],
                "\(entry.mood.rawValue)", entry.mood.englishTitle, tags.joined(separator: " | "), entry.title, entry.body,
                entry.location.map { "\($0.latitude)" } ?? "", entry.location.map { "\($0.longitude)" } ?? "",
            ])
        case .markdown, .markdownByYear:
            var text = ""
            if day != previousDay, let date = day.start(in: calendar) {
                text += "\n## \(dayFormatter.string(from: date))\n"
            }
            text += "\n### \(time) · \(entry.mood.englishTitle)" + (tags.isEmpty ? "" : " · " + tags.joined(separator: ", ")) + "\n"
            if !entry.title.isEmpty { text += "\n**\(entry.title)**\n" }
            if !entry.body.isEmpty { text += "\n\(entry.body)\n" }
            return text
        }
    }

    /// What comes after the last entry.
    var footer: String {
        switch format {
        case .json: "\n  ]\n}\n"
        case .csv, .markdown, .markdownByYear: ""
        }
    }
}
