import Foundation

/// Turns entries into the text of each format, a piece at a time (an export of 100,000 entries
/// is written as it is read, never held whole).
struct ExportText {
    let format: ExportFormat
    let calendar: Calendar
    let tagNames: [String]
    /// The journal's measures, in its order: listed at the top (JSON), a column each (CSV).
    let measures: [Measure]
    /// The journal's templates, in its order: listed after the measures (JSON only).
    var templates: [EntryTemplate] = []
    let exportedAt: Date
    /// "Saturday 21 November 2026", made once (a formatter a day cost seconds over decades).
    private let dayFormatter: DateFormatter

    init(format: ExportFormat, calendar: Calendar, tagNames: [String], measures: [Measure] = [], exportedAt: Date) {
        self.format = format
        self.calendar = calendar
        self.tagNames = tagNames
        self.measures = measures
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

    /// What comes before the first entry; `photosNote` says where the photos are (JSON only).
    func header(title: String = "Flourish journal", photosNote: String? = nil) -> String {
        switch format {
        case .json, .zip:
            let tags = (try? String(decoding: Self.encoder.encode(tagNames), as: UTF8.self)) ?? "[]"
            let note = photosNote.flatMap { try? String(decoding: Self.encoder.encode($0), as: UTF8.self) }.map { "  \"photos_note\": \($0),\n" } ?? ""
            // Only a journal with measures lists them: an export without is as it always was.
            let listed = measures.isEmpty ? "" : (try? String(decoding: Self.encoder.encode(measures.map(ExportedMeasure.init)), as: UTF8.self))
                .map { "  \"measures\": \($0),\n" } ?? ""
            let exportedTemplates = templates.map { ExportedTemplate($0, measures: measures) }
            let templatesListed = templates.isEmpty ? "" : (try? String(decoding: Self.encoder.encode(exportedTemplates), as: UTF8.self))
                .map { "  \"templates\": \($0),\n" } ?? ""
            return "{\n  \"format\": \"\(ExportDocument.formatName)\",\n  \"version\": \(ExportDocument.currentVersion),\n"
                + "  \"exported_at\": \"\(ExportedTime(exportedAt).iso8601)\",\n" + note + "  \"tags\": \(tags),\n" + listed + templatesListed + "  \"entries\": [\n"
        case .csv:
            // A column a measure, named by it, after the others.
            return CSV.record(Self.csvHeader + measures.map(\.name))
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

    /// A photo as the text names it: the name the entry gives it, and its file's path in the
    /// export (JSON: in the ZIP file; Markdown: from the .md file).
    struct PhotoLink {
        let name: String
        let path: String
    }

    /// One entry, oldest first, at `time` (`localTime(of:)`), with its photos; `first` says
    /// whether it is the first, `previousDay` the local day of the one before it (Markdown heads
    /// each day once).
    func entry(_ entry: Entry, at time: LocalTime, tags: [String], photos: [PhotoLink] = [], first: Bool,
               previousDay: Insights.Day?) throws -> String {
        let (local, day) = (time.components, time.day)
        let time = String(format: "%02d:%02d", local.hour ?? 0, local.minute ?? 0)
        switch format {
        case .json, .zip:
            var values: [String: Double] = [:]
            for measure in measures { if let value = entry.measures[measure.id] { values[measure.name] = value } }
            let exported = ExportedEntry(entry, tags: tags, photos: photos.map { ExportedEntry.Photo(file: $0.path, name: $0.name) },
                                         measures: values)
            let text = String(decoding: try Self.encoder.encode(exported), as: UTF8.self)
            return (first ? "    " : ",\n    ") + text
        case .csv:
            // Empty for an entry without a mood.
            let mood: [String] = entry.mood.map { ["\($0.rawValue)", $0.englishTitle] } ?? ["", ""]
            let date = String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
            return CSV.record([date, time, Self.weekdays[((local.weekday ?? 1) - 1) % 7]] + mood + [
                tags.joined(separator: " | "), entry.title, entry.body,
                entry.location.map { "\($0.latitude)" } ?? "", entry.location.map { "\($0.longitude)" } ?? "",
            ] + measures.map { measure in entry.measures[measure.id].map(Measure.plain) ?? "" })
        case .markdown, .markdownByYear:
            var text = ""
            if day != previousDay, let date = day.start(in: calendar) {
                text += "\n## \(dayFormatter.string(from: date))\n"
            }
            // An entry without a mood says none: its heading is its time (and tags).
            let heading = [time] + (entry.mood.map { [$0.englishTitle] } ?? []) + (tags.isEmpty ? [] : [tags.joined(separator: ", ")])
            text += "\n### " + heading.joined(separator: " · ") + "\n"
            if !entry.title.isEmpty { text += "\n**\(entry.title)**\n" }
            let values = measures.compactMap { measure in entry.measures[measure.id].map { "\(measure.name): \(measure.written($0))" } }
            if !values.isEmpty { text += "\n" + values.joined(separator: " · ") + "\n" }
            if !entry.body.isEmpty { text += "\n\(entry.body)\n" }
            // One paragraph of images: shown side by side where there is room.
            if !photos.isEmpty {
                text += "\n" + photos.map { "![\(ExportPhotoNames.markdownText($0.name))](\(ExportPhotoNames.markdownLink($0.path)))\n" }.joined()
            }
            return text
        }
    }

    /// What comes after the last entry.
    var footer: String {
        switch format {
        case .json, .zip: "\n  ]\n}\n"
        case .csv, .markdown, .markdownByYear: ""
        }
    }
}
