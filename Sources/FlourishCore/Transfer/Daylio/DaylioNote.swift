import Foundation

/// Daylio's notes as plain text.
enum DaylioNote {
    /// A CSV export's note: `<br>` (in any of its spellings) a line break, the common entities
    /// their characters; anything else as the person wrote it. (Unchanged since the first
    /// importer: an entry's identity is made from it.)
    static func csv(_ text: String) -> String {
        var plain = text.replacingOccurrences(of: "<br\\s*/?>", with: "\n", options: [.regularExpression, .caseInsensitive])
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")] {
            plain = plain.replacingOccurrences(of: entity, with: character)
        }
        return plain.withoutNUL.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A backup's note, which Daylio's editor keeps as simple HTML ("<div>Windy</div><div><b>but</b>
    /// clear</div>", lists, "<br>"): the line breaks kept, the tags dropped.
    static func html(_ text: String) -> String {
        guard text.contains("<") || text.contains("&") || text.contains("\r") else {
            return text.withoutNUL.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let block = "\u{1}"
        var plain = text.replacingOccurrences(of: "\r\n", with: "\n")
        plain = Patterns.lineBreak.replacing(in: plain, with: "\n")
        // Where a block (a paragraph, a list item) starts or ends, a line does.
        plain = Patterns.block.replacing(in: plain, with: block)
        // Every other tag goes; "<3" and "a < b" are no tags and stay.
        plain = Patterns.tag.replacing(in: plain, with: "")
        // Blocks side by side are one line break, and so is a break that ends a block.
        plain = Patterns.blocks.replacing(in: plain, with: block)
        plain = plain.replacingOccurrences(of: "\n\u{1}", with: "\n").replacingOccurrences(of: block, with: "\n")
        return entitiesDecoded(plain).withoutNUL.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Compiled once: a backup of ten years has thousands of notes.
    private enum Patterns {
        static let lineBreak = Pattern("<br\\s*/?>", caseInsensitive: true)
        static let block = Pattern("</?(div|p|li|ul|ol|h[1-6]|blockquote)(\\s[^<>]*)?>", caseInsensitive: true)
        static let tag = Pattern("</?[A-Za-z][A-Za-z0-9]*(\\s[^<>]*)?/?>", caseInsensitive: false)
        static let blocks = Pattern("\u{1}+", caseInsensitive: false)
        static let entity = Pattern("&#([xX]?)([0-9A-Fa-f]{1,6});", caseInsensitive: false)
    }

    /// A regular expression, compiled once and only read after (so shared across threads).
    final class Pattern: @unchecked Sendable {
        let expression: NSRegularExpression?

        init(_ pattern: String, caseInsensitive: Bool) {
            expression = try? NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
        }

        func replacing(in text: String, with template: String) -> String {
            guard let expression else { return text }
            return expression.stringByReplacingMatches(in: text, range: NSRange(location: 0, length: (text as NSString).length),
                                                       withTemplate: NSRegularExpression.escapedTemplate(for: template))
        }
    }

    /// "&lt;", "&amp;", "&#39;", "&#x1F600;"… as their characters.
    static func entitiesDecoded(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var plain = text
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"), ("&nbsp;", " ")] {
            plain = plain.replacingOccurrences(of: entity, with: character)
        }
        if plain.contains("&#") {
            let pattern = Patterns.entity.expression
            let source = plain as NSString
            var result = ""
            var last = 0
            for match in pattern?.matches(in: plain, range: NSRange(location: 0, length: source.length)) ?? [] {
                let hex = source.substring(with: match.range(at: 1)).isEmpty == false
                let digits = source.substring(with: match.range(at: 2))
                guard let value = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value), value != 0 else { continue }
                result += source.substring(with: NSRange(location: last, length: match.range.location - last))
                result.unicodeScalars.append(scalar)
                last = match.range.location + match.range.length
            }
            plain = result + source.substring(from: last)
        }
        // Last, so that "&amp;lt;" is "&lt;", as written.
        return plain.replacingOccurrences(of: "&amp;", with: "&")
    }
}
