import Foundation

/// A journal another app wrote (Day One, jrnl…), read into Flourish's entries. Reading,
/// preview, photos, undo and the window are shared: a source only turns its file into these.
public struct ForeignJournal: Sendable {
    /// The app that wrote it, as the preview names it: "Day One".
    public let source: String
    public var entries: [ImportedEntry] = []
    /// Tags to make even if no entry carries them (a journal's name, say); entries' own tags
    /// are made anyway.
    public var tags: [String] = []
    /// What the file holds that Flourish has no place for, each counted and named: "weather of
    /// 212 entries", "3 videos". Said in the preview and by `--import`, never dropped in silence.
    public var notImported: [String] = []

    public init(source: String) {
        self.source = source
    }

    /// The years a journal's times can hold (its dates are written with four digits).
    static let earliest = ExportedTime(milliseconds: Int64(Insights.Day(year: 1, month: 1, day: 1).number) * 86_400_000)
    static let latest = ExportedTime(milliseconds: Int64(Insights.Day(year: 9999, month: 12, day: 31).number + 1) * 86_400_000 - 1)

    /// The journal, each entry's times checked: one outside the years 1 to 9999 refuses the file
    /// (saved, it would come back unreadable).
    func checked() throws(ImportProblem) -> ForeignJournal {
        for (index, entry) in entries.enumerated() {
            for time in [entry.createdAt] + (entry.updatedAt.map { [$0] } ?? []) where time < Self.earliest || time > Self.latest {
                throw ImportProblem(line: nil, reason: String(format: tr("entry %@: its time is not between the years 1 and 9999."), "\(index + 1)"))
            }
        }
        return self
    }
}

/// A file to import, as a source is given it to recognise and read: its path, and either the
/// ZIP file it is or its text.
struct ImportInput {
    let path: String
    /// The file read as a ZIP file, when it is one.
    let archive: ImportArchive?
    /// The folder chosen, when it is one (Markdown notes).
    var folder: ImportFolder?
    /// The file's text, when it is not a ZIP file (UTF-8, or UTF-16 with its byte order mark).
    let text: String?
    let data: Data?
    let calendar: Calendar

    /// The text parsed as JSON, once, for sources that recognise JSON by its shape.
    let json: Any?

    init(path: String, archive: ImportArchive?, text: String?, data: Data?, calendar: Calendar) {
        self.path = path
        self.archive = archive
        self.text = text
        self.data = data
        self.calendar = calendar
        json = text.flatMap { text in
            text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "{"
                ? data.flatMap { try? JSONSerialization.jsonObject(with: $0) } : nil
        }
    }
}

/// One app's files: how to tell them, and how to read them. Each lives in its own folder under
/// Transfer/, and is registered by one line in `ImportSources.all`.
protocol ImportSource {
    /// Whether the file is this source's (by its content, never its name alone).
    static func recognises(_ input: ImportInput) -> Bool
    /// The file's entries; a file that cannot be imported throws, naming why in one line.
    static func read(_ input: ImportInput) throws(ImportProblem) -> ForeignJournal
}

/// Every source Flourish imports besides its own files and Daylio's, in the order they are
/// asked whether a file is theirs.
enum ImportSources {
    static let all: [any ImportSource.Type] = [
        DayOneExport.self,
        DiaroBackup.self,
        JourneyExport.self,
        JrnlExport.self,
        MarkdownNotes.self,
        RedNotebookData.self,
    ]

    /// The source that recognises `input`, if any.
    static func source(of input: ImportInput) -> (any ImportSource.Type)? {
        all.first { $0.recognises(input) }
    }
}

/// Reading what other apps write, shared by the sources.
enum ForeignText {
    /// A JSON document past this, unpacked, is refused before it is inflated whole: no journal's
    /// is near it, and a file made to inflate to gigabytes never is.
    static let documentLimit = 64 << 20
    /// The same for Flourish's own export and Daylio's backup, which hold a whole journal.
    static let ownDocumentLimit = 512 << 20

    /// The bytes of `member`, read within `documentLimit`; one too large or damaged is refused
    /// in words. Nil when there is no such file.
    static func bytes(of member: String, in files: any ImportFiles, limit: Int = documentLimit) throws(ImportProblem) -> Data? {
        do {
            return try files.data(of: member, limit: limit)
        } catch is ImportArchive.TooLarge {
            throw ImportProblem(line: nil, reason: String(format: tr("Its %@ is larger than %@ MiB unpacked, more than any journal’s: it is not imported."),
                                                          member, "\(limit >> 20)"))
        } catch {
            throw ImportProblem(line: nil, reason: String(format: tr("Its %@ cannot be unpacked: the file is damaged."), member))
        }
    }

    /// The text of `member` (UTF-8); nil when it is not there or not UTF-8 text.
    static func text(of member: String, in files: any ImportFiles) throws(ImportProblem) -> String? {
        try bytes(of: member, in: files).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// `member` parsed as JSON; nil when it is not there or not JSON.
    static func json(of member: String, in files: any ImportFiles) throws(ImportProblem) -> Any? {
        try bytes(of: member, in: files).flatMap { try? JSONSerialization.jsonObject(with: $0) }
    }

    /// Markdown's backslash escapes undone ("1\. Walk" is "1. Walk"): a backslash before ASCII
    /// punctuation stands for that character.
    static func unescapingMarkdown(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                if !(character.isASCII && character.isPunctuation || character.isASCII && character.isSymbol) { result.append("\\") }
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        if escaped { result.append("\\") }
        return result
    }

    /// The first line as the title (its heading marks, "# ", taken off) and the rest as the body,
    /// blank lines around it trimmed.
    static func titleAndBody(_ text: String) -> (title: String, body: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let lines = trimmed.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        var title = String(lines.first ?? "").trimmingCharacters(in: .whitespaces)
        // "# Title" is a heading; "#hashtag" is not.
        let marks = title.prefix { $0 == "#" }
        if !marks.isEmpty, marks.count <= 6, title.dropFirst(marks.count).first == " " {
            title = String(title.dropFirst(marks.count)).trimmingCharacters(in: .whitespaces)
        }
        let body = lines.count > 1 ? String(lines[1]).trimmingCharacters(in: .whitespacesAndNewlines) : ""
        return (title.withoutNUL.oneLine, body.withoutNUL)
    }

    /// "3 videos", "1 video".
    static func counted(_ count: Int, one: String, many: String) -> String {
        count == 1 ? one : String(format: many, "\(count)")
    }
}
