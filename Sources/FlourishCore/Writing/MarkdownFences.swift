/// Fenced code blocks (lines of "```" or "~~~") as the editor meets them. A blank line inside
/// one does not end its block, so a block being styled is widened to the whole fence it is in:
/// read alone, the lines after a blank line inside a fence would look like Markdown.
public enum MarkdownFences {
    /// A fence line's mark: its character and how many of it.
    public struct Fence: Equatable, Sendable {
        /// Where the opening line starts, in characters (Unicode scalars) from the text's start.
        public let offset: Int
        let marker: Unicode.Scalar
        let count: Int
    }

    /// The fence still open at the end of `text`, nil when every fence in it is closed.
    public static func open(in text: String) -> Fence? {
        var open: Fence?
        var offset = 0
        for line in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            if let mark = mark(of: line) {
                if let current = open {
                    if closes(line, current) { open = nil }
                } else if mark.marker == "~" || !line.dropFirst(mark.indent + mark.count).contains("`") {
                    // An opening "```" line's words may not hold a backtick (CommonMark).
                    open = Fence(offset: offset, marker: mark.marker, count: mark.count)
                }
            }
            offset += line.count + 1
        }
        return open
    }

    /// In `text`, which starts inside `fence`: how many characters run to the end of the line
    /// that closes it, nil when nothing in `text` closes it.
    public static func closing(_ fence: Fence, in text: String) -> Int? {
        var offset = 0
        for line in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            offset += line.count
            if closes(line, fence) { return offset }
            offset += 1
        }
        return nil
    }

    /// Up to three spaces, then three or more of one fence character.
    private static func mark(of line: Substring.UnicodeScalarView) -> (marker: Unicode.Scalar, count: Int, indent: Int)? {
        let indent = line.prefix { $0 == " " }.count
        guard indent <= 3, let marker = line.dropFirst(indent).first, marker == "`" || marker == "~" else { return nil }
        let count = line.dropFirst(indent).prefix { $0 == marker }.count
        return count >= 3 ? (marker, count, indent) : nil
    }

    /// A closing line: the opening's character, at least as many, and nothing after but spaces.
    private static func closes(_ line: Substring.UnicodeScalarView, _ fence: Fence) -> Bool {
        guard let mark = mark(of: line), mark.marker == fence.marker, mark.count >= fence.count else { return false }
        return line.dropFirst(mark.indent + mark.count).allSatisfy { $0 == " " || $0 == "\t" }
    }
}
