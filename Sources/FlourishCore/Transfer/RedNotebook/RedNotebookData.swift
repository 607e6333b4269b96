import Foundation

/// RedNotebook's journal: its data folder (`~/.rednotebook/data`) of month files named
/// `YYYY-MM.txt`, a backup ZIP file of them, or one month file. Each month file is YAML
/// (`RedNotebookYAML`): each day of the month by its number, with its `text` (txt2tags markup,
/// made readable here) and its categories (`Work: {Meeting with Sam: null}`), which become
/// tags, each category's entries kept as lines at the end of the text ("Work: Meeting with
/// Sam"). A day is an entry at noon, local time; RedNotebook keeps no mood and no titles: the
/// first line is the title. An image the text links to (`[""/home/sam/beach"".jpg]`) comes as a
/// photo when the file is on this computer, and is said as left behind when it is not. A day's
/// identity is its date.
public enum RedNotebookData: ImportSource {
    /// Where RedNotebook keeps its journal.
    public static var defaultFolder: String {
        // $HOME first, as RedNotebook itself finds it (NSHomeDirectory reads the password database).
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return (home as NSString).appendingPathComponent(".rednotebook/data")
    }

    /// Whether this computer keeps a RedNotebook journal (a month file in its folder): the main
    /// menu then offers to import it.
    public static var hasJournal: Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: defaultFolder)) ?? []).contains { month(of: $0) != nil }
    }

    static func recognises(_ input: ImportInput) -> Bool {
        if let files = input.folder.map({ $0 as any ImportFiles }) ?? input.archive {
            return files.paths.contains { month(of: $0) != nil }
        }
        guard let text = input.text, month(of: input.path) != nil else { return false }
        return text.contains("text:")
    }

    /// The year and month a file's name gives ("2024-03.txt").
    static func month(of path: String) -> (year: Int, month: Int)? {
        let name = (path as NSString).lastPathComponent
        guard name.count == 11, name.hasSuffix(".txt"), Array(name)[4] == "-",
              let year = Int(name.prefix(4)), let month = Int(name.dropFirst(5).prefix(2)), (1...12).contains(month) else { return nil }
        return (year, month)
    }

    static func read(_ input: ImportInput) throws(ImportProblem) -> ForeignJournal {
        var reader = RedNotebookReader(calendar: input.calendar)
        if let files = input.folder.map({ $0 as any ImportFiles }) ?? input.archive {
            for path in files.paths {
                guard let month = month(of: path) else { continue }
                guard let text = try ForeignText.text(of: path, in: files) else {
                    throw ImportProblem(line: nil, reason: String(format: tr("Its %@ is not UTF-8 text."), path))
                }
                try reader.add(text, name: path, month: month)
            }
        } else if let text = input.text, let month = month(of: input.path) {
            try reader.add(text, name: (input.path as NSString).lastPathComponent, month: month)
        }
        return reader.finished()
    }
}

/// Reads month files into one journal.
struct RedNotebookReader {
    let calendar: Calendar
    private var journal = ForeignJournal(source: "RedNotebook")
    /// Pictures on this computer, by their full path ("/home/sam/beach.jpg" is "home/sam/beach.jpg").
    private let computer = ImportFolder(root: "/", listing: false)
    /// A picture named by several days is read and decoded once.
    private var keepable = KeepablePictures()

    init(calendar: Calendar) {
        self.calendar = calendar
    }

