import Foundation

/// A Daylio CSV export, read whole before anything is imported: its entries, and the moods it
/// names with how many entries carry each, for the person to map to Flourish's six.
///
/// Daylio writes `full_date,date,weekday,time,mood,activities,note_title,note` (older versions
/// `year,date,weekday,time,mood,activities,note`), activities joined by " | ", times as "20:15"
/// or "8:15 pm", and line breaks in notes as `<br>`.
public struct DaylioExport: Sendable {
    public struct Record: Sendable, Equatable {
        public let line: Int
        public let time: ExportedTime
        /// The mood as Daylio names it (lower case): "rad", or a custom name.
        public let mood: String
        public let activities: [String]
        public let title: String
        public let note: String
        public let uuid: String
    }

    /// A mood named in the file: how many entries carry it, and the Flourish mood proposed for it.
    public struct MoodName: Sendable, Equatable {
        public let name: String
        public let count: Int
        public let proposed: Mood
    }

    public let records: [Record]
    /// Each mood named, in the order first met.
    public let moods: [MoodName]

    static let header = ["full_date", "date", "weekday", "time", "mood", "activities", "note_title", "note"]
    static let olderHeader = ["year", "date", "weekday", "time", "mood", "activities", "note"]

    /// Daylio's five moods and Flourish's nearest: rad the best, good really good, meh okay,
    /// bad not so great, awful the worst. A custom name is proposed as okay.
    public static func proposal(for name: String) -> Mood {
        switch name.lowercased() {
        case "rad": .theBest
        case "good": .reallyGood
        case "meh": .okay
        case "bad": .notSoGreat
        case "awful": .theWorst
        default: .okay
        }
    }

