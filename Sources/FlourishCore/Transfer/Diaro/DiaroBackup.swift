import Foundation

/// Diaro's backup: a ZIP file of `DiaroBackup.xml` and `media/photo/`, or the XML alone. The
/// XML holds tables of rows (`<table name="diaro_entries"><r><uid>…</uid>…</r></table>`):
/// `diaro_entries` (`uid`, `date` in milliseconds since 1970, `title`, `text`, `folder_uid`,
/// `location_uid`, `tags` as `,uid,uid,`, `mood` 1 the best to 5 the worst, or empty),
/// `diaro_tags` and `diaro_folders` (a folder becomes a tag), `diaro_locations` (`lat`, `lng`)
/// and `diaro_attachments` (`entry_uid`, `type` photo, `filename`, `position`).
///
/// An encrypted backup is refused in words; so is XML with a document type (entities are never
/// expanded). An entry's identity comes from its `uid`.
enum DiaroBackup: ImportSource {
    static let member = "DiaroBackup.xml"

    static func recognises(_ input: ImportInput) -> Bool {
        if let archive = input.archive {
            return archive.paths.contains { ($0 as NSString).lastPathComponent.hasPrefix(member) }
        }
        return input.text.map { $0.prefix(4_096).contains("diaro_entries") && $0.prefix(4_096).contains("<table") } ?? false
    }

    static func read(_ input: ImportInput) throws(ImportProblem) -> ForeignJournal {
        let data: Data
        var folder = ""
        if let archive = input.archive {
            guard let path = archive.paths.first(where: { ($0 as NSString).lastPathComponent == member }) else {
                throw ImportProblem(line: nil, reason: tr("This Diaro backup is encrypted: Flourish cannot read it. Make a backup in Diaro without encryption, then import that."))
            }
            folder = (path as NSString).deletingLastPathComponent
            data = try ForeignText.bytes(of: path, in: archive) ?? Data()
        } else {
            data = input.data ?? Data()
        }
        let tables = try DiaroTables.read(data)
        return try DiaroEntries(tables: tables, archive: input.archive, mediaFolder: folder.isEmpty ? "media/photo" : "\(folder)/media/photo").journal()
    }
}

/// The backup's tables, each a list of rows of named values, read with no document type and no
/// entity expanded.
struct DiaroTables {
    var rows: [String: [[String: String]]] = [:]

    static func read(_ data: Data) throws(ImportProblem) -> DiaroTables {
        guard let head = String(data: data.prefix(64), encoding: .utf8), head.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<") else {
            throw ImportProblem(line: nil, reason: tr("This Diaro backup is encrypted: Flourish cannot read it. Make a backup in Diaro without encryption, then import that."))
        }
        // A document type could define entities that expand to gigabytes: Diaro writes none.
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil || data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw ImportProblem(line: nil, reason: tr("This Diaro backup declares a document type, which Diaro never writes: it is not imported."))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportProblem(line: nil, reason: tr("This Diaro backup’s XML is not UTF-8 text."))
        }
        var reader = Reader(text)
        return try reader.tables()
    }

    /// Diaro's XML read as it is written: elements with text, a table's `name` attribute, the
    /// five named entities and character references, CDATA. A hand reader, not a general XML
    /// parser: nothing in the file can make it fetch, expand or nest without bound.
    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1

        init(_ text: String) { scalars = Array(text.unicodeScalars) }

        private func damaged(_ what: String) -> ImportProblem {
            ImportProblem(line: line, reason: String(format: tr("This Diaro backup’s XML is damaged: %@"), what))
        }

        private func starts(_ text: String) -> Bool {
            var at = index
            for scalar in text.unicodeScalars {
                guard at < scalars.count, scalars[at] == scalar else { return false }
                at += 1
            }
            return true
        }

        /// Moves past `text`'s next occurrence; returns what came before it.
        private mutating func until(_ text: String) throws(ImportProblem) -> String {
            var out = String.UnicodeScalarView()
            while index < scalars.count {
                if starts(text) {
                    index += text.unicodeScalars.count
                    return String(out)
                }
                if scalars[index] == "\n" { line += 1 }
                out.append(scalars[index])
                index += 1
            }
            throw damaged(String(format: tr("“%@” is missing."), text))
        }

        private static func decoded(_ text: String) -> String {
            guard text.contains("&") else { return text }
            var out = ""
            var rest = Substring(text)
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                    out += "&"
                    rest = rest[rest.index(after: amp)...]
                    continue
                }
                let name = rest[rest.index(after: amp)..<semi]
                let named: [Substring: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
                if let character = named[name] {
                    out += character
                } else if name.hasPrefix("#"), let code = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name.dropFirst()),
                          let scalar = Unicode.Scalar(code) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += rest[amp...semi]
                }
                rest = rest[rest.index(after: semi)...]
            }
            return out + rest
        }

        mutating func tables() throws(ImportProblem) -> DiaroTables {
            var tables = DiaroTables()
            var table: String?, row: [String: String]?, field: String?, value = ""
            while index < scalars.count {
                if starts("<?") { _ = try until("?>"); continue }
                if starts("<!--") { _ = try until("-->"); continue }
                if starts("<![CDATA[") {
                    index += 9
                    let data = try until("]]>")
                    if field != nil { value += data }
                    continue
                }
                if starts("<") {
                    index += 1
                    let tag = try until(">")
                    if tag.hasPrefix("/") {
                        let name = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces)
                        if let current = field, name == current {
                            row?[current] = Self.decoded(value)
                            field = nil
                        } else if name == "r", let name = table, let done = row {
                            tables.rows[name, default: []].append(done)
                            row = nil
                        } else if name == "table" {
                            table = nil
                        }
                        continue
                    }
                    let empty = tag.hasSuffix("/")
                    let body = empty ? String(tag.dropLast()) : tag
                    let name = String(body.prefix { !$0.isWhitespace })
                    if name == "table" {
                        table = body.range(of: "name=\"").flatMap { start in
                            body[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
                        }
                    } else if name == "r", table != nil, row == nil {
                        row = empty ? nil : [:]
                    } else if row != nil, field == nil {
                        if empty { row?[name] = "" } else { (field, value) = (name, "") }
                    } else if field != nil {
                        throw damaged(String(format: tr("“%@” inside a value."), name))
                    }
                    continue
                }
                if scalars[index] == "\n" { line += 1 }
                if field != nil { value.unicodeScalars.append(scalars[index]) }
                index += 1
            }
            return tables
        }
    }
}

