import Foundation

/// Journey's export: a ZIP file of one JSON per entry (`id`, `text`, HTML when `type` is `html`,
/// `date_journal` in milliseconds since 1970, `timezone`, `tags`, `lat`/`lon`, `photos` (names of
/// files in the ZIP), `mood`, `weather`), or one such JSON alone.
///
/// The text's first line is the title, the rest the body (HTML made plain text, paragraphs
/// kept). `lat`/`lon` of 1.7976931348623157e308 (the largest double) means no place. `mood` is
/// Journey's five steps, mapped as Daylio's are (1 the best, 2 really good, 3 okay, 4 not so
/// great, 5 the worst); 0, or none, is an entry without a mood. An entry's identity comes from
/// its `id`.
enum JourneyExport: ImportSource {
    static func recognises(_ input: ImportInput) -> Bool {
        if let archive = input.archive { return !entryMembers(archive).isEmpty }
        return isEntry(input.json)
    }

    private static func isEntry(_ json: Any?) -> Bool {
        guard let entry = json as? [String: Any] else { return false }
        return entry["date_journal"] is NSNumber && entry["id"] is String
    }

    /// The JSON members that are Journey entries: their first bytes name `date_journal`.
    private static func entryMembers(_ archive: ImportArchive) -> [String] {
        archive.paths.filter { path in
            guard path.lowercased().hasSuffix(".json"), !(path as NSString).lastPathComponent.hasPrefix("."),
                  let head = archive.head(of: path, count: 4_096) else { return false }
            return String(decoding: head, as: UTF8.self).contains("\"date_journal\"")
        }.sorted()
    }

    static func read(_ input: ImportInput) throws(ImportProblem) -> ForeignJournal {
        var journal = ForeignJournal(source: "Journey")
        var weather = 0
        var items: [(name: String, folder: String, entry: [String: Any])] = []
        if let archive = input.archive {
            for member in entryMembers(archive) {
                let json = try ForeignText.json(of: member, in: archive)
                guard isEntry(json), let entry = json as? [String: Any] else {
                    throw ImportProblem(line: nil, reason: String(format: tr("Its %@ is not a Journey entry."), member))
                }
                items.append((member, (member as NSString).deletingLastPathComponent, entry))
            }
        } else if let entry = input.json as? [String: Any] {
            items.append(((input.path as NSString).lastPathComponent, "", entry))
        }
        var pictures = KeepablePictures()
        for (name, folder, item) in items {
            func problem(_ reason: String) -> ImportProblem {
                ImportProblem(line: nil, reason: String(format: tr("%@: %@"), name, reason))
            }
            guard let id = item["id"] as? String, !id.isEmpty else { throw problem(tr("its id is missing.")) }
            guard let milliseconds = (item["date_journal"] as? NSNumber)?.doubleValue, milliseconds.isFinite,
                  abs(milliseconds) < 1e15 else { throw problem(tr("its date_journal is not a time.")) }
            let rawText = item["text"] as? String ?? ""
            let text = (item["type"] as? String)?.lowercased() == "html" ? DaylioNote.html(rawText) : rawText
            let (title, body) = ForeignText.titleAndBody(text)
            var mood: Mood?
            if let given = (item["mood"] as? NSNumber)?.doubleValue, given != 0 {
                guard let step = [1, 2, 3, 4, 5].first(where: { Double($0) == given }) else {
                    throw problem(String(format: tr("its mood %@ is not one of Journey’s five (1 to 5)."), (item["mood"] as? NSNumber)?.stringValue ?? ""))
                }
                mood = DaylioMoods.mood(forStep: step)
            }
            var entry = ImportedEntry(uuid: ImportIdentity.uuid(["journey", id]), title: title, body: body, mood: mood,
                                      createdAt: ExportedTime(milliseconds: Int64(milliseconds.rounded())),
                                      tags: (item["tags"] as? [String]) ?? [], location: location(item))
            if let modified = (item["date_modified"] as? NSNumber)?.doubleValue, modified.isFinite, abs(modified) < 1e15,
               Int64(modified.rounded()) > entry.createdAt.milliseconds {
                entry.updatedAt = ExportedTime(milliseconds: Int64(modified.rounded()))
            }
            for file in item["photos"] as? [String] ?? [] {
                let member = folder.isEmpty ? file : "\(folder)/\(file)"
                if let archive = input.archive, pictures.contains(member, in: archive) {
                    entry.photos.append(ImportedPhoto(fileName: (file as NSString).lastPathComponent, member: member, archive: archive))
                } else {
                    entry.leftBehind.append(file)
                }
            }
            if hasWeather(item["weather"]) { weather += 1 }
            journal.entries.append(entry)
        }
        if weather > 0 {
            journal.notImported.append(ForeignText.counted(weather, one: tr("weather of 1 entry"), many: tr("weather of %@ entries")))
        }
        return journal
    }

    /// Journey writes an empty weather (no words, the largest double for degrees) on entries
    /// without one.
    private static func hasWeather(_ value: Any?) -> Bool {
        guard let weather = value as? [String: Any] else { return false }
        let words = (weather["description"] as? String).map { !$0.isEmpty } ?? false
        let degrees = (weather["degree_c"] as? NSNumber).map { abs($0.doubleValue) < 1e300 } ?? false
        return words || degrees
    }

    /// Journey writes the largest double for "no place".
    private static func location(_ item: [String: Any]) -> Location? {
        guard let latitude = (item["lat"] as? NSNumber)?.doubleValue, let longitude = (item["lon"] as? NSNumber)?.doubleValue,
              (-90...90).contains(latitude), (-180...180).contains(longitude), !(latitude == 0 && longitude == 0) else { return nil }
        return Location(latitude: latitude, longitude: longitude, accuracy: 0)
    }
}
