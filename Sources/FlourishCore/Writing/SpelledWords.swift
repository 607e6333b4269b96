/// The words of a text that spelling checks, by their places in Unicode scalars (as GTK's text
/// counts characters): runs of letters, with an apostrophe or hyphen inside them ("don't",
/// "well-known") kept in the word. A run holding a digit or an underscore ("2nd", "file_name"),
/// or within a web address, is no word to check; nor is a single letter.
public enum SpelledWords {
    public struct Word: Equatable, Sendable {
        /// Offsets in Unicode scalars: the first, and one past the last.
        public let start: Int
        public let end: Int
        public let text: String
    }

    public static func words(in text: String, from offset: Int = 0) -> [Word] {
        var words: [Word] = []
        let scalars = Array(text.unicodeScalars)
        var at = 0
        while at < scalars.count {
            guard isLetter(scalars[at]) || isDigit(scalars[at]) else { at += 1; continue }
            var end = at
            var checkable = true
            while end < scalars.count {
                let scalar = scalars[end]
                if isLetter(scalar) { end += 1; continue }
                if isDigit(scalar) || scalar == "_" { checkable = false; end += 1; continue }
                // An apostrophe or hyphen between two letters is inside the word.
                if joiners.contains(scalar), end + 1 < scalars.count, isLetter(scalars[end + 1]), end > at { end += 1; continue }
                break
            }
            // A web address or an email: a word touched by "/", "@", ":" or "." then a letter.
            if checkable, at > 0, ["/", "@", "."].contains(scalars[at - 1]) { checkable = false }
            if checkable, end < scalars.count, ["/", "@", ":"].contains(scalars[end]),
               end + 1 < scalars.count, scalars[end + 1] != " " { checkable = false }
            if checkable, end < scalars.count, scalars[end] == ".", end + 1 < scalars.count, isLetter(scalars[end + 1]) { checkable = false }
            if checkable, end - at > 1 {
                var word = String.UnicodeScalarView()
                word.append(contentsOf: scalars[at..<end])
                words.append(Word(start: offset + at, end: offset + end, text: String(word)))
            }
            at = end
        }
        return words
    }

    /// The part of a text to check again around `offset`: `text` is the characters from
    /// `start` (a window of the whole, which holds `total` characters), and the range returned
    /// is cut at a space or line break on each side (or the text's own ends), so that it holds
    /// whole words only.
    public static func wholeWords(in text: String, from start: Int, total: Int) -> Range<Int> {
        let scalars = Array(text.unicodeScalars)
        var lower = 0, upper = scalars.count
        if start > 0 {
            while lower < upper, !scalars[lower].properties.isWhitespace { lower += 1 }
        }
        if start + scalars.count < total {
            while upper > lower, !scalars[upper - 1].properties.isWhitespace { upper -= 1 }
        }
        return (start + lower)..<(start + upper)
    }

    private static let joiners: Set<Unicode.Scalar> = ["'", "\u{2019}", "-"]

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.generalCategory == .nonspacingMark
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.numericType != nil }
}