/// Diaro's rows turned into Flourish's entries.
struct DiaroEntries {
    let tables: DiaroTables
    let archive: ImportArchive?
    let mediaFolder: String

    func journal() throws(ImportProblem) -> ForeignJournal {
        var journal = ForeignJournal(source: "Diaro")
        let rows = tables.rows
        func titles(_ table: String) -> [String: String] {
            Dictionary((rows[table] ?? []).compactMap { row in row["uid"].map { ($0, (row["title"] ?? "").trimmingCharacters(in: .whitespaces)) } },
                       uniquingKeysWith: { first, _ in first })
        }
        let tags = titles("diaro_tags"), folders = titles("diaro_folders")
        var places: [String: Location] = [:]
        for row in rows["diaro_locations"] ?? [] {
            if let uid = row["uid"], let latitude = row["lat"].flatMap(Double.init), let longitude = row["lng"].flatMap(Double.init),
               (-90...90).contains(latitude), (-180...180).contains(longitude), !(latitude == 0 && longitude == 0) {
                places[uid] = Location(latitude: latitude, longitude: longitude, accuracy: 0)
            }
        }
        var photos: [String: [(position: Int, file: String)]] = [:]
        var otherAttachments = 0
        for row in rows["diaro_attachments"] ?? [] {
            guard let entry = row["entry_uid"], let file = row["filename"], !file.isEmpty else { continue }
            if row["type"] == "photo" {
                photos[entry, default: []].append((Int(row["position"] ?? "") ?? 0, file))
            } else {
                otherAttachments += 1
            }
        }
        var weather = 0
        var pictures = KeepablePictures()
        for (index, row) in (rows["diaro_entries"] ?? []).enumerated() {
            func problem(_ reason: String) -> ImportProblem {
                ImportProblem(line: nil, reason: String(format: tr("entry %@: %@"), "\(index + 1)", reason))
            }
            guard let uid = row["uid"], !uid.isEmpty else { throw problem(tr("its uid is missing.")) }
            guard let milliseconds = row["date"].flatMap(Int64.init), milliseconds.magnitude < 1_000_000_000_000_000 else {
                throw problem(String(format: tr("its date “%@” is not a time."), row["date"] ?? ""))
            }
            var mood: Mood?
            if let text = row["mood"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text != "0" {
                guard let step = Int(text), (1...5).contains(step) else {
                    throw problem(String(format: tr("its mood %@ is not one of Diaro’s five (1 to 5)."), text))
                }
                mood = DaylioMoods.mood(forStep: step)
            }
            var entryTags = (row["tags"] ?? "").split(separator: ",").compactMap { tags[String($0)] }.filter { !$0.isEmpty }
            if let folder = row["folder_uid"].flatMap({ folders[$0] }), !folder.isEmpty { entryTags.append(folder) }
            var entry = ImportedEntry(uuid: ImportIdentity.uuid(["diaro", uid]),
                                      title: (row["title"] ?? "").withoutNUL.oneLine.trimmingCharacters(in: .whitespaces),
                                      body: (row["text"] ?? "").withoutNUL.trimmingCharacters(in: .whitespacesAndNewlines),
                                      mood: mood, createdAt: ExportedTime(milliseconds: milliseconds), tags: entryTags,
                                      location: row["location_uid"].flatMap { places[$0] })
            for (_, file) in (photos[uid] ?? []).sorted(by: { $0.position < $1.position }) {
                let member = "\(mediaFolder)/\(file)"
                if let archive, pictures.contains(member, in: archive) {
                    entry.photos.append(ImportedPhoto(fileName: file, member: member, archive: archive))
                } else {
                    entry.leftBehind.append(file)
                }
            }
            if !(row["weather_temperature"] ?? "").isEmpty || !(row["weather_description"] ?? "").isEmpty { weather += 1 }
            journal.entries.append(entry)
        }
        if weather > 0 {
            journal.notImported.append(ForeignText.counted(weather, one: tr("weather of 1 entry"), many: tr("weather of %@ entries")))
        }
        if otherAttachments > 0 {
            journal.notImported.append(ForeignText.counted(otherAttachments, one: tr("1 attachment that is not a photo"),
                                                           many: tr("%@ attachments that are not photos")))
        }
        return journal
    }
}
