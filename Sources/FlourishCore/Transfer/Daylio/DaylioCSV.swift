import Foundation

/// Reads a Daylio CSV export, in each layout Daylio has written:
/// `full_date,date,weekday,time,mood,activities,note_title,note`, the same without
/// `note_title`, and the older `year,date,weekday,time,mood,activities,note` whose `date` is in
/// the phone's language. Columns are found by the header's names, in any order; a file whose
/// first line is already an entry is read by the shape of its fields. A spreadsheet's re-save
/// (";" or tabs between fields, seconds on the times) reads the same.
enum DaylioCSV {
    /// Where each column is.
    struct Layout {
        var columns: [String: Int]
        var count: Int
        var headerMissing: Bool
        var older: Bool { columns["full_date"] == nil }
    }

    static let header = ["full_date", "date", "weekday", "time", "mood", "activities", "note_title", "note"]
    static let withoutTitle = ["full_date", "date", "weekday", "time", "mood", "activities", "note"]
    /// Daylio with scales (its numeric trackers, not imported) writes a column for them.
    static let withScales = ["full_date", "date", "weekday", "time", "mood", "activities", "scales", "note_title", "note"]
    static let olderHeader = ["year", "date", "weekday", "time", "mood", "activities", "note"]

    static func read(_ text: String, calendar: Calendar) throws(ImportProblem) -> DaylioExport {
        let rows: [CSV.Record]
        do {
            rows = try CSV.records(text, separator: separator(of: text))
        } catch {
            throw ImportProblem(line: error.line, reason: error.reason + ".")
        }
        guard let first = rows.first else { throw ImportProblem(line: nil, reason: tr("The file is empty.")) }
        let layout: Layout
        let entries: ArraySlice<CSV.Record>
        if let named = Self.layout(header: first.fields) {
            (layout, entries) = (named, rows.dropFirst())
        } else if let shaped = Self.layout(shapeOf: first.fields, widest: rows.prefix(200).map(\.fields.count).max() ?? 0) {
            (layout, entries) = (shaped, rows[...])
        } else {
            throw ImportProblem(line: first.line, reason: String(format: tr("this is not a Daylio export: its first line should be “%@”."),
                                                                 header.joined(separator: ",")))
        }
        let days = try Self.days(of: entries, layout: layout)
        var records: [DaylioExport.Record] = []
        records.reserveCapacity(entries.count)
        for (row, day) in zip(entries, days) {
            func problem(_ reason: String) -> ImportProblem { ImportProblem(line: row.line, reason: reason) }
            func field(_ name: String) -> String {
                guard let index = layout.columns[name], index < row.fields.count else { return "" }
                return row.fields[index].trimmingCharacters(in: .whitespaces)
            }
            guard let (hour, minute) = DaylioDates.time(field("time")) else {
                throw problem(String(format: tr("the time “%@” is not a time (20:15 or 8:15 pm)."), field("time")))
            }
            guard let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute)) else {
                throw problem(tr("the date and time are not a moment of this time zone."))
            }
            let mood = field("mood").lowercased()
            guard !mood.isEmpty else { throw problem(tr("the mood is empty.")) }
            let activities = field("activities").components(separatedBy: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let rawTitle = layout.columns["note_title"].flatMap { $0 < row.fields.count ? row.fields[$0] : nil } ?? ""
            let rawNote = layout.columns["note"].flatMap { $0 < row.fields.count ? row.fields[$0] : nil } ?? ""
            let title = DaylioNote.csv(rawTitle)
            let note = DaylioNote.csv(rawNote)
            let moment = DaylioIdentity.Moment(day: day, hour: hour, minute: minute)
            let uuid = DaylioIdentity.uuid(moment, mood: mood, activities: activities, title: title, note: note)
            let canonical = DaylioIdentity.canonical(moment, mood: mood, activities: activities, title: title, note: DaylioNote.html(rawNote))
            // A CRLF file's line breaks inside a note are the file's, not the person's: the body
            // has plain ones (the identity keeps the note as the first importer read it).
            var record = DaylioExport.Record(line: row.line, time: ExportedTime(date), mood: mood, activities: activities, title: title,
                                             note: note.replacingOccurrences(of: "\r\n", with: "\n"), uuid: uuid,
                                             aliases: canonical == uuid ? [] : [canonical])
            // The scales' values: measures (the entry's identity stays without them, as before).
            for scale in DaylioScales.values(field("scales")) where record.measures[scale.name] == nil {
                record.measures[scale.name] = scale.value
                record.scales.append(scale)
            }
            records.append(record)
        }
        var export = DaylioExport(records: records, moods: DaylioExport.moods(of: records, proposal: DaylioMoods.proposal(for:)),
                                  source: .csv(headerMissing: layout.headerMissing))
        export.measures = DaylioScales.measures(of: records)
        return export
    }

    /// A comma, unless the first line has none and is cut by semicolons or tabs instead (a
    /// spreadsheet's re-save in a language that writes decimal commas).
    static func separator(of text: String) -> Unicode.Scalar {
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" }
        func count(_ character: Character) -> Int { firstLine.reduce(0) { $1 == character ? $0 + 1 : $0 } }
        if count(",") >= 4 { return "," }
        if count(";") >= 4 { return ";" }
        if count("\t") >= 4 { return "\t" }
        return ","
    }

    /// The layout a header line names, or nil when it names no Daylio export.
    static func layout(header fields: [String]) -> Layout? {
        let names = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var columns: [String: Int] = [:]
        for (index, name) in names.enumerated() where columns[name] == nil && !name.isEmpty { columns[name] = index }
        guard columns["mood"] != nil, columns["time"] != nil,
              columns["full_date"] != nil || (columns["year"] != nil && columns["date"] != nil) else { return nil }
        return Layout(columns: columns, count: names.count, headerMissing: false)
    }

    /// The layout of a file without its header, from its first entry: an ISO date first is the
    /// newer layout (with `note_title` when some line has eight fields, and `scales` when nine),
    /// a year first the older.
    static func layout(shapeOf fields: [String], widest: Int) -> Layout? {
        guard let first = fields.first?.trimmingCharacters(in: .whitespaces), fields.count >= 5 else { return nil }
        let names: [String]
        if DaylioDates.isoDay(first) != nil, DaylioDates.time(fields[3].trimmingCharacters(in: .whitespaces)) != nil {
            names = widest >= withScales.count ? withScales : widest >= header.count ? header : withoutTitle
        } else if DaylioDates.isYear(first), DaylioDates.time(fields[3].trimmingCharacters(in: .whitespaces)) != nil {
            names = olderHeader
        } else {
            return nil
        }
        return Layout(columns: Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) }), count: names.count, headerMissing: true)
    }

    /// Each entry's day. The older layout's dates are read in any language; a short month name
    /// that languages disagree on ("mar") is settled by the row's weekday, then by the language
    /// the file's other dates are in.
    static func days(of rows: ArraySlice<CSV.Record>, layout: Layout) throws(ImportProblem) -> [Insights.Day] {
        func field(_ row: CSV.Record, _ name: String) -> String {
            guard let index = layout.columns[name], index < row.fields.count else { return "" }
            return row.fields[index].trimmingCharacters(in: .whitespaces)
        }
        for row in rows {
            let extra = row.fields.dropFirst(layout.count)
            guard extra.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
                throw ImportProblem(line: row.line, reason: String(format: tr("it has %@ fields where the first line names %@."),
                                                                   "\(row.fields.count)", "\(layout.count)"))
            }
        }
        guard layout.older else {
            var days: [Insights.Day] = []
            days.reserveCapacity(rows.count)
            for row in rows {
                guard let day = DaylioDates.isoDay(field(row, "full_date")) else {
                    throw ImportProblem(line: row.line, reason: String(format: tr("the date “%@” is not a day (YYYY-MM-DD)."), field(row, "full_date")))
                }
                days.append(day)
            }
            return days
        }
        var readings: [[DaylioDates.Reading]] = []
        var votes: [String: Int] = [:]
        for row in rows {
            let found = Int(field(row, "year")).map { DaylioDates.readings(year: $0, date: field(row, "date")) } ?? []
            guard !found.isEmpty else {
                throw ImportProblem(line: row.line, reason: String(format: tr("the date “%@ %@” is not a day."), field(row, "date"), field(row, "year")))
            }
            if found.count == 1 { for language in found[0].languages { votes[language, default: 0] += 1 } }
            readings.append(found)
        }
        var days: [Insights.Day] = []
        days.reserveCapacity(rows.count)
        for (row, found) in zip(rows, readings) {
            var left = found
            if left.count > 1, let weekdays = DaylioDates.weekdays(field(row, "weekday")) {
                let matching = left.filter { weekdays.contains(DaylioDates.weekday(of: $0.day)) }
                if !matching.isEmpty { left = matching }
            }
            if left.count > 1 {
                let scored = left.map { reading in (reading, reading.languages.map { votes[$0] ?? 0 }.max() ?? 0) }
                let best = scored.map(\.1).max() ?? 0
                let top = scored.filter { $0.1 == best }
                if best > 0, top.count == 1 { left = [top[0].0] }
            }
            guard left.count == 1 else {
                throw ImportProblem(line: row.line, reason: String(format: tr("the date “%@ %@” could be more than one day."), field(row, "date"), field(row, "year")))
            }
            days.append(left[0].day)
        }
        return days
    }
}
