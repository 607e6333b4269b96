import FlourishCore
import Foundation
import GtkKit

/// The body as Markdown while it is written: headings larger, bold, italic, struck, code, links
/// and quotes set so as they are typed, their marks kept and dimmed (cmark-gfm reads them, in
/// the core). Ctrl+B and Ctrl+I wrap the selection in "**" and "*", Enter in a list item begins
/// the next one (in an empty one, ends the list), and Ctrl+click follows a link.
///
/// As spelling does, a keystroke styles again only its block (the text between blank lines
/// around it, or the whole fenced code block it is in); a whole text put in is styled a slice at
/// a time when GTK is idle.
@MainActor
final class MarkdownEditing {
    /// How far from a keystroke its block is looked for, either side, in characters.
    static let blockReach = 2_000
    /// Characters styled per idle slice, cut at a blank line.
    static let sliceCharacters = 4_000

    private let view: TextView
    private var characters = 0
    /// The whole text's styling, a slice at a time.
    private let pass = IdleSlices()

    init(_ view: TextView) {
        self.view = view
        view.onChanged { [weak self] in self?.changed() }
        view.onKeyPressed(beforeChildren: true) { [weak self] key, modifiers in self?.pressed(key, modifiers) ?? false }
        view.onEnter { [weak self] in self?.continueList() ?? false }
        view.onControlClick { [weak self] offset in self?.followLink(at: offset) ?? false }
        pass.slice = { [weak self] start in self?.slice(from: start) }
    }

    /// Whether the whole text is styled since it last changed wholesale.
    var isSettled: Bool { !pass.isRunning }

    private func changed() {
        let count = view.characterCount
        let delta = abs(count - characters)
        characters = count
        // A text put in (more than a few characters at once): all of it again, between frames.
        // A keystroke: its own block, now, even while such a pass goes on.
        if delta > 2 {
            pass.start()
        } else {
            style(widened(block(around: view.cursorOffset)))
        }
    }

    /// `sliceCharacters` from `start`, to a blank line; where the next slice starts.
    private func slice(from start: Int) -> Int? {
        let total = view.characterCount
        var end = min(total, start + Self.sliceCharacters)
        if end < total {
            // To the next blank line past the slice's end, so no block is cut in two.
            let ahead = view.text(in: end..<min(total, end + Self.blockReach))
            if let blank = ahead.range(of: "\n\n") {
                end += ahead.unicodeScalars[..<blank.lowerBound].count
            } else {
                end = min(total, end + Self.blockReach)
            }
        }
        let region = widened(start..<end)
        style(region)
        return region.upperBound < total ? region.upperBound : nil
    }

    /// The block holding `offset`: from the blank line before it to the blank line after it.
    private func block(around offset: Int) -> Range<Int> {
        let total = view.characterCount
        let lower = max(0, offset - Self.blockReach), upper = min(total, offset + Self.blockReach)
        let before = Array(view.text(in: lower..<offset).unicodeScalars)
        let after = Array(view.text(in: offset..<upper).unicodeScalars)
        var start = before.count
        while start > 1, !(before[start - 1] == "\n" && before[start - 2] == "\n") { start -= 1 }
        if start <= 1 { start = 0 }
        var end = 0
        while end + 1 < after.count, !(after[end] == "\n" && after[end + 1] == "\n") { end += 1 }
        if end + 1 >= after.count { end = after.count }
        return (lower + start)..<(offset + end)
    }

    /// `region` widened to the fenced code blocks it is in or opens: from the opening line of
    /// one that began before it, to the closing line (or the text's end) of one still open at
    /// its end. The text before it is read to know (a fence opened pages earlier counts).
    private func widened(_ region: Range<Int>) -> Range<Int> {
        var region = region
        if let fence = MarkdownFences.open(in: view.text(in: 0..<region.lowerBound)) {
            region = fence.offset..<region.upperBound
        }
        if let fence = MarkdownFences.open(in: view.text(in: region)) {
            let total = view.characterCount
            let rest = view.text(in: region.upperBound..<total)
            region = region.lowerBound..<(region.upperBound + (MarkdownFences.closing(fence, in: rest) ?? (total - region.upperBound)))
        }
        return region
    }

    private func style(_ region: Range<Int>) {
        let text = view.text(in: region)
        let styled: [(style: TextView.Style, range: Range<Int>)] = Markdown.spans(in: text).map { span in
            let range = (region.lowerBound + span.range.lowerBound)..<(region.lowerBound + span.range.upperBound)
            return (Self.style(of: span.kind), range)
        }
        view.applyStyles(styled, within: region)
    }

