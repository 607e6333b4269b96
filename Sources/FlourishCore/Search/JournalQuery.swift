import Foundation

/// What the Journal page's search bar and filters ask for. Empty parts ask for nothing: an
/// empty query is the whole journal.
public struct JournalQuery: Sendable, Equatable {
    /// Words to find in titles and bodies: each word, or a word beginning with it, in any case
    /// and with or without accents ("cafe" finds "Café").
    public var text: String
    /// Any of these moods (none chosen, and not `withoutMood`: any mood, or none).
    public var moods: Set<Mood>
    /// Entries without a mood too (the Mood filter's "No mood"): with no mood chosen, only them.
    public var withoutMood = false
    /// Whether the query asks anything of the mood.
    var filtersMood: Bool { !moods.isEmpty || withoutMood }
    /// All of these tags.
    public var tagIDs: Set<Int64>
    /// From this moment, inclusive.
    public var from: Date?
    /// Until this moment, exclusive.
    public var to: Date?
    /// Every one of these conditions on measures' values ("sleep < 6").
    public var measures: [MeasureCondition] = []

    public init(text: String = "", moods: Set<Mood> = [], tagIDs: Set<Int64> = [], from: Date? = nil, to: Date? = nil) {
        self.text = text
        self.moods = moods
        self.tagIDs = tagIDs
        self.from = from
        self.to = to
    }

    public var isEmpty: Bool {
        matchExpression == nil && !filtersMood && tagIDs.isEmpty && from == nil && to == nil && measures.isEmpty
    }

    /// The text as an FTS5 query: each word a quoted prefix ("walk"*), all of them required.
    /// Quoting makes every character literal, so nothing typed can be FTS5 syntax; words are cut
    /// where the index's tokenizer cuts them, so each quoted word is one token (the index keeps
    /// no positions, so a phrase of two would be refused).
    var matchExpression: String? { Self.expression(Self.words(in: text)) }

    /// The same query with words cut more cautiously, for when SQLite refuses `matchExpression`:
    /// its tokenizer knows the Unicode of its day, and to it a letter of a script added since,
    /// or one of some combining marks, is a separator, which makes a quoted word two. Only the
    /// letters and digits of long-assigned scripts stay in words (every one of them a token
    /// character to SQLite 3.40's tokenizer, checked one by one). Nil when no word is left: then
    /// nothing can match.
    var cautiousMatchExpression: String? {
        Self.expression(Self.words(in: text, isWordScalar: Self.isLongAssignedLetterOrDigit))
    }

    private static func expression(_ words: [String]) -> String? {
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
    }

    /// The words of `text` as the index's tokenizer (unicode61) finds them: runs of letters,
    /// numbers, private-use characters and the combining marks on them; anything else (spaces,
    /// punctuation, symbols, emoji, joiners, spacing marks) separates words.
    static func words(in text: String, isWordScalar: (Unicode.Scalar) -> Bool = isWordScalar) -> [String] {
        wordRanges(in: text, isWordScalar: isWordScalar).map(\.word)
    }

    /// Each word of `text` (see `words(in:)`) with its UTF-8 byte range.
    static func wordRanges(in text: String, isWordScalar: (Unicode.Scalar) -> Bool = isWordScalar)
        -> [(bytes: Range<Int>, word: String)] {
        var ranges: [(bytes: Range<Int>, word: String)] = []
        var offset = 0
        var start: Int?
        var word = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                if start == nil { start = offset }
                word.append(scalar)
            } else if let begun = start {
                ranges.append((begun..<offset, String(word)))
                start = nil
                word = String.UnicodeScalarView()
            }
            offset += scalar.utf8.count
        }
        if let begun = start { ranges.append((begun..<offset, String(word))) }
        return ranges
    }

    /// Letters and digits of scripts in Unicode since long before the SQLite of any supported
    /// system: Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, the Indic scripts, Thai,
    /// Georgian, Hangul Jamo, kana, CJK ideographs and Hangul syllables.
    private static func isLongAssignedLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        guard isLetterOrDigit(scalar) else { return false }
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x370...0x52F, 0x531...0x6FF, 0x900...0xDFF,
             0xE00...0xE7F, 0x10A0...0x11FF, 0x1E00...0x1FFF, 0x3040...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3: return true
        default: return false
        }
    }

    /// What unicode61 keeps in a word: letters and digits, private-use characters, and the
    /// non-spacing marks over them.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        isLetterOrDigit(scalar) || [.privateUse, .nonspacingMark].contains(scalar.properties.generalCategory)
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }

    /// Where in `text` the words the search matched stand, as UTF-8 byte ranges: every word of
    /// `text` that begins with a word of the query, compared as the index compares them (case
    /// and accents aside). For highlighting them in the rows.
    public func highlights(in text: String) -> [Range<Int>] {
        let wanted = Self.words(in: self.text).map(Self.fold)
        guard !wanted.isEmpty, !text.isEmpty else { return [] }
        return Self.wordRanges(in: text).filter { range in
            let folded = Self.fold(range.word)
            return wanted.contains { folded.hasPrefix($0) }
        }.map(\.bytes)
    }

    static func fold(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The `matched` ids in the order of `order` (the journal's, newest first). Linear in the
    /// journal, through a bit per id rather than a hash set: a few milliseconds for 100,000
    /// entries, where an ORDER BY over the matches in SQL costs tens.
    public static func inOrder(_ matched: [Int64], of order: [Int64]) -> [Int64] {
        guard let highest = matched.max(), highest >= 0, highest < 1 << 32 else {
            let set = Set(matched)
            return order.filter { set.contains($0) }
        }
        var bits = [Bool](repeating: false, count: Int(highest) + 1)
        for id in matched where id >= 0 { bits[Int(id)] = true }
        return order.filter { $0 >= 0 && $0 <= highest && bits[Int($0)] }
    }
}
