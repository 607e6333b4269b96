import FlourishCore
import Foundation
import GtkKit

/// An entry's Markdown as the book sets it: each block a text piece in Pango markup, headings
/// larger, quotes indented and in italics, lists with their bullets, numbers or boxes, code in
/// a fixed-width font. What cmark-gfm reads is what the entry page shows.
enum BookMarkup {
    static let bodySize = 11.0
    static let bodyColor = BookColor(red: 0.2, green: 0.18, blue: 0.16)
    /// The seeds' colour of the journal's text, rgb(170, 151, 131): titles and headings.
    static let seedColor = BookColor(red: 170 / 255, green: 151 / 255, blue: 131 / 255)
    static let quoteColor = BookColor(red: 0.38, green: 0.36, blue: 0.34)

    static func pieces(of body: String) -> [BookPiece] {
        Markdown.blocks(body).flatMap { texts(of: $0, indent: 0, quoted: false) }.map { .text($0) }
    }

    private static func texts(of block: Markdown.Block, indent: Double, quoted: Bool) -> [BookText] {
        let color = quoted ? quoteColor : bodyColor
        func text(_ markup: String, size: Double = bodySize, bold: Bool = false, family: BookText.Family = .serif,
                  extraIndent: Double = 0, keep: Double = 0) -> BookText {
            BookText(markup: quoted ? "<i>\(markup)</i>" : markup, family: family, size: size, bold: bold, color: color,
                     indent: indent + extraIndent, spaceAfter: 6, keepWithNext: keep)
        }
        switch block {
        case let .heading(level, inlines):
            return [text(markup(inlines), size: level == 1 ? 14 : level == 2 ? 13 : 12, bold: true, family: .sans, keep: 30)]
        case .paragraph(let inlines):
            return [text(markup(inlines))]
        case .quote(let blocks):
            return blocks.flatMap { texts(of: $0, indent: indent + 16, quoted: true) }
        case let .list(ordered, start, items, tasks):
            var result: [BookText] = []
            for (index, item) in items.enumerated() {
                let task = index < tasks.count ? tasks[index] : nil
                let mark = task.map { $0 ? "☑" : "☐" } ?? (ordered ? "\(start + index)." : "•")
                var inner = item.flatMap { texts(of: $0, indent: indent + 18, quoted: quoted) }
                if inner.isEmpty { inner = [text("", extraIndent: 18)] }
                // The mark goes before the item's first line, hanging in the indent.
                inner[0].markup = BookText.escaped(mark) + " " + inner[0].markup
                inner[0].indent = indent + 4
                for line in inner.indices { inner[line].spaceAfter = 3 }
                result += inner
            }
            if !result.isEmpty { result[result.count - 1].spaceAfter = 6 }
            return result
        case .code(let code):
            let trimmed = code.hasSuffix("\n") ? String(code.dropLast()) : code
            return [text(BookText.escaped(trimmed), size: 9.5, family: .monospace, extraIndent: 8)]
        case .rule:
            return [text("⁂", family: .sans, extraIndent: 0)]
        }
    }

    static func markup(_ inlines: [Markdown.Inline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text): BookText.escaped(text)
            case .emphasis(let inner): "<i>\(markup(inner))</i>"
            case .strong(let inner): "<b>\(markup(inner))</b>"
            case .strikethrough(let inner): "<s>\(markup(inner))</s>"
            case .code(let code): "<tt>\(BookText.escaped(code))</tt>"
            case let .link(url, inner):
                // On paper a link is its words, and the address after them when it differs.
                Markdown.plain(url) == plainText(inner) || url.isEmpty ? "<u>\(markup(inner))</u>"
                    : "<u>\(markup(inner))</u> <small>(\(BookText.escaped(url)))</small>"
            case .lineBreak: "\n"
            }
        }.joined()
    }

    private static func plainText(_ inlines: [Markdown.Inline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text), .code(let text): text
            case .emphasis(let inner), .strong(let inner), .strikethrough(let inner), .link(_, let inner): plainText(inner)
            case .lineBreak: "\n"
            }
        }.joined()
    }
}