    private static func style(of kind: Markdown.Span.Kind) -> TextView.Style {
        switch kind {
        case .heading(let level): level == 1 ? .heading1 : level == 2 ? .heading2 : .heading3
        case .strong: .strong
        case .emphasis: .emphasis
        case .strikethrough: .strikethrough
        case .code: .code
        case .link: .link
        case .quote: .quote
        case .mark: .mark
        }
    }

    // MARK: - Keys

    private func pressed(_ key: Key, _ modifiers: Key.Modifiers) -> Bool {
        if modifiers.meaningful == .control, key.isLetter("b") { return wrap(in: "**") }
        if modifiers.meaningful == .control, key.isLetter("i") { return wrap(in: "*") }
        return false
    }

    /// The selection wrapped in `marks` (and still selected); without one, the marks put in
    /// around the cursor.
    func wrap(in marks: String) -> Bool {
        let width = marks.unicodeScalars.count
        if let selected = view.selection {
            let words = view.text(in: selected)
            view.replace(selected, with: marks + words + marks)
            view.select((selected.lowerBound + width)..<(selected.upperBound + width))
        } else {
            let cursor = view.cursorOffset
            view.insertAtCursor(marks + marks)
            view.placeCursor(at: cursor + width)
        }
        return true
    }

    /// Enter in a list item, after its mark: the next item ("- ", "3. ", "- [ ] "), taking
    /// the words after the cursor with it; in an item with no words, the list ends (its mark
    /// goes). False (a plain line break) on a line that is no list item, or before its words.
    func continueList() -> Bool {
        guard view.selection == nil else { return false }
        let cursor = view.cursorOffset
        let before = view.text(in: max(0, cursor - 400)..<cursor)
        let start = before.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? before
        let after = view.text(in: cursor..<min(view.characterCount, cursor + 400))
        let end = after.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? after
        guard let item = ListItem(start + end), start.unicodeScalars.count >= item.markLength else { return false }
        if item.isEmpty {
            view.replace((cursor - start.unicodeScalars.count)..<(cursor + end.unicodeScalars.count), with: "")
        } else {
            view.insertAtCursor("\n" + item.next)
        }
        return true
    }

    private func followLink(at offset: Int) -> Bool {
        let region = block(around: offset)
        let spans = Markdown.spans(in: view.text(in: region))
        for span in spans {
            guard case .link(let url) = span.kind, span.range.contains(offset - region.lowerBound), Markdown.isFollowable(url) else { continue }
            view.openURI(url)
            return true
        }
        return false
    }
}

/// A line that begins a list item: its indent, its mark ("-", "*", "+", "3." or "3)") and, for a
/// task, its box. What Enter continues; read from the line's start only.
struct ListItem {
    let indent: String
    let bullet: String
    let number: Int?
    let task: Bool
    /// Whether the item has no words after its mark.
    let isEmpty: Bool
    /// How many characters its indent, mark, space and box take.
    let markLength: Int

    init?(_ line: String) {
        let scalars = Array(line.unicodeScalars)
        var at = 0
        while at < scalars.count, scalars[at] == " " || scalars[at] == "\t" { at += 1 }
        indent = String(String.UnicodeScalarView(scalars[..<at]))
        var digits = ""
        while at < scalars.count, ("0"..."9").contains(scalars[at]), digits.count < 9 { digits.unicodeScalars.append(scalars[at]); at += 1 }
        if digits.isEmpty {
            guard at < scalars.count, ["-", "*", "+"].contains(scalars[at]) else { return nil }
            bullet = String(scalars[at])
            number = nil
        } else {
            guard at < scalars.count, [".", ")"].contains(scalars[at]) else { return nil }
            bullet = String(scalars[at])
            number = Int(digits)
        }
        at += 1
        guard at < scalars.count, scalars[at] == " " else { return nil }
        at += 1
        let rest = String(String.UnicodeScalarView(scalars[at...]))
        task = rest.hasPrefix("[ ] ") || rest.hasPrefix("[x] ") || rest.hasPrefix("[X] ") || ["[ ]", "[x]", "[X]"].contains(rest)
        let words = task ? String(rest.dropFirst(3)) : rest
        isEmpty = words.trimmingCharacters(in: .whitespaces).isEmpty
        markLength = at + (task ? min(4, rest.unicodeScalars.count) : 0)
    }

    /// The next item's start: the same indent and mark (the number after this one), an empty box.
    var next: String {
        indent + (number.map { "\($0 + 1)\(bullet)" } ?? bullet) + " " + (task ? "[ ] " : "")
    }
}
