import Foundation

/// An entry read from a file to import, as it will be saved.
public struct ImportedEntry: Sendable, Equatable {
    /// Its identity: the file's own (Flourish JSON), or made from its contents (Daylio), so that
    /// importing the same file again finds every entry already there.
    public var uuid: String
    public var title: String
    public var body: String
    /// nil for an entry that came without a mood: it is kept without one.
    public var mood: Mood?
    public var createdAt: ExportedTime
    public var updatedAt: ExportedTime?
    public var tags: [String]
    public var location: Location?
    /// Other identities the same entry may already be in the journal under (a Daylio entry
    /// imported before from the other kind of Daylio file): found there, it is not added again.
    public var aliases: [String] = []
    /// The photos it carries, in order: read from the file when the entry is imported.
    public var photos: [ImportedPhoto] = []
    /// The photos the file names for it but does not hold as pictures (missing from it, or not
    /// a picture), each as the file names it: left behind, and said, once however many entries
    /// name it.
    public var leftBehind: [String] = []
    /// Its values, by measure name (the file's own measures, or one made by that name).
    public var measures: [String: Double] = [:]
}

extension [ImportedEntry] {
    /// How many came without a mood: said before the import, kept without one.
    public var withoutMood: Int { count { $0.mood == nil } }

    /// "From 2 March 2019 to 6 December 2026.": the days the entries span, for the preview;
    /// "" for none.
    public var spanWords: String {
        guard let first = map(\.createdAt).min(), let last = map(\.createdAt).max() else { return "" }
        let formatter = DateFormatter()
        formatter.dateStyle = .long
        formatter.timeStyle = .none
        let (from, to) = (formatter.string(from: first.date), formatter.string(from: last.date))
        return from == to ? String(format: tr("On %@."), from) : String(format: tr("From %@ to %@."), from, to)
    }
}

/// Why a file cannot be imported, and where: nothing of it is imported.
public struct ImportProblem: Error, Equatable, Sendable {
    /// The line of the file (1 is the first), when the problem has one.
    public let line: Int?
    public let reason: String

    public init(line: Int?, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// "Line 12: the mood is empty."
    public var message: String {
        line.map { String(format: tr("Line %@: %@"), "\($0)", reason) } ?? reason
    }
}

/// A file read for import: a Daylio export, whose moods the person maps to Flourish's before
/// anything is imported, or a Flourish JSON or ZIP export, imported as it is.
public enum ImportFile: Sendable {
    case daylio(DaylioExport)
    /// The entries, the file's list of tags, its measures and its templates (in their order).
    case flourish(entries: [ImportedEntry], tags: [String], measures: [ImportedMeasure], templates: [ImportedTemplate])
    /// Another app's journal (Day One, jrnl…: see `ImportSources`), imported as it is.
    case foreign(ForeignJournal)

