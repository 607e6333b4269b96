import Foundation
import GRDB

/// The sample journal in the formats of the Linux diaries Flourish is measured against, so each
/// program opens the same entries: RedNotebook's month files and Almanah's SQLite database.
/// Both keep one text per day, so a day's entries are joined, newest last.
enum PeerFormats {
    static func write(_ journal: SampleJournal, to folder: String) throws {
        var days: [DateComponents: [SampleJournal.Sample]] = [:]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        for sample in journal.samples {
            days[calendar.dateComponents([.year, .month, .day], from: sample.date), default: []].append(sample)
        }
        let texts = days.mapValues { samples in
            samples.reversed().map { [$0.title, $0.body].filter { !$0.isEmpty }.joined(separator: "\n") }.joined(separator: "\n\n")
        }
        try writeRedNotebook(texts, to: folder + "/rednotebook/data")
        try writeAlmanah(texts, to: folder + "/almanah/diary.db")
    }

    /// RedNotebook: `data/YYYY-MM.txt`, a YAML mapping of day numbers to `{text: …}`. The text is
    /// written as a JSON string, which YAML reads as a double-quoted scalar.
    private static func writeRedNotebook(_ texts: [DateComponents: String], to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var months: [String: [(Int, String)]] = [:]
        for (day, text) in texts {
            guard let year = day.year, let month = day.month, let number = day.day else { continue }
            months[String(format: "%04d-%02d", year, month), default: []].append((number, text))
        }
        for (month, entries) in months {
            var yaml = ""
            for (day, text) in entries.sorted(by: { $0.0 < $1.0 }) {
                let quoted = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
                yaml += "\(day): {text: \(quoted)}\n"
            }
            try yaml.write(toFile: "\(folder)/\(month).txt", atomically: true, encoding: .utf8)
        }
    }

    /// Almanah: `diary.db`, one row a day. Version 1 is its plain-text format (it tries the
    /// GtkTextBuffer serialization first and falls back to text); 0 means "unset" and is refused.
    private static func writeAlmanah(_ texts: [DateComponents: String], to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE entries (year INTEGER, month INTEGER, day INTEGER, content TEXT, is_important INTEGER,
                                      edited_day INTEGER, edited_month INTEGER, edited_year INTEGER, version INTEGER DEFAULT 1,
                                      PRIMARY KEY (year, month, day));
                CREATE TABLE entry_tag (year INTEGER, month INTEGER, day INTEGER, tag TEXT);
                """)
            let insert = try db.makeStatement(sql: "INSERT INTO entries VALUES (?, ?, ?, ?, 0, NULL, NULL, NULL, 1)")
            for (day, text) in texts {
                try insert.execute(arguments: [day.year, day.month, day.day, text])
            }
        }
        try queue.close()
    }
}
