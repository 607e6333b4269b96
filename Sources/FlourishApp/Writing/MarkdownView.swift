import FlourishCore
import Foundation
import GtkKit

/// An entry's body as it reads, its Markdown shown without marks (cmark-gfm reads it, in the
/// core): headings larger, and heard as headings by a screen reader; bold, italic, struck and
/// code words set so; links followed from the mouse or the keyboard; lists, task lists ("☑"
/// ticked), quotes and code blocks laid out. Each block is a label of its own, selectable.
@MainActor
final class MarkdownView {
    let view = Box(.vertical, spacing: 8)
    /// The Markdown shown ("" when none, or let go of).
    private(set) var text = ""
    /// Each block's label, in reading order (a list item's words, a quote's paragraphs).
    private(set) var labels: [Label] = []
    /// The headings' labels, with their levels.
    private(set) var headings: [(level: Int, label: Label)] = []

    init() {
        view.addClass("journal-body")
        view.addClass("entry-view-body")
    }

    func show(_ markdown: String) {
        guard markdown != text else { return }
        text = markdown
        view.removeAll()
        labels = []
        headings = []
        for block in Self.joined(Markdown.blocks(markdown)) { view.append(widget(for: block)) }
    }

    /// More blocks than a page wants widgets (an old diary of thousands of short paragraphs):
    /// runs of plain paragraphs are shown as one label each, blank lines between them.
    static let blockLimit = 200

    private static func joined(_ blocks: [Markdown.Block]) -> [Markdown.Block] {
        guard blocks.count > blockLimit else { return blocks }
        var joined: [Markdown.Block] = []
        for block in blocks {
            if case .paragraph(let words) = block, case .paragraph(let before)? = joined.last {
                joined[joined.count - 1] = .paragraph(before + [.lineBreak, .lineBreak] + words)
            } else {
                joined.append(block)
            }
        }
        return joined
    }

    /// The words shown, block by block (what a person reads: no marks).
    var shownText: String { labels.map(\.text).joined(separator: "\n") }

    private func widget(for block: Markdown.Block) -> Widget {
        switch block {
        case .heading(let level, let words):
            let label = Label(headingLevel: level)
            label.addClass("markdown-heading")
            label.addClass("markdown-h\(min(level, 3))")
            headings.append((level, label))
            return styled(label, markup(words))
        case .paragraph(let words):
            return styled(Label(), markup(words))
        case .code(let code):
            let label = styled(Label(), "<tt>\(Label.escaped(code))</tt>")
            label.addClass("markdown-code")
            return label
        case .quote(let blocks):
            let box = Box(.vertical, spacing: 6)
            box.addClass("markdown-quote")
            for inner in blocks { box.append(widget(for: inner)) }
            return box
        case .list(let ordered, let start, let items, let tasks):
            let list = Box(.vertical, spacing: 4)
            for (index, (item, task)) in zip(items, tasks).enumerated() {
                let row = Box(.horizontal, spacing: 8)
                let bullet = Label(task.map { $0 ? "☑" : "☐" } ?? (ordered ? "\(start + index)." : "•"))
                bullet.align(vertical: .start)
                if let task { bullet.setAccessibleLabel(task ? tr("done") : tr("not done")) }
                row.append(bullet)
                let content = Box(.vertical, spacing: 4)
                content.expand(horizontally: true)
                for inner in item { content.append(widget(for: inner)) }
                row.append(content)
                list.append(row)
            }
            return list
        case .rule:
            return Separator()
        }
    }

    private func styled(_ label: Label, _ markup: String) -> Label {
        label.markup = markup
        label.alignStart()
        label.enableWrapping()
        label.isSelectable = true
        labels.append(label)
        return label
    }

    private func markup(_ words: [Markdown.Inline]) -> String {
        words.map(markup).joined()
    }

    private func markup(_ word: Markdown.Inline) -> String {
        switch word {
        case .text(let text): Label.escaped(text)
        case .emphasis(let words): "<i>\(markup(words))</i>"
        case .strong(let words): "<b>\(markup(words))</b>"
        case .strikethrough(let words): "<s>\(markup(words))</s>"
        case .code(let code): "<tt>\(Label.escaped(code))</tt>"
        // Only a web page or an email opens: not a file here, nor another program's scheme.
        case .link(let url, let words) where Markdown.isFollowable(url): "<a href=\"\(Label.escaped(url))\">\(markup(words))</a>"
        case .link(_, let words): markup(words)
        case .lineBreak: "\n"
        }
    }
}
