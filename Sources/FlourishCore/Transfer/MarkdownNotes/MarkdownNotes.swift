import Foundation

/// Markdown daily notes (Obsidian's, Logseq's journals, Daily_You's Markdown export): a folder,
/// or a ZIP file of one, of notes named by their day (`2024-03-02.md`, a suffix allowed:
/// `2024-03-02 Saturday.md`), or one such note alone.
///
/// A note is that day at noon, in this computer's time zone. Optional YAML front matter gives
/// `tags` (`[a, b]`, `a, b`, or a list of `- a` lines) and `mood` (1 the best to 5 the worst, as
/// Daylio's steps, or a mood's name: Flourish's six or Daylio's five); a mood given that is none
/// of these is counted as not imported, and the note comes without one, as a note without a
/// mood does. The first line (heading marks taken off) is the title, the rest the body. Pictures
/// embedded as `![](path)` (beside the note, or anywhere in the folder by name) or `![[name]]`
/// (by name, anywhere in the folder) become the entry's photos and leave the text; one not in
/// the folder is said. A note not named by a date is not an entry, and is counted.
enum MarkdownNotes: ImportSource {
    static func recognises(_ input: ImportInput) -> Bool {
        if let files = input.folder.map({ $0 as any ImportFiles }) ?? input.archive {
            return files.paths.contains { day(of: $0) != nil }
        }
        return input.text != nil && day(of: input.path) != nil
    }

    /// The day a note's file name gives ("2024-03-02…md"), or nil for a note not named by one.
    static func day(of path: String) -> Insights.Day? {
        let name = (path as NSString).lastPathComponent
        let lower = name.lowercased()
        guard lower.hasSuffix(".md") || lower.hasSuffix(".markdown") else { return nil }
        let digits = Array(name.utf8.prefix(10))
        guard digits.count == 10, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-"),
              let year = Int(String(decoding: digits[0..<4], as: UTF8.self)),
              let month = Int(String(decoding: digits[5..<7], as: UTF8.self)),
              let day = Int(String(decoding: digits[8..<10], as: UTF8.self)),
              (1...12).contains(month), (1...Insights.Day.length(ofMonth: month, in: year)).contains(day) else { return nil }
        return Insights.Day(year: year, month: month, day: day)
    }

    static func read(_ input: ImportInput) throws(ImportProblem) -> ForeignJournal {
        var notes = MarkdownNoteReader(calendar: input.calendar)
        if let files = input.folder.map({ $0 as any ImportFiles }) ?? input.archive {
            try notes.read(files)
        } else if let text = input.text, let day = day(of: input.path) {
            notes.add(text, path: (input.path as NSString).lastPathComponent, day: day, files: nil)
        }
        return notes.journal
    }
}

/// Reads the notes of one folder (or ZIP file, or one note) into a journal.
struct MarkdownNoteReader {
    let calendar: Calendar
    private(set) var journal = ForeignJournal(source: tr("Markdown notes"))
    /// Files by their name in any case, for pictures named without their folder.
    private var byName: [String: String] = [:]
    private var pictures = KeepablePictures()
    private var undated = 0
    private var unknownMoods: [String: Int] = [:]

    init(calendar: Calendar) {
        self.calendar = calendar
    }

    mutating func read(_ files: any ImportFiles) throws(ImportProblem) {
        for path in files.paths { byName[(path as NSString).lastPathComponent.lowercased()] = byName[(path as NSString).lastPathComponent.lowercased()] ?? path }
        for path in files.paths {
            let lower = path.lowercased()
            guard lower.hasSuffix(".md") || lower.hasSuffix(".markdown") else { continue }
            guard let day = MarkdownNotes.day(of: path) else {
                undated += 1
                continue
            }
            guard let text = try ForeignText.text(of: path, in: files) else {
                throw ImportProblem(line: nil, reason: String(format: tr("Its %@ is not UTF-8 text."), path))
            }
            add(text, path: path, day: day, files: files)
        }
        if undated > 0 {
            journal.notImported.append(ForeignText.counted(undated, one: tr("1 note not named by a date"), many: tr("%@ notes not named by a date")))
        }
        for (mood, count) in unknownMoods.sorted(by: { $0.key < $1.key }) {
            journal.notImported.append(count == 1 ? String(format: tr("the mood “%@” of 1 note"), mood)
                                                  : String(format: tr("the mood “%@” of %@ notes"), mood, "\(count)"))
        }
    }

