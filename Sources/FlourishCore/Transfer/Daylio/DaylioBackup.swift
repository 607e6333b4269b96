import Foundation

/// Reads Daylio's own backup (a `.daylio` file): a ZIP file whose `backup.daylio` member is
/// Base64-encoded JSON, beside the photos and voice notes under `assets/`. Photos are
/// `assets/photos/YEAR/MONTH/<checksum>` (see `DaylioPhotos`), brought with their entries;
/// voice notes are not.
///
/// The JSON knows more than a CSV export: `customMoods` gives each mood its step
/// (`mood_group_id`, 1 the best to 5 the worst) so nothing is guessed, `tags` names the
/// activities, and each of `dayEntries` has its exact moment (`datetime`, milliseconds since
/// 1970, UTC) beside the phone's local day and time (`year`, `month` from 0, `day`, `hour`,
/// `minute`; `timeZoneOffset` in milliseconds), its `mood` (a custom mood's id), `tags` (ids),
/// `note_title`, `note` (simple HTML) and `assets` (ids of its photos and voice notes, which
/// `assets` describes: `id`, `checksum`, `type`).
enum DaylioBackup {
    static let member = "backup.daylio"

    /// Whether `data` starts as a ZIP file does.
    static func isZIP(_ data: Data) -> Bool {
        data.prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]) || data.prefix(4) == Data([0x50, 0x4B, 0x05, 0x06])
    }

    static func read(_ archive: ImportArchive) throws(ImportProblem) -> DaylioExport {
        let json = try Self.json(in: archive)
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: json)
        } catch {
            throw ImportProblem(line: nil, reason: String(format: tr("Its backup.daylio does not hold Daylio’s entries (%@)."), describe(error)))
        }
        return try export(of: document, photos: DaylioPhotos(document.assets ?? [], in: archive))
    }

    /// The JSON inside the ZIP file's `backup.daylio`.
    private static func json(in archive: ImportArchive) throws(ImportProblem) -> Data {
        // Bounded: a backup.daylio made to inflate to gigabytes is refused before it is whole.
        let encoded = try ForeignText.bytes(of: member, in: archive, limit: ForeignText.ownDocumentLimit) ?? Data()
        // JSON as it is (some tools repack it so), or Base64 of it, in lines or not.
        if encoded.first(where: { !(Character(UnicodeScalar($0)).isWhitespace) }) == UInt8(ascii: "{") { return encoded }
        guard let decoded = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters), !decoded.isEmpty,
              encoded.allSatisfy({ Self.base64Bytes.contains($0) }) else {
            throw ImportProblem(line: nil, reason: tr("Its backup.daylio is not Base64 text, so it is not a Daylio backup."))
        }
        return decoded
    }

    private static let base64Bytes = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\r\n".utf8))

    // MARK: - The JSON

    struct Document: Decodable {
        var customMoods: [CustomMood]?
        var tags: [Tag]?
        var dayEntries: [DayEntry]
        var assets: [Asset]?
        /// The language the phone's Daylio spoke ("de"), from its preferences, when they say.
        var language: String?

        private enum Keys: String, CodingKey { case customMoods, tags, dayEntries, assets, prefs }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            customMoods = try container.decodeIfPresent([CustomMood].self, forKey: .customMoods)
            tags = try container.decodeIfPresent([Tag].self, forKey: .tags)
            dayEntries = try container.decode([DayEntry].self, forKey: .dayEntries)
            assets = try container.decodeIfPresent([Asset].self, forKey: .assets)
            // Preferences vary from version to version; only the language is read, if it is there.
            let prefs = (try? container.decodeIfPresent([Pref].self, forKey: .prefs)) ?? nil
            language = prefs?.first { $0.key == "PRESELECTED_LANG" }?.value.map {
                String($0.lowercased().prefix { $0.isLetter })
            }
        }
    }

    struct Pref: Decodable {
        var key: String?
        var value: String?

        private enum Keys: String, CodingKey { case key, value }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            key = try? container.decodeIfPresent(String.self, forKey: .key)
            value = try? container.decodeIfPresent(String.self, forKey: .value)
        }
    }

    struct CustomMood: Decodable {
        var id: Int
        var custom_name: String?
        var mood_group_id: Int
        var predefined_name_id: Int?
    }

    struct Tag: Decodable {
        var id: Int
        var name: String
    }

    struct DayEntry: Decodable {
        var datetime: Int64?
        var timeZoneOffset: Int64?
        var year: Int?
        var month: Int?
        var day: Int?
        var hour: Int?
        var minute: Int?
        var mood: Int
        var note: String?
        var note_title: String?
        var tags: [Int]?
        var assets: [Int]?
    }

    struct Asset: Decodable {
        var id: Int
        /// The name of its file under `assets/`.
        var checksum: String?
        /// 1 a photo, 2 a voice note, as far as the backups seen show; any other is taken as a photo.
        var type: Int?
    }

    // MARK: - Entries

    /// A mood of the backup: its name as the Import window shows it, and its step.
    private struct MoodOf {
        let name: String
        let step: Int
        /// Whether Daylio names it (in the phone's language): a CSV of the same entry may.
        let isDefault: Bool
    }

    private static func export(of document: Document, photos: DaylioPhotos) throws(ImportProblem) -> DaylioExport {
        let moods = moods(of: document)
        let tagNames = Dictionary((document.tags ?? []).map { ($0.id, $0.name.trimmingCharacters(in: .whitespaces)) }, uniquingKeysWith: { first, _ in first })
        var records: [DaylioExport.Record] = []
        records.reserveCapacity(document.dayEntries.count)
        for (index, entry) in document.dayEntries.enumerated() {
            func problem(_ reason: String) -> ImportProblem {
                ImportProblem(line: nil, reason: String(format: tr("entry %@: %@"), "\(index + 1)", reason))
            }
            // Daylio's own five moods are 1 to 5: an older backup may not list them.
            guard let mood = moods[entry.mood] ?? ((1...5).contains(entry.mood)
                ? MoodOf(name: DaylioMoods.english[entry.mood - 1], step: entry.mood, isDefault: true) : nil) else {
                throw problem(String(format: tr("its mood %@ is none of the backup’s moods."), "\(entry.mood)"))
            }
            guard let (moment, time) = moment(of: entry) else { throw problem(tr("its date is not a day.")) }
            let activities = (entry.tags ?? []).compactMap { tagNames[$0] }.filter { !$0.isEmpty }
            let rawNote = entry.note ?? ""
            let title = DaylioNote.csv(entry.note_title ?? "")
            let note = DaylioNote.html(rawNote)
            let uuid = DaylioIdentity.canonical(moment, mood: mood.name, activities: activities, title: title, note: note)
            // The identities a CSV export of the same entry was given: the mood as the CSV
            // names it (a default one in the phone's language, or in any when it is not known),
            // the note as a CSV reads it.
            var aliases: [String] = []
            var seen: Set<String> = [uuid]
            let names = mood.isDefault ? DaylioMoods.names(ofStep: mood.step, in: document.language) : [mood.name]
            let notes = Array(Set([DaylioNote.csv(rawNote), note]))
            for name in names {
                for text in notes {
                    let alias = DaylioIdentity.uuid(moment, mood: name, activities: activities, title: title, note: text)
                    if seen.insert(alias).inserted { aliases.append(alias) }
                }
            }
            let (brought, leftBehind) = photos.of(entry.assets ?? [], day: moment.day)
            records.append(DaylioExport.Record(line: nil, time: time, mood: mood.name, activities: activities, title: title, note: note,
                                               uuid: uuid, aliases: aliases, photos: brought, leftBehind: leftBehind))
        }
        let steps = Dictionary(moods.values.map { ($0.name, $0.step) }, uniquingKeysWith: { first, _ in first })
        return DaylioExport(records: records,
                            moods: DaylioExport.moods(of: records) { DaylioMoods.mood(forStep: steps[$0] ?? DaylioMoods.step(ofDefaultName: $0) ?? 3) },
                            source: .backup(photos: photos.broughtCount, photosLeftBehind: photos.leftBehindCount, voiceNotes: photos.voiceNoteCount))
    }

    /// Each mood by its id: a renamed or custom mood by its name, Daylio's own by its English
    /// name; two moods of one name on different steps told apart by the step's name.
    private static func moods(of document: Document) -> [Int: MoodOf] {
        var moods: [Int: MoodOf] = [:]
        var steps: [String: Int] = [:]
        for mood in document.customMoods ?? [] {
            let step = min(max(mood.mood_group_id, 1), 5)
            let custom = (mood.custom_name ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            var name = custom
            if custom.isEmpty {
                let predefined = mood.predefined_name_id ?? step
                name = DaylioMoods.english[(1...5).contains(predefined) ? predefined - 1 : step - 1]
            }
            if let other = steps[name], other != step { name += " (\(DaylioMoods.english[step - 1]))" }
            steps[name] = step
            moods[mood.id] = MoodOf(name: name, step: step, isDefault: custom.isEmpty)
        }
        return moods
    }

    /// The entry's local day and time (for its identity) and its exact moment.
    private static func moment(of entry: DayEntry) -> (DaylioIdentity.Moment, ExportedTime)? {
        let offset = entry.timeZoneOffset ?? 0
        var local: DaylioIdentity.Moment?
        if let year = entry.year, let month = entry.month, let day = entry.day, (0...11).contains(month),
           (1...Insights.Day.length(ofMonth: month + 1, in: year)).contains(day) {
            let hour = entry.hour ?? 0, minute = entry.minute ?? 0
            guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
            local = DaylioIdentity.Moment(day: Insights.Day(year: year, month: month + 1, day: day), hour: hour, minute: minute)
        }
        if let datetime = entry.datetime {
            let time = ExportedTime(milliseconds: datetime)
            if let local { return (local, time) }
            // No local fields: the moment moved by the phone's offset.
            func floorDivided(_ value: Int64, _ by: Int64) -> Int64 { (value - ((value % by) + by) % by) / by }
            let seconds = floorDivided(datetime + offset, 1_000)
            let dayNumber = floorDivided(seconds, 86_400)
            let second = Int(seconds - dayNumber * 86_400)
            return (DaylioIdentity.Moment(day: Insights.Day(number: Int(dayNumber)), hour: second / 3_600, minute: second / 60 % 60), time)
        }
        guard let local else { return nil }
        // No moment: the local time less the offset.
        let milliseconds = (Int64(local.day.number) * 86_400 + Int64(local.hour * 3_600 + local.minute * 60)) * 1_000 - offset
        return (local, ExportedTime(milliseconds: milliseconds))
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): String(format: tr("“%@” is missing"), key.stringValue)
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            String(format: tr("the value at %@ is of the wrong kind"), context.codingPath.map { $0.intValue.map { "\($0 + 1)" } ?? $0.stringValue }.joined(separator: " › "))
        default: tr("it is not valid JSON")
        }
    }
}