    public init(text: String, calendar: Calendar = .current) throws(ImportProblem) {
        let rows: [CSV.Record]
        do {
            rows = try CSV.records(text)
        } catch {
            throw ImportProblem(line: error.line, reason: error.reason + ".")
        }
        guard let first = rows.first else { throw ImportProblem(line: nil, reason: tr("The file is empty.")) }
        let columns = first.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let older: Bool
        switch columns {
        case Self.header: older = false
        case Self.olderHeader: older = true
        default:
            throw ImportProblem(line: first.line, reason: String(format: tr("this is not a Daylio export: its first line should be “%@”."),
                                                                 Self.header.joined(separator: ",")))
        }
        var records: [Record] = []
        var counts: [String: Int] = [:]
        var order: [String] = []
        for row in rows.dropFirst() {
            func problem(_ reason: String) -> ImportProblem { ImportProblem(line: row.line, reason: reason) }
            guard row.fields.count == columns.count else {
                throw problem(String(format: tr("it has %@ fields where the first line names %@."), "\(row.fields.count)", "\(columns.count)"))
            }
            let field = { (name: String) in row.fields[columns.firstIndex(of: name)!].trimmingCharacters(in: .whitespaces) }
            let day: Insights.Day
            if older {
                guard let parsed = Self.olderDay(year: field("year"), date: field("date")) else {
                    throw problem(String(format: tr("the date “%@ %@” is not a day."), field("date"), field("year")))
                }
                day = parsed
            } else {
                guard let parsed = Self.day(field("full_date")) else {
                    throw problem(String(format: tr("the date “%@” is not a day (YYYY-MM-DD)."), field("full_date")))
                }
                day = parsed
            }
            guard let (hour, minute) = Self.time(field("time")) else {
                throw problem(String(format: tr("the time “%@” is not a time (20:15 or 8:15 pm)."), field("time")))
            }
            guard let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute)) else {
                throw problem(tr("the date and time are not a moment of this time zone."))
            }
            let mood = field("mood").lowercased()
            guard !mood.isEmpty else { throw problem(tr("the mood is empty.")) }
            let activities = field("activities").components(separatedBy: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let title = older ? "" : Self.plainText(row.fields[columns.firstIndex(of: "note_title")!])
            let note = Self.plainText(row.fields[columns.firstIndex(of: "note")!])
            if counts[mood] == nil { order.append(mood) }
            counts[mood, default: 0] += 1
            let uuid = Self.uuid(["daylio", String(format: "%04d-%02d-%02d", day.year, day.month, day.day), String(format: "%02d:%02d", hour, minute),
                                  mood, activities.joined(separator: "|"), title, note])
            records.append(Record(line: row.line, time: ExportedTime(date), mood: mood, activities: activities, title: title, note: note, uuid: uuid))
        }
        self.records = records
        moods = order.map { MoodName(name: $0, count: counts[$0] ?? 0, proposed: Self.proposal(for: $0)) }
    }

    /// The entries, each Daylio mood made the Flourish mood `mapping` gives it (or its proposal).
    public func entries(mapping: [String: Mood] = [:]) -> [ImportedEntry] {
        records.map { record in
            ImportedEntry(uuid: record.uuid, title: record.title.oneLine, body: record.note, mood: mapping[record.mood] ?? Self.proposal(for: record.mood),
                          createdAt: record.time, updatedAt: nil, tags: record.activities, location: nil)
        }
    }

    /// "2023-05-14".
    static func day(_ text: String) -> Insights.Day? {
        let parts = text.split(separator: "-").map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2], (1...12).contains(month),
              (1...Insights.Day.length(ofMonth: month, in: year)).contains(day) else { return nil }
        return Insights.Day(year: year, month: month, day: day)
    }

    static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]

    /// "30 December", "December 30" or "Dec 30", with the year beside it.
    static func olderDay(year: String, date: String) -> Insights.Day? {
        guard let year = Int(year) else { return nil }
        let words = date.replacingOccurrences(of: ",", with: " ").split(separator: " ").map { $0.lowercased() }
        guard words.count == 2 else { return nil }
        let (dayText, monthText) = Int(words[0]) != nil ? (words[0], words[1]) : (words[1], words[0])
        guard let day = Int(dayText), monthText.count >= 3,
              let month = monthNames.firstIndex(where: { $0.hasPrefix(monthText.replacingOccurrences(of: ".", with: "")) }).map({ $0 + 1 }),
              (1...Insights.Day.length(ofMonth: month, in: year)).contains(day) else { return nil }
        return Insights.Day(year: year, month: month, day: day)
    }

    /// "20:15", "8:15 pm", "8:15PM", "12:05 a.m.".
    static func time(_ text: String) -> (hour: Int, minute: Int)? {
        var clock = text.lowercased().replacingOccurrences(of: ".", with: "").replacingOccurrences(of: " ", with: "")
        var half: String?
        for suffix in ["am", "pm"] where clock.hasSuffix(suffix) {
            half = suffix
            clock.removeLast(2)
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, var hour = Int(parts[0]), let minute = Int(parts[1]), (0..<60).contains(minute) else { return nil }
        if let half {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (half == "pm" ? 12 : 0)
        }
        guard (0..<24).contains(hour) else { return nil }
        return (hour, minute)
    }

    /// Daylio's HTML-ish notes as plain text: `<br>` (in any of its spellings) a line break, the
    /// common entities their characters.
    static func plainText(_ text: String) -> String {
        var plain = text.replacingOccurrences(of: "<br\\s*/?>", with: "\n", options: [.regularExpression, .caseInsensitive])
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")] {
            plain = plain.replacingOccurrences(of: entity, with: character)
        }
        return plain.withoutNUL.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A UUID made from `parts` (two 64-bit FNV-1a hashes), the same for the same record in every
    /// import: the second import of a file finds each of its entries already there.
    static func uuid(_ parts: [String]) -> String {
        let bytes = Array(parts.joined(separator: "\u{1F}").utf8)
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100000001b3
            }
            return hash
        }
        var high = fnv(0xcbf29ce484222325), low = fnv(0x84222325cbf29ce4)
        // RFC 9562 version 8 (made by its own rule), variant 10.
        high = (high & ~0xF000) | 0x8000
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = String(format: "%016llx%016llx", high, low)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
