import Foundation

/// What the Journal page's search bar and filters ask for. Empty parts ask for nothing: an
/// empty query is the whole journal.
public struct JournalQuery: Sendable, Equatable {
    /// Words to find in titles and bodies: each word, or a word beginning with it, in any case
    /// and with or without accents ("cafe" finds "Café").
    public var text: String
    /// Any of these moods (none chosen: any mood).
    public var moods: Set<Mood>
    /// All of these tags.
    public var tagIDs: Set<Int64>
    /// From this moment, inclusive.
    public var from: Date?
    /// Until this moment, exclusive.
    public var to: Date?

    public init(text: String = "", moods: Set<Mood> = [], tagIDs: Set<Int64> = [], from: Date? = nil, to: Date? = nil) {
        self.text = text
        self.moods = moods
        self.tagIDs = tagIDs
        self.from = from
        self.to = to
    }

    public var isEmpty: Bool { matchExpression == nil && moods.isEmpty && tagIDs.isEmpty && from == nil && to == nil }

    /// The text as an FTS5 query: each word a quoted prefix ("walk"*), all of them required.
    /// Quoting makes every character literal, so nothing typed can be FTS5 syntax.
    var matchExpression: String? {
        let words = text.split { !($0.isLetter || $0.isNumber) }
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
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