    mutating func add(_ text: String, path: String, day: Insights.Day, files: (any ImportFiles)?) {
        let (matter, rest) = Self.frontMatter(of: text.replacingOccurrences(of: "\r\n", with: "\n"))
        var body = rest
        var photos: [ImportedPhoto] = [], leftBehind: [String] = []
        for (target, range) in Self.embeds(in: body).reversed() {
            guard Self.isPictureName(target) else { continue }
            body.removeSubrange(range)
            if let files, let member = locate(target, beside: path, in: files), pictures.contains(member, in: files) {
                photos.insert(ImportedPhoto(fileName: (member as NSString).lastPathComponent, member: member, archive: files), at: 0)
            } else {
                leftBehind.insert(target, at: 0)
            }
        }
        var mood: Mood?
        if let given = matter["mood"]?.first {
            mood = Self.mood(given)
            if mood == nil { unknownMoods[given, default: 0] += 1 }
        }
        let (title, plain) = ForeignText.titleAndBody(body.replacingOccurrences(of: "\n\n\n+", with: "\n\n", options: .regularExpression))
        let noon = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)) ?? Date(timeIntervalSince1970: 0)
        var entry = ImportedEntry(uuid: ImportIdentity.uuid(["markdown", (path as NSString).lastPathComponent, text]), title: title, body: plain,
                                  mood: mood, createdAt: ExportedTime(noon), tags: matter["tags"] ?? [])
        for photo in photos where !entry.photos.contains(photo) { entry.photos.append(photo) }
        entry.leftBehind = leftBehind
        journal.entries.append(entry)
    }

    /// A mood as front matter gives it: 1–5 as Daylio's steps, or a mood's name.
    static func mood(_ given: String) -> Mood? {
        let word = given.trimmingCharacters(in: .whitespaces).lowercased()
        if let step = Int(word) { return (1...5).contains(step) ? DaylioMoods.mood(forStep: step) : nil }
        if let mood = Mood.catalogue.first(where: { $0.englishTitle == word }) { return mood }
        return DaylioMoods.step(ofDefaultName: word).map(DaylioMoods.mood(forStep:))
    }

    /// The front matter's keys with their values (a list's items, or one value), and the text after it.
    static func frontMatter(of text: String) -> (values: [String: [String]], rest: String) {
        guard text.hasPrefix("---\n") else { return ([:], text) }
        let start = text.index(text.startIndex, offsetBy: 4)
        // The closing line: right away ("---\n---", front matter left empty) or after some.
        let end: Range<String.Index>
        if text[start...].hasPrefix("---") {
            end = start..<text.index(start, offsetBy: 3)
        } else if let found = text.range(of: "\n---", range: start..<text.endIndex) {
            end = found
        } else {
            return ([:], text)
        }
        var values: [String: [String]] = [:]
        var key: String?
        for line in text[start..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("- "), let key {
                values[key, default: []].append(unquoted(String(trimmed.dropFirst(2))))
            } else if let colon = line.firstIndex(of: ":"), !line.hasPrefix(" ") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                key = name
                if value.hasPrefix("["), value.hasSuffix("]") { value = String(value.dropFirst().dropLast()) }
                let items = value.split(separator: ",").map { unquoted(String($0)) }.filter { !$0.isEmpty }
                values[name] = items
            }
        }
        let after = text[end.upperBound...].drop(while: { $0 != "\n" })
        return (values.mapValues { $0.map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 } }, String(after))
    }

    private static func unquoted(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
    }

    /// Every `![…](target)` and `![[target]]` (a `|size` after the name dropped), with its range.
    static func embeds(in text: String) -> [(target: String, range: Range<String.Index>)] {
        var found: [(String, Range<String.Index>)] = []
        var rest = text.startIndex..<text.endIndex
        while let open = text.range(of: "![", range: rest) {
            // Looked for on its line only: a text full of "![" stays a single pass.
            let line = open.upperBound..<(text[open.upperBound...].firstIndex(of: "\n") ?? text.endIndex)
            if text[open.upperBound...].hasPrefix("["), let close = text.range(of: "]]", range: line) {
                let inner = text[text.index(after: open.upperBound)..<close.lowerBound]
                found.append((String(inner.split(separator: "|", maxSplits: 1).first ?? ""), open.lowerBound..<close.upperBound))
                rest = close.upperBound..<text.endIndex
            } else if let middle = text.range(of: "](", range: line),
                      let close = text.range(of: ")", range: middle.upperBound..<line.upperBound) {
                var target = String(text[middle.upperBound..<close.lowerBound]).trimmingCharacters(in: .whitespaces)
                if target.hasPrefix("<"), target.hasSuffix(">") { target = String(target.dropFirst().dropLast()) }
                target = String(target.split(separator: " ", maxSplits: 1).first ?? "") // a "title" after it
                found.append((target.removingPercentEncoding ?? target, open.lowerBound..<close.upperBound))
                rest = close.upperBound..<text.endIndex
            } else {
                rest = open.upperBound..<text.endIndex
            }
        }
        return found
    }

    /// Whether an embed names a picture (an embedded note, or a web address, is left as text).
    static func isPictureName(_ target: String) -> Bool {
        let lower = target.lowercased()
        guard !lower.hasPrefix("http:"), !lower.hasPrefix("https:") else { return false }
        return ["jpg", "jpeg", "png", "gif", "webp", "heic", "heif", "avif", "bmp", "tif", "tiff"].contains((lower as NSString).pathExtension)
    }

    /// The file an embed names: beside the note, from the folder's top, or by its name anywhere.
    private func locate(_ target: String, beside note: String, in files: any ImportFiles) -> String? {
        let folder = (note as NSString).deletingLastPathComponent
        let candidates = [(folder as NSString).appendingPathComponent(target), target]
            .map { ($0 as NSString).standardizingPath }.filter { !$0.hasPrefix("../") && !$0.hasPrefix("/") }
        if let found = candidates.first(where: { files.head(of: $0, count: 1) != nil }) { return found }
        return byName[(target as NSString).lastPathComponent.lowercased()]
    }
}
