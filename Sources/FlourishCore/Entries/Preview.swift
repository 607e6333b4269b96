/// What a journal row shows of an entry's words: the start, cut at a word boundary with "…",
/// so a row costs the same to lay out however long the entry is (the whole entry is one
/// activation away, in the entry view).
extension String {
    /// At most `limit` characters of this text (plus "…" where it was cut), cut after a whole word
    /// when one ends in the last fifth of the limit. Line breaks are kept: a row shows a few lines.
    public func preview(limit: Int) -> String {
        guard count > limit else { return self }
        let cut = prefix(limit)
        if let space = cut.lastIndex(where: { $0 == " " || $0 == "\n" }),
           cut.distance(from: cut.startIndex, to: space) >= limit * 4 / 5 {
            return String(cut[..<space]) + "…"
        }
        return String(cut) + "…"
    }
}

extension Entry {
    /// How much of the body a journal row shows (about three lines of a wide window): laying
    /// out a row's words is most of what a row costs as it scrolls into view.
    public static let rowBodyLimit = 240
    /// How much of the title a journal row shows.
    public static let rowTitleLimit = 100
}