    mutating func add(_ text: String, name: String, month: (year: Int, month: Int)) throws(ImportProblem) {
        let document: RedNotebookYAML.Node
        do {
            document = try RedNotebookYAML.parse(text)
        } catch {
            throw ImportProblem(line: error.line, reason: String(format: tr("%@ is not a RedNotebook month: its YAML cannot be read."), name))
        }
        guard case .mapping(let days) = document else { return }
        for (key, content) in days {
            guard let day = Int(key), (1...Insights.Day.length(ofMonth: month.month, in: month.year)).contains(day) else {
                throw ImportProblem(line: nil, reason: String(format: tr("%@: “%@” is not a day of the month."), name, key))
            }
            guard case .mapping(let fields) = content else { continue }
            var words = ""
            var tags: [String] = [], lines: [String] = []
            for (field, value) in fields {
                if field == "text", case .scalar(let text) = value {
                    words = text
                } else {
                    tags.append(field)
                    if case .mapping(let items) = value { lines += items.map { "\(field): \($0.key)" } }
                }
            }
            var (readable, pictures) = RedNotebookMarkup.readable(words)
            if !lines.isEmpty { readable += (readable.isEmpty ? "" : "\n\n") + lines.joined(separator: "\n") }
            let (title, body) = ForeignText.titleAndBody(readable)
            guard !title.isEmpty || !body.isEmpty || !tags.isEmpty else { continue }
            let noon = calendar.date(from: DateComponents(year: month.year, month: month.month, day: day, hour: 12)) ?? Date(timeIntervalSince1970: 0)
            let date = String(format: "%04d-%02d-%02d", month.year, month.month, day)
            var entry = ImportedEntry(uuid: ImportIdentity.uuid(["rednotebook", date]), title: title, body: body, mood: nil,
                                      createdAt: ExportedTime(noon), tags: tags)
            for picture in pictures {
                let member = String(picture.drop { $0 == "/" })
                if picture.hasPrefix("/"), keepable.contains(member, in: computer) {
                    let photo = ImportedPhoto(fileName: (picture as NSString).lastPathComponent, member: member, archive: computer)
                    if !entry.photos.contains(photo) { entry.photos.append(photo) }
                } else {
                    entry.leftBehind.append(picture)
                }
            }
            pictures.removeAll()
            journal.entries.append(entry)
        }
    }

    func finished() -> ForeignJournal { journal }
}

/// txt2tags, as RedNotebook writes it, made plain text: bold, italic, underline, strike and
/// monospace marks dropped, headings their words, a link its words and address, an image taken
/// out (returned, by its path) to come as a photo.
enum RedNotebookMarkup {
    /// Compiled once; only read after, so shared across threads.
    private nonisolated(unsafe) static let image = expression("\\[\"\"([^\"\\]]+)\"\"(\\.[A-Za-z0-9]+)(\\?[0-9]+)?\\]")
    private nonisolated(unsafe) static let rewrites: [(NSRegularExpression, String)] = [
        (expression("\\[([^\\[\\]\"]+?)\\s+\"\"([^\"\\]]+)\"\"\\]"), "$1 ($2)"),
        (expression("\\[([^\\[\\]]+?)\\s+([A-Za-z][A-Za-z0-9+.-]*://[^\\s\\]]+)\\]"), "$1 ($2)"),
        (expression("(?m)^[ \\t]*(=+|\\++)[ \\t]*(.+?)[ \\t]*\\1[ \\t]*$"), "$2"),
        (expression("\\*\\*(.+?)\\*\\*"), "$1"),
        (expression("(?<![:/])//(.+?)//"), "$1"),
        (expression("__(.+?)__"), "$1"),
        (expression("--(.+?)--"), "$1"),
        (expression("``(.+?)``"), "$1"),
    ]

    private static func expression(_ pattern: String) -> NSRegularExpression {
        // The patterns are this file's own literals: a typo is a crash every test would see.
        try! NSRegularExpression(pattern: pattern)
    }

    static func readable(_ text: String) -> (text: String, pictures: [String]) {
        let whole = NSRange(location: 0, length: (text as NSString).length)
        var pictures: [String] = []
        for match in image.matches(in: text, range: whole) {
            var path = (text as NSString).substring(with: match.range(at: 1)) + (text as NSString).substring(with: match.range(at: 2))
            if path.hasPrefix("file://") { path = String(path.dropFirst(7)).removingPercentEncoding ?? String(path.dropFirst(7)) }
            pictures.append(path)
        }
        var plain = image.stringByReplacingMatches(in: text, range: whole, withTemplate: "")
        for (pattern, template) in rewrites {
            plain = pattern.stringByReplacingMatches(in: plain, range: NSRange(location: 0, length: (plain as NSString).length), withTemplate: template)
        }
        // Where an image stood alone, no blank line (or line of spaces) is left behind it.
        plain = plain.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : String($0) }.joined(separator: "\n")
            .replacingOccurrences(of: "\n\n\n+", with: "\n\n", options: .regularExpression)
        return (plain, pictures)
    }
}
