import CMark
import Foundation

/// An entry's body read as Markdown, by cmark-gfm (CommonMark with GitHub's task lists,
/// strikethrough and autolinks): what the entry page shows, what previews and On this day show
/// without marks, and where the editor styles the text. Plain text is Markdown already: an
/// entry written before reads as it always did.
public enum Markdown {
    /// A block of the text, as the entry page lays it out.
    public indirect enum Block: Equatable, Sendable {
        case heading(level: Int, [Inline])
        case paragraph([Inline])
        case quote([Block])
        /// A list's items, each its blocks; `tasks` holds, item by item, whether it is a task
        /// and ticked (nil: no task).
        case list(ordered: Bool, start: Int, items: [[Block]], tasks: [Bool?])
        case code(String)
        case rule
    }

    /// Words within a block, and how they are set.
    public indirect enum Inline: Equatable, Sendable {
        case text(String)
        case emphasis([Inline])
        case strong([Inline])
        case strikethrough([Inline])
        case code(String)
        case link(url: String, [Inline])
        case lineBreak
    }

    /// A part of the text the editor sets apart, by Unicode scalar offsets.
    public struct Span: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            case heading(level: Int), strong, emphasis, strikethrough, code, link(url: String), quote
            /// The marks themselves ("**", "# ", "- ", "[x]", the link's address): kept, dimmed.
            case mark
        }

        public let kind: Kind
        public let range: Range<Int>
    }

    // MARK: - Reading

    public static func blocks(_ text: String) -> [Block] {
        parse(text) { document, _ in children(of: document).compactMap(block) }
    }

    /// The words without their marks: headings, emphasis and links as their words, list items
    /// after a "•", a ticked task after "☑", line breaks kept. For previews and On this day.
    public static func plain(_ text: String) -> String {
        // Nothing that could be a mark: the text as it is (most entries), without parsing.
        guard text.unicodeScalars.contains(where: { markScalars.contains($0) }) else { return text }
        return blocks(text).map(plain).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// Where the editor sets the text apart: each styled part and each mark, by scalar offsets.
    public static func spans(in text: String) -> [Span] {
        parse(text) { document, positions in
            var spans: [Span] = []
            collectSpans(document, positions, into: &spans)
            return spans
        }
    }

    /// Whether a link's address is one to follow: a web page or an email. Not a file on this
    /// computer, nor another program's scheme, which an imported or synced entry could carry.
    public static func isFollowable(_ url: String) -> Bool {
        guard let scheme = url.split(separator: ":", maxSplits: 1).first?.lowercased(), url.contains(":") else { return false }
        return ["http", "https", "mailto"].contains(scheme)
    }

    // MARK: - cmark

    private static let markScalars = Set("*_#`[~>-+<&\\=|0123456789".unicodeScalars)

    /// cmark-gfm keeps tables of its own (the extensions registered, the characters they
    /// start) without a lock: one parse at a time.
    private static let parsing = NSLock()

    private static func parse<T>(_ text: String, _ read: (OpaquePointer, Positions) -> T) -> T {
        parsing.lock()
        defer { parsing.unlock() }
        cmark_gfm_core_extensions_ensure_registered()
        let parser = cmark_parser_new(CMARK_OPT_SOURCEPOS)!
        defer { cmark_parser_free(parser) }
        for name in ["tasklist", "strikethrough", "autolink"] {
            if let extensionFound = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, extensionFound) }
        }
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) { cmark_parser_feed(parser, $0, buffer.count) }
        }
        let document = cmark_parser_finish(parser)!
        defer { cmark_node_free(document) }
        return read(document, Positions(text))
    }

    /// From cmark's places (line, byte column, both from 1) to Unicode scalar offsets.
    struct Positions {
        private var lineStarts: [Int] = [0]
        private var scalarAt: [Int] = []
        private let scalars: [Unicode.Scalar]

        /// The scalar at `offset`, nil past the end.
        func scalar(at offset: Int) -> Unicode.Scalar? { offset >= 0 && offset < scalars.count ? scalars[offset] : nil }

        init(_ text: String) {
            scalars = Array(text.unicodeScalars)
            var index = -1
            for byte in text.utf8 {
                // A scalar starts at every byte that is not a UTF-8 continuation byte.
                if byte & 0xC0 != 0x80 { index += 1 }
                scalarAt.append(index)
                if byte == 0x0A { lineStarts.append(scalarAt.count) }
            }
            scalarAt.append(index + 1)
        }

        /// The scalar offset of byte `column` (from 1) of line `line` (from 1).
        func offset(line: Int32, column: Int32) -> Int? {
            let line = Int(line) - 1, column = Int(column) - 1
            guard line >= 0, line < lineStarts.count, column >= 0 else { return nil }
            let byte = lineStarts[line] + column
            return byte < scalarAt.count ? scalarAt[byte] : nil
        }

        /// A node's range: from its first byte to one past its last.
        func range(of node: OpaquePointer) -> Range<Int>? {
            guard let start = offset(line: cmark_node_get_start_line(node), column: cmark_node_get_start_column(node)),
                  let last = offset(line: cmark_node_get_end_line(node), column: cmark_node_get_end_column(node)),
                  last >= start else { return nil }
            return start..<(last + 1)
        }
    }

    private static func children(of node: OpaquePointer) -> [OpaquePointer] {
        var found: [OpaquePointer] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            found.append(current)
            child = cmark_node_next(current)
        }
        return found
    }

    private static func type(_ node: OpaquePointer) -> String {
        cmark_node_get_type_string(node).map { String(cString: $0) } ?? ""
    }

    private static func literal(_ node: OpaquePointer) -> String {
        cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }

    private static func block(_ node: OpaquePointer) -> Block? {
        switch type(node) {
        case "heading": return .heading(level: Int(cmark_node_get_heading_level(node)), inlines(of: node))
        case "paragraph": return .paragraph(inlines(of: node))
        case "block_quote": return .quote(children(of: node).compactMap(block))
        case "list":
            let items = children(of: node)
            return .list(ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST, start: Int(cmark_node_get_list_start(node)),
                         items: items.map { children(of: $0).compactMap(block) },
                         tasks: items.map { type($0) == "tasklist" ? cmark_gfm_extensions_get_tasklist_item_checked($0) : nil })
        case "code_block": return .code(literal(node).hasSuffix("\n") ? String(literal(node).dropLast()) : literal(node))
        case "html_block": return .paragraph([.text(literal(node).trimmingCharacters(in: .newlines))])
        case "thematic_break": return .rule
        // A table (not read here) or another extension's block: its words, as a paragraph.
        default: return .paragraph([.text(plainWords(of: node))])
        }
    }

    private static func inlines(of node: OpaquePointer) -> [Inline] {
        children(of: node).compactMap(inline)
    }

    private static func inline(_ node: OpaquePointer) -> Inline? {
        switch type(node) {
        case "text", "html_inline": return .text(literal(node))
        case "softbreak": return .text("\n")
        case "linebreak": return .lineBreak
        case "code": return .code(literal(node))
        case "emph": return .emphasis(inlines(of: node))
        case "strong": return .strong(inlines(of: node))
        case "strikethrough": return .strikethrough(inlines(of: node))
        case "link": return .link(url: cmark_node_get_url(node).map { String(cString: $0) } ?? "", inlines(of: node))
        // A picture by its description: the entry's own photos are shown apart.
        case "image": return .text(plainWords(of: node))
        default: return .text(plainWords(of: node))
        }
    }

    private static func plainWords(of node: OpaquePointer) -> String {
        let own = literal(node)
        return own + children(of: node).map(plainWords).joined()
    }

    private static func plain(_ block: Block) -> String {
        switch block {
        case .heading(_, let words), .paragraph(let words): return words.map(plain).joined()
        case .quote(let blocks): return blocks.map(plain).joined(separator: "\n")
        case .list(let ordered, let start, let items, let tasks):
            return zip(items, tasks).enumerated().map { index, element in
                let (item, task) = element
                let bullet = task.map { $0 ? "☑ " : "☐ " } ?? (ordered ? "\(start + index). " : "• ")
                return bullet + item.map(plain).joined(separator: "\n")
            }.joined(separator: "\n")
        case .code(let text): return text
        case .rule: return ""
        }
    }

    private static func plain(_ inline: Inline) -> String {
        switch inline {
        case .text(let text), .code(let text): return text
        case .emphasis(let words), .strong(let words), .strikethrough(let words), .link(_, let words): return words.map(plain).joined()
        case .lineBreak: return "\n"
        }
    }

    private static func collectSpans(_ node: OpaquePointer, _ positions: Positions, into spans: inout [Span]) {
        let nodeType = type(node)
        let kind: Span.Kind?
        switch nodeType {
        case "heading": kind = .heading(level: Int(cmark_node_get_heading_level(node)))
        case "strong": kind = .strong
        case "emph": kind = .emphasis
        case "strikethrough": kind = .strikethrough
        case "code", "code_block": kind = .code
        case "link": kind = .link(url: cmark_node_get_url(node).map { String(cString: $0) } ?? "")
        case "block_quote": kind = .quote
        default: kind = nil
        }
        let range = positions.range(of: node)
        if let kind, let range { spans.append(Span(kind: kind, range: range)) }
        let inner = children(of: node)
        // The marks: what of a styled node, list item or quote lies before its first child
        // ("**", "# ", "- [x] ", "> ") and, for words set between marks, after its last ("**",
        // "](https://…)"). An inline code's are its backticks.
        if let range, kind != nil || ["item", "tasklist"].contains(nodeType) {
            let kids = inner.compactMap { positions.range(of: $0) }
            if nodeType == "code" {
                spans.append(contentsOf: backticks(around: range, in: positions))
            } else if nodeType == "code_block" {
                spans.append(contentsOf: fenceLines(of: range, in: positions))
            } else if let first = kids.first, let last = kids.last {
                if first.lowerBound > range.lowerBound { spans.append(Span(kind: .mark, range: range.lowerBound..<first.lowerBound)) }
                if ["strong", "emph", "strikethrough", "link"].contains(nodeType), last.upperBound < range.upperBound {
                    spans.append(Span(kind: .mark, range: last.upperBound..<range.upperBound))
                }
            }
        }
        for child in inner { collectSpans(child, positions, into: &spans) }
    }

    /// A fenced code block's opening and closing lines ("```swift", "```"), its marks; an
    /// indented one has none.
    private static func fenceLines(of range: Range<Int>, in positions: Positions) -> [Span] {
        func isFence(_ at: Int) -> Bool {
            var at = at
            while positions.scalar(at: at) == " " { at += 1 }
            return positions.scalar(at: at) == "`" || positions.scalar(at: at) == "~"
        }
        guard isFence(range.lowerBound) else { return [] }
        var firstEnd = range.lowerBound
        while firstEnd < range.upperBound, positions.scalar(at: firstEnd) != "\n" { firstEnd += 1 }
        var spans = [Span(kind: .mark, range: range.lowerBound..<firstEnd)]
        var lastStart = range.upperBound
        while lastStart > firstEnd, positions.scalar(at: lastStart - 1) != "\n" { lastStart -= 1 }
        if lastStart > firstEnd, isFence(lastStart) { spans.append(Span(kind: .mark, range: lastStart..<range.upperBound)) }
        return spans
    }

    /// cmark places an inline code at its words: its backticks (one or more) are the scalars
    /// just outside.
    private static func backticks(around range: Range<Int>, in positions: Positions) -> [Span] {
        var start = range.lowerBound, end = range.upperBound
        while start > 0, positions.scalar(at: start - 1) == "`" { start -= 1 }
        while positions.scalar(at: end) == "`" { end += 1 }
        return [Span(kind: .mark, range: start..<range.lowerBound), Span(kind: .mark, range: range.upperBound..<end)]
            .filter { !$0.range.isEmpty }
    }
}

extension String {
    /// A body's preview, its Markdown read: its start without marks (`Markdown.plain`), cut as
    /// `preview` cuts. Only the start is read, a few times the limit, to its last line break: a
    /// long entry's row costs no more than a short one's.
    public func plainPreview(limit: Int) -> String {
        var start = Substring(self)
        if count > limit * 3 {
            start = prefix(limit * 3)
            if let lineEnd = start.lastIndex(of: "\n"), start.distance(from: start.startIndex, to: lineEnd) > limit {
                start = start[..<lineEnd]
            }
        }
        let plain = Markdown.plain(String(start))
        return start.endIndex < endIndex && plain.count <= limit ? plain + "…" : plain.preview(limit: limit)
    }
}