    /// Reads the file at `path`: a ZIP file is a Daylio backup (with `backup.daylio`) or a
    /// Flourish ZIP export (with `journal.json`), whose photos are read only when imported;
    /// otherwise Flourish JSON when it starts with "{", or a Daylio CSV export.
    public static func read(path: String, calendar: Calendar = .current) throws(ImportProblem) -> ImportFile {
        func unreadable(_ error: Error) -> ImportProblem {
            ImportProblem(line: nil, reason: String(format: tr("%@ could not be read: %@."), path, (error as NSError).localizedDescription))
        }
        // Only a regular file is read: a pipe (or a link to one) would hold the read for ever,
        // and a device never ends. Asked before anything opens it.
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ImportProblem(line: nil, reason: String(format: tr("%@ could not be read: %@."), path, String(cString: strerror(errno))))
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            // A folder is one of Markdown notes or RedNotebook's data, or nothing Flourish reads.
            var input = ImportInput(path: path, archive: nil, text: nil, data: nil, calendar: calendar)
            input.folder = ImportFolder(root: path)
            guard let source = ImportSources.source(of: input) else {
                throw ImportProblem(line: nil, reason: tr("This folder holds no notes named by their day (such as 2024-03-02.md) and no RedNotebook months (2024-03.txt): choose such a folder, or an export file."))
            }
            return .foreign(try source.read(input).checked())
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ImportProblem(line: nil, reason: tr("This is not a file but a pipe or a device, so Flourish does not read it."))
        }
        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            head = try handle.read(upToCount: 4) ?? Data()
        } catch {
            throw unreadable(error)
        }
        if DaylioBackup.isZIP(head) || path.lowercased().hasSuffix(".daylio") {
            return try zipFile(path, isZIP: DaylioBackup.isZIP(head), calendar: calendar)
        }
        // Text is read whole: one larger than any journal's export is refused unread.
        guard status.st_size <= off_t(ForeignText.ownDocumentLimit) else {
            throw ImportProblem(line: nil, reason: String(format: tr("The file is larger than %@ MiB, more than any journal’s export: it is not imported."),
                                                          "\(ForeignText.ownDocumentLimit >> 20)"))
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw unreadable(error)
        }
        guard let text = String(data: data, encoding: .utf8) ?? utf16(data) else {
            throw ImportProblem(line: nil, reason: tr("The file is not UTF-8 text, so it is neither a Daylio nor a Flourish export."))
        }
        let isJSON = text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "{"
        // Flourish's own export first (it names itself); then the other apps', by their shape.
        if !(isJSON && text.contains(ExportDocument.formatName)) {
            // One input, its JSON parsed once, both to recognise the file and to read it.
            let input = ImportInput(path: path, archive: nil, text: text, data: data, calendar: calendar)
            if let source = ImportSources.source(of: input) { return .foreign(try source.read(input).checked()) }
        }
        if isJSON {
            let (entries, tags, measures, templates) = try FlourishJSON.entries(in: text, data: data)
            return .flourish(entries: entries, tags: tags, measures: measures, templates: templates)
        }
        return .daylio(try DaylioExport(text: text, calendar: calendar))
    }

    /// A Daylio backup or a Flourish ZIP export, by what it holds.
    private static func zipFile(_ path: String, isZIP: Bool, calendar: Calendar) throws(ImportProblem) -> ImportFile {
        guard let archive = ImportArchive(path: path) else {
            throw ImportProblem(line: nil, reason: isZIP ? tr("This ZIP file is damaged: it cannot be read.")
                                : tr("This is not a Daylio backup: it is not a ZIP file."))
        }
        if archive.contains(DaylioBackup.member) { return .daylio(try DaylioBackup.read(archive)) }
        guard archive.contains(ZIPExport.journalMember) else {
            let input = ImportInput(path: path, archive: archive, text: nil, data: nil, calendar: calendar)
            if let source = ImportSources.source(of: input) { return .foreign(try source.read(input).checked()) }
            throw ImportProblem(line: nil, reason: tr("This ZIP file is none of the exports Flourish reads (Flourish’s, Daylio’s or Diaro’s backup, Day One’s, Journey’s, a folder of notes), so there is nothing in it to import."))
        }
        // Flourish's own journal can be large (years of long entries): a bound of its own.
        let data = try ForeignText.bytes(of: ZIPExport.journalMember, in: archive, limit: ForeignText.ownDocumentLimit) ?? Data()
        let (entries, tags, measures, templates) = try FlourishJSON.entries(in: String(decoding: data, as: UTF8.self), data: data, archive: archive)
        return .flourish(entries: entries, tags: tags, measures: measures, templates: templates)
    }

    /// The measures the file brings, in its order (its entries' values name them).
    public var measures: [ImportedMeasure] {
        switch self {
        case .daylio(let export): export.measures
        case .flourish(_, _, let measures, _): measures
        case .foreign: []
        }
    }

    /// The templates the file brings (a Flourish export's), in its order.
    public var templates: [ImportedTemplate] {
        if case .flourish(_, _, _, let templates) = self { templates } else { [] }
    }

    /// Tags the file names beyond its entries' own (all of Flourish's; a foreign journal's).
    public var tags: [String] {
        switch self {
        case .daylio: []
        case .flourish(_, let tags, _, _): tags
        case .foreign(let journal): journal.tags
        }
    }

    /// The entries as they will be imported; nil for a Daylio file, whose moods are mapped first.
    public var entries: [ImportedEntry]? {
        switch self {
        case .daylio: nil
        case .flourish(let entries, _, _, _): entries
        case .foreign(let journal): journal.entries
        }
    }

    /// What an import's preview says of the file beyond its counts (see `DaylioExport.remarks`;
    /// of a Flourish file, the photos it names but does not hold); "" when there is nothing.
    public var remarks: String {
        switch self {
        case .daylio(let export): export.remarks
        case .flourish(let entries, _, _, _): Self.photosLeftBehind(Set(entries.flatMap(\.leftBehind)).count)
        case .foreign(let journal):
            ([Self.photosLeftBehind(Set(journal.entries.flatMap(\.leftBehind)).count)]
                + (journal.notImported.isEmpty ? [] : [String(format: tr("Not imported: %@."), journal.notImported.joined(separator: ", "))]))
                .filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    /// What the import leaves out of measures' values, said before it, never in silence: a
    /// value a scale cannot hold (7 on 1 to 5, a half step) or one that is not a number. One
    /// sentence per measure ("2 values of “Energy” are not one of its steps (1 to 5), and are
    /// not kept."); "" for none. Measures are matched by name, in any case.
    public static func valuesNotKept(in entries: [ImportedEntry], measures: [ImportedMeasure]) -> String {
        let kinds = Dictionary(measures.map { (MeasureDefinition.key($0.definition.name), $0.definition.kind) }, uniquingKeysWith: { first, _ in first })
        var refused: [String: (name: String, count: Int)] = [:]
        for entry in entries {
            for (name, value) in entry.measures {
                let kind = kinds[MeasureDefinition.key(name)] ?? .number
                let kept = value.isFinite && (kind == .number || MeasureKind.scaleSteps.contains(value) && value.rounded() == value)
                if !kept { refused[MeasureDefinition.key(name), default: (name, 0)].count += 1 }
            }
        }
        return refused.values.sorted { $0.name < $1.name }.map { name, count in
            count == 1 ? String(format: tr("1 value of “%@” is not one it can hold, and is not kept."), name)
                : String(format: tr("%@ values of “%@” are not ones it can hold, and are not kept."), "\(count)", name)
        }.joined(separator: " ")
    }

    /// "2 photos are left behind: …", or "" for none.
    static func photosLeftBehind(_ count: Int) -> String {
        switch count {
        case 0: ""
        case 1: tr("1 photo is left behind: it is missing from the file or is not a picture.")
        default: String(format: tr("%@ photos are left behind: they are missing from the file or are not pictures."), "\(count)")
        }
    }

    /// Text a spreadsheet saved as "Unicode" (UTF-16, with its byte order mark).
    private static func utf16(_ data: Data) -> String? {
        guard data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) else { return nil }
        return String(data: data, encoding: .utf16)
    }
}

