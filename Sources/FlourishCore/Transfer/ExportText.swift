import Foundation

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
