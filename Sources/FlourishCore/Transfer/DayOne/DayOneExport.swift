import Foundation

/// Day One's JSON export: a ZIP file of one `<Journal name>.json` per journal (each
/// `{"metadata": {…}, "entries": […]}`) and `photos/<md5>.<type>`, or one such JSON alone.
///
/// Each entry has `uuid`, `text` (Markdown, with backslash escapes), `creationDate` and
/// `modifiedDate` (ISO 8601, UTC), `timeZone`, `tags`, `starred`, `location`, `weather`, and
/// `photos` (`identifier`, `md5`, `type`). The text places a photo with
/// `![](dayone-moment://<identifier>)`, and a photo may be listed under another entry than the
/// one whose text names it. The first line of the text is the title, the rest the body; the
/// photos named become the entry's, in order, and leave the text; one the export lacks is said
/// (left behind), never kept as text. With several journals, each one's name becomes a tag.
/// Day One keeps no mood: the entries come without one.
enum DayOneExport: ImportSource {
    static func recognises(_ input: ImportInput) -> Bool {
        if let archive = input.archive {
            return !journalMembers(archive).isEmpty
        }
        return isDayOne(input.json)
    }

    private static func isDayOne(_ json: Any?) -> Bool {
        guard let document = json as? [String: Any], document["metadata"] is [String: Any],
              let entries = document["entries"] as? [[String: Any]] else { return false }
        return entries.allSatisfy { $0["creationDate"] is String }
    }

    /// The JSON members that are Day One journals: named `*.json`, their first bytes naming
    /// `metadata` or `entries` (whichever a writer put first).
    private static func journalMembers(_ archive: ImportArchive) -> [String] {
        archive.paths.filter { path in
            guard path.lowercased().hasSuffix(".json"), !(path as NSString).lastPathComponent.hasPrefix("."),
                  let head = archive.head(of: path, count: 512) else { return false }
            let text = String(decoding: head, as: UTF8.self)
            return text.contains("\"metadata\"") || text.contains("\"entries\"")
        }.sorted()
    }

    static func read(_ input: ImportInput) throws(ImportProblem) -> ForeignJournal {
        var journals: [(name: String, folder: String, entries: [[String: Any]])] = []
        if let archive = input.archive {
            for member in journalMembers(archive) {
                let json = try ForeignText.json(of: member, in: archive)
                guard isDayOne(json), let entries = (json as? [String: Any])?["entries"] as? [[String: Any]] else {
                    throw ImportProblem(line: nil, reason: String(format: tr("Its %@ is not a Day One journal."), member))
                }
                let name = ((member as NSString).lastPathComponent as NSString).deletingPathExtension
                journals.append((name, (member as NSString).deletingLastPathComponent, entries))
            }
        } else if let entries = (input.json as? [String: Any])?["entries"] as? [[String: Any]] {
            journals.append((((input.path as NSString).lastPathComponent as NSString).deletingPathExtension, "", entries))
        }
        var entries = DayOneEntries(journals: journals, archive: input.archive)
        return try entries.journal()
    }
}

/// Day One's entries turned into Flourish's, across every journal of one export (a photo may be
/// listed under another entry, even of another journal, than the one whose text names it).
struct DayOneEntries {
    let journals: [(name: String, folder: String, entries: [[String: Any]])]
    let archive: ImportArchive?

    /// Each photo's file in the export by its identifier, from every entry's list.
    private var photoFiles: [String: (member: String, name: String)] = [:]
    /// The identifiers some entry's text names.
    private var named: Set<String> = []
    private var pictures = KeepablePictures()

