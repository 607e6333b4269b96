import Foundation

/// jrnl's JSON export (`jrnl --export json`): `{"tags": {"@work": 2}, "entries": [{"title",
/// "body", "date": "2024-03-02", "time": "21:15", "tags": ["@work"], "starred": false}]}`.
/// The date and time are local, read in this computer's time zone; a tag loses its "@"; a
/// starred entry gets the tag "starred". jrnl keeps no mood and no id: each entry's identity is
/// made from its date, time, title and body, so the same export imported again adds nothing.
enum JrnlExport: ImportSource {
    static func recognises(_ input: ImportInput) -> Bool {
        guard let document = input.json as? [String: Any], document["format"] == nil, document["metadata"] == nil,
              let entries = document["entries"] as? [[String: Any]] else { return false }
        return entries.allSatisfy { $0["date"] is String && $0["time"] is String && ($0["body"] is String || $0["title"] is String) }
    }

    static func read(_ input: ImportInput) throws(ImportProblem) -> ForeignJournal {
        guard let document = input.json as? [String: Any], let items = document["entries"] as? [[String: Any]] else {
            throw ImportProblem(line: nil, reason: tr("This is not jrnl’s JSON export: it has no list of entries."))
        }
        var journal = ForeignJournal(source: "jrnl")
        for (index, item) in items.enumerated() {
            let date = item["date"] as? String ?? "", time = item["time"] as? String ?? ""
            guard let created = localTime(date: date, time: time, calendar: input.calendar) else {
                throw ImportProblem(line: nil, reason: String(format: tr("entry %@: its date “%@ %@” is not a date and time."), "\(index + 1)", date, time))
            }
            let title = ((item["title"] as? String) ?? "").withoutNUL.oneLine.trimmingCharacters(in: .whitespaces)
            let body = ((item["body"] as? String) ?? "").withoutNUL.trimmingCharacters(in: .whitespacesAndNewlines)
            var tags = ((item["tags"] as? [String]) ?? []).map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 }.filter { !$0.isEmpty }
            if item["starred"] as? Bool == true { tags.append(starredTag) }
            journal.entries.append(ImportedEntry(uuid: ImportIdentity.uuid(["jrnl", date, time, title, body]), title: title, body: body,
                                                 mood: nil, createdAt: created, tags: tags))
        }
        return journal
    }

    /// The tag a starred entry gets, so that what the person marked stays found.
    static let starredTag = "starred"

    /// "2024-03-02" and "21:15" (or "21:15:30") in `calendar`'s time zone.
    static func localTime(date: String, time: String, calendar: Calendar) -> ExportedTime? {
        let day = date.split(separator: "-").compactMap { Int($0) }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard day.count == 3, (2...3).contains(clock.count), (1...9999).contains(day[0]), (1...12).contains(day[1]),
              (1...Insights.Day.length(ofMonth: day[1], in: day[0])).contains(day[2]),
              (0..<24).contains(clock[0]), (0..<60).contains(clock[1]), (0..<60).contains(clock.count == 3 ? clock[2] : 0),
              let moment = calendar.date(from: DateComponents(year: day[0], month: day[1], day: day[2], hour: clock[0], minute: clock[1],
                                                               second: clock.count == 3 ? clock[2] : 0)) else { return nil }
        return ExportedTime(moment)
    }
}