/// Reads Flourish's own JSON export (`ExportDocument`), alone or in its ZIP export (`archive`,
/// which holds the photos the entries name).
enum FlourishJSON {
    static func entries(in text: String, data: Data, archive: ImportArchive? = nil) throws(ImportProblem)
        -> ([ImportedEntry], [String], [ImportedMeasure], [ImportedTemplate]) {
        let document: ExportDocument
        do {
            document = try JSONDecoder().decode(ExportDocument.self, from: data)
        } catch {
            throw ImportProblem(line: nil, reason: String(format: tr("This is not a Flourish export: %@"), describe(error)))
        }
        guard document.format == ExportDocument.formatName else {
            throw ImportProblem(line: line(of: "\"format\"", in: text), reason: String(format: tr("the format is “%@”, not “%@”."), document.format, ExportDocument.formatName))
        }
        guard document.version <= ExportDocument.currentVersion else {
            throw ImportProblem(line: line(of: "\"version\"", in: text),
                                reason: String(format: tr("it was written by a newer Flourish (format version %@); update Flourish to import it."), "\(document.version)"))
        }
        var measures: [ImportedMeasure] = []
        for exported in document.measures ?? [] {
            guard let measure = exported.imported else {
                throw ImportProblem(line: line(of: "\"\(exported.kind)\"", in: text),
                                    reason: String(format: tr("the measure “%@” is of a kind Flourish does not know (“%@”)."), exported.name, exported.kind))
            }
            measures.append(measure)
        }
        var entries: [ImportedEntry] = []
        entries.reserveCapacity(document.entries.count)
        var pictures = KeepablePictures()
        for (index, exported) in document.entries.enumerated() {
            func problem(_ reason: String) -> ImportProblem {
                // The line is looked for only for a problem: looking for every entry's would
                // read the file once an entry.
                let at = line(of: "\"uuid\":\"\(exported.uuid)\"", in: text) ?? line(of: exported.uuid, in: text)
                return ImportProblem(line: at, reason: String(format: tr("entry %@: %@"), "\(index + 1)", reason))
            }
            guard !exported.uuid.trimmingCharacters(in: .whitespaces).isEmpty else { throw problem(tr("its uuid is empty.")) }
            // null: an entry without a mood, kept without one.
            let mood = exported.mood.flatMap(Mood.init(rawValue:))
            if let number = exported.mood, mood == nil {
                throw problem(String(format: tr("its mood %@ is not one of 0 (the best) to 5 (the worst)."), "\(number)"))
            }
            guard let created = ExportedTime(iso8601: exported.createdAt) else {
                throw problem(String(format: tr("its created_at “%@” is not an ISO 8601 time."), exported.createdAt))
            }
            var updated: ExportedTime?
            if let text = exported.updatedAt {
                guard let time = ExportedTime(iso8601: text) else {
                    throw problem(String(format: tr("its updated_at “%@” is not an ISO 8601 time."), text))
                }
                updated = time
            }
            let location = exported.location.map { Location(latitude: $0.latitude, longitude: $0.longitude, accuracy: $0.accuracy) }
            if let location, !(-90...90).contains(location.latitude) || !(-180...180).contains(location.longitude) || !(location.accuracy >= 0) {
                throw problem(tr("its location is not a place on Earth."))
            }
            var entry = ImportedEntry(uuid: exported.uuid, title: exported.title.withoutNUL, body: exported.body.withoutNUL, mood: mood,
                                      createdAt: created, updatedAt: updated, tags: exported.tags, location: location)
            entry.measures = exported.measures ?? [:]
            for photo in exported.photos ?? [] {
                if let archive, pictures.contains(photo.file, in: archive) {
                    entry.photos.append(ImportedPhoto(fileName: photo.name, member: photo.file, archive: archive))
                } else {
                    entry.leftBehind.append(photo.file)
                }
            }
            entries.append(entry)
        }
        var templates: [ImportedTemplate] = []
        for exported in document.templates ?? [] {
            guard let template = exported.imported else {
                throw ImportProblem(line: line(of: "\"\(exported.uuid)\"", in: text),
                                    reason: String(format: tr("the template “%@” has no name, or a mood that is not one of 0 to 5."), exported.name))
            }
            templates.append(template)
        }
        return (entries, document.tags, measures, templates)
    }

    /// The first line holding `needle` (with or without the space JSON may put after a colon).
    static func line(of needle: String, in text: String) -> Int? {
        let spaced = needle.replacingOccurrences(of: "\":\"", with: "\": \"")
        guard let range = text.range(of: needle) ?? text.range(of: spaced) else { return nil }
        return text[..<range.lowerBound].reduce(1) { $1 == "\n" || $1 == "\r\n" ? $0 + 1 : $0 }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return String(format: tr("“%@” is missing at %@."), key.stringValue, path(context))
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return String(format: tr("the value at %@ is of the wrong kind."), path(context))
        case DecodingError.dataCorrupted(let context):
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
            return String(format: tr("it is not valid JSON (%@)."), detail)
        default:
            return "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.map { $0.intValue.map { "entry \($0 + 1)" } ?? $0.stringValue }
        return keys.isEmpty ? tr("the top") : keys.joined(separator: " › ")
    }
}