    init(journals: [(name: String, folder: String, entries: [[String: Any]])], archive: ImportArchive?) {
        self.journals = journals
        self.archive = archive
        for journal in journals {
            for entry in journal.entries {
                for photo in entry["photos"] as? [[String: Any]] ?? [] {
                    guard let identifier = photo["identifier"] as? String, let md5 = photo["md5"] as? String else { continue }
                    let type = (photo["type"] as? String) ?? "jpeg"
                    let file = "\(md5).\(type)"
                    let member = journal.folder.isEmpty ? "photos/\(file)" : "\(journal.folder)/photos/\(file)"
                    photoFiles[identifier] = (member, (photo["filename"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? file)
                }
                for (identifier, _) in Self.moments(in: entry["text"] as? String ?? "") { named.insert(identifier) }
            }
        }
    }

    /// Every `![](dayone-moment://ID)` in `text`, with its range (also `dayone-moment:/video/ID`
    /// and the like, whose identifier keeps its kind: "video/ID").
    static func moments(in text: String) -> [(identifier: String, range: Range<String.Index>)] {
        var found: [(String, Range<String.Index>)] = []
        var rest = text.startIndex..<text.endIndex
        while let open = text.range(of: "![", range: rest) {
            // Looked for on its line only: a text full of "![" stays a single pass.
            let line = open.upperBound..<(text[open.upperBound...].firstIndex(of: "\n") ?? text.endIndex)
            guard let link = text.range(of: "](dayone-moment:", range: line),
                  let close = text.range(of: ")", range: link.upperBound..<line.upperBound) else {
                rest = open.upperBound..<text.endIndex
                continue
            }
            let identifier = String(text[link.upperBound..<close.lowerBound].drop(while: { $0 == "/" }))
            found.append((identifier, open.lowerBound..<close.upperBound))
            rest = close.upperBound..<text.endIndex
        }
        return found
    }

    mutating func journal() throws(ImportProblem) -> ForeignJournal {
        var journal = ForeignJournal(source: "Day One")
        let tagged = journals.count > 1
        if tagged { journal.tags = journals.map(\.name) }
        var weather = 0, media: [String: Int] = [:]
        for source in journals {
            for (index, item) in source.entries.enumerated() {
                func problem(_ reason: String) -> ImportProblem {
                    ImportProblem(line: nil, reason: String(format: tr("%@, entry %@: %@"), source.name, "\(index + 1)", reason))
                }
                guard let id = item["uuid"] as? String, !id.isEmpty else { throw problem(tr("its uuid is missing.")) }
                let dateText = item["creationDate"] as? String ?? ""
                guard let created = ExportedTime(iso8601: dateText) else {
                    throw problem(String(format: tr("its creationDate “%@” is not an ISO 8601 time."), dateText))
                }
                var text = item["text"] as? String ?? ""
                var photos: [ImportedPhoto] = [], leftBehind: [String] = []
                let moments = Self.moments(in: text)
                // Videos, audio and PDFs, by kind: named in the text, listed beside it, or both.
                var inText: [String: Int] = [:], listed: [String: Int] = [:]
                for (identifier, _) in moments {
                    if let kind = identifier.split(separator: "/").first, identifier.contains("/") {
                        inText[String(kind), default: 0] += 1
                    } else {
                        place(identifier, in: &photos, leftBehind: &leftBehind)
                    }
                }
                for (_, range) in moments.reversed() { text.removeSubrange(range) }
                // Listed here, named by no entry's text: still this entry's, after the others.
                for photo in item["photos"] as? [[String: Any]] ?? [] {
                    if let identifier = photo["identifier"] as? String, !named.contains(identifier) {
                        place(identifier, in: &photos, leftBehind: &leftBehind)
                    }
                }
                for kind in ["videos", "audios", "pdfAttachments"] {
                    let count = (item[kind] as? [Any])?.count ?? 0
                    if count > 0 { listed[kind.hasPrefix("pdf") ? "pdf" : String(kind.dropLast()), default: 0] += count }
                }
                for kind in Set(inText.keys).union(listed.keys) { media[kind, default: 0] += max(inText[kind] ?? 0, listed[kind] ?? 0) }
                if item["weather"] != nil { weather += 1 }
                let cleaned = ForeignText.unescapingMarkdown(text).replacingOccurrences(of: "\n\n\n+", with: "\n\n", options: .regularExpression)
                let (title, body) = ForeignText.titleAndBody(cleaned)
                var tags = (item["tags"] as? [String]) ?? []
                if tagged { tags.append(source.name) }
                if item["starred"] as? Bool == true { tags.append(JrnlExport.starredTag) }
                let modified = (item["modifiedDate"] as? String).flatMap(ExportedTime.init(iso8601:))
                var entry = ImportedEntry(uuid: ImportIdentity.uuid(["dayone", id]), title: title, body: body, mood: nil, createdAt: created,
                                          updatedAt: modified.flatMap { $0 > created ? $0 : nil }, tags: tags, location: Self.location(item["location"]))
                entry.photos = photos
                entry.leftBehind = leftBehind
                journal.entries.append(entry)
            }
        }
        if weather > 0 {
            journal.notImported.append(ForeignText.counted(weather, one: tr("weather of 1 entry"), many: tr("weather of %@ entries")))
        }
        for (kind, count) in media.sorted(by: { $0.key < $1.key }) {
            let words = switch kind {
            case "video": ForeignText.counted(count, one: tr("1 video"), many: tr("%@ videos"))
            case "audio": ForeignText.counted(count, one: tr("1 audio recording"), many: tr("%@ audio recordings"))
            default: ForeignText.counted(count, one: tr("1 PDF"), many: tr("%@ PDFs"))
            }
            journal.notImported.append(words)
        }
        return journal
    }

    /// Adds the photo `identifier` to `photos` (once), or its name to `leftBehind` when the
    /// export lacks it or it is no picture.
    private mutating func place(_ identifier: String, in photos: inout [ImportedPhoto], leftBehind: inout [String]) {
        guard let file = photoFiles[identifier], let archive, pictures.contains(file.member, in: archive) else {
            leftBehind.append(photoFiles[identifier]?.name ?? identifier)
            return
        }
        let photo = ImportedPhoto(fileName: file.name, member: file.member, archive: archive)
        guard !photos.contains(photo) else { return }
        photos.append(photo)
    }

    private static func location(_ value: Any?) -> Location? {
        guard let place = value as? [String: Any], let latitude = (place["latitude"] as? NSNumber)?.doubleValue,
              let longitude = (place["longitude"] as? NSNumber)?.doubleValue,
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return Location(latitude: latitude, longitude: longitude, accuracy: 0)
    }
}
