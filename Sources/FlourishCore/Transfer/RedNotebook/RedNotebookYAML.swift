import Foundation

/// The YAML that RedNotebook's month files hold, read without a YAML library: mappings in block
/// style (by indentation) or flow style (`{text: …, Work: {Meeting: null}}`, across lines), and
/// scalars plain, 'single-' or "double-quoted", folded over lines as YAML folds them. That is
/// everything PyYAML writes for a dictionary of strings; anything else is refused, never guessed.
enum RedNotebookYAML {
    indirect enum Node: Equatable {
        case scalar(String)
        case null
        case mapping([(key: String, value: Node)])

        static func == (one: Node, other: Node) -> Bool {
            switch (one, other) {
            case let (.scalar(a), .scalar(b)): a == b
            case (.null, .null): true
            case let (.mapping(a), .mapping(b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
            default: false
            }
        }

        /// The value under `key` of a mapping.
        subscript(key: String) -> Node? {
            if case .mapping(let pairs) = self { return pairs.first { $0.key == key }?.value }
            return nil
        }
    }

    struct Malformed: Error {
        let line: Int
    }

    /// The document's top mapping.
    static func parse(_ text: String) throws(Malformed) -> Node {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        return try block(lines, &index, indent: 0)
    }

    private static func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }

    private static func isBlank(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    /// A block mapping whose keys are at `indent`.
    /// Deeper than this is no RedNotebook month (its days go three deep): refused, never
    /// followed down until the stack runs out.
    static let depthLimit = 32

    private static func block(_ lines: [String], _ index: inout Int, indent: Int, depth: Int = 0) throws(Malformed) -> Node {
        guard depth < depthLimit else { throw Malformed(line: index + 1) }
        var pairs: [(key: String, value: Node)] = []
        while index < lines.count {
            let line = lines[index]
            if isBlank(line) || line.hasPrefix("---") && indent == 0 && pairs.isEmpty {
                index += 1
                continue
            }
            let here = indentation(line)
            if here < indent { break }
            guard here == indent else { throw Malformed(line: index + 1) }
            var cursor = Cursor(String(line.dropFirst(here)))
            guard let key = cursor.key() else { throw Malformed(line: index + 1) }
            let rest = cursor.rest.trimmingCharacters(in: .whitespaces)
            index += 1
            if rest.isEmpty {
                // A nested mapping, or a scalar on the lines below.
                let next = lines[index...].first { !isBlank($0) }
                if let next, indentation(next) > indent, Cursor(next.trimmingCharacters(in: .whitespaces)).looksLikeKey {
                    pairs.append((key, try block(lines, &index, indent: indentation(next), depth: depth + 1)))
                } else {
                    pairs.append((key, try value(continuing: "", lines, &index, indent: indent)))
                }
            } else {
                pairs.append((key, try value(continuing: rest, lines, &index, indent: indent)))
            }
        }
        return .mapping(pairs)
    }

    /// A flow value or scalar that starts with `start` and goes on over the lines indented more
    /// than `indent`.
    private static func value(continuing start: String, _ lines: [String], _ index: inout Int, indent: Int) throws(Malformed) -> Node {
        var raw = start
        let first = index
        while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).isEmpty || indentation(lines[index]) > indent {
            raw += "\n" + lines[index]
            index += 1
        }
        // Blank lines after the value belong to no one.
        while raw.hasSuffix("\n") || raw.hasSuffix(" ") { raw.removeLast() }
        var cursor = Cursor(raw)
        guard let node = cursor.flowValue(inFlow: false) else { throw Malformed(line: first) }
        cursor.skipSpace()
        guard cursor.atEnd else { throw Malformed(line: first) }
        return node
    }

    /// A reader over one value's text.
    private struct Cursor {
        let scalars: [Character]
        var at = 0

        init(_ text: String) { scalars = Array(text) }

        var atEnd: Bool { at >= scalars.count }
        var rest: String { String(scalars[min(at, scalars.count)...]) }
        private var current: Character? { at < scalars.count ? scalars[at] : nil }

        mutating func skipSpace() {
            while let character = current, character == " " || character == "\n" || character == "\t" { at += 1 }
        }

        /// Whether the text starts with a key and ": " (or ":" at its end).
        var looksLikeKey: Bool {
            var copy = self
            return copy.key() != nil
        }

        /// A mapping key followed by ":" and a space or the end; the cursor after the colon.
        mutating func key() -> String? {
            let start = at
            if current == "'" || current == "\"" {
                guard case .scalar(let text)? = quoted() else { at = start; return nil }
                guard current == ":" else { at = start; return nil }
                at += 1
                return text
            }
            while let character = current {
                if character == ":", at + 1 == scalars.count || scalars[at + 1] == " " {
                    let key = String(scalars[start..<at]).trimmingCharacters(in: .whitespaces)
                    at += 1
                    return key.isEmpty ? nil : key
                }
                if character == "\n" { break }
                at += 1
            }
            at = start
            return nil
        }

        /// How many flow mappings the cursor is inside.
        var depth = 0

        mutating func flowValue(inFlow: Bool) -> Node? {
            skipSpace()
            switch current {
            case "{":
                guard depth < RedNotebookYAML.depthLimit else { return nil }
                depth += 1
                defer { depth -= 1 }
                return mapping()
            case "'", "\"": return quoted()
            case nil: return .null
            default: return plain(inFlow: inFlow)
            }
        }

        private mutating func mapping() -> Node? {
            at += 1
            var pairs: [(key: String, value: Node)] = []
            while true {
                skipSpace()
                if current == "}" {
                    at += 1
                    return .mapping(pairs)
                }
                guard let key = flowKey() else { return nil }
                skipSpace()
                let value: Node
                if current == "," || current == "}" { value = .null } else {
                    guard let read = flowValue(inFlow: true) else { return nil }
                    value = read
                }
                pairs.append((key, value))
                skipSpace()
                if current == "," { at += 1 } else if current != "}" { return nil }
            }
        }

        private mutating func flowKey() -> String? {
            if current == "'" || current == "\"" {
                guard case .scalar(let text)? = quoted() else { return nil }
                skipSpace()
                guard current == ":" else { return nil }
                at += 1
                return text
            }
            let start = at
            while let character = current, character != ":" || !(at + 1 == scalars.count || " \n,}".contains(scalars[at + 1])) {
                if character == "," || character == "}" { return nil }
                at += 1
            }
            guard current == ":" else { return nil }
            let key = Self.folded(String(scalars[start..<at]))
            at += 1
            return key
        }

        private mutating func plain(inFlow: Bool) -> Node {
            let start = at
            while let character = current {
                if inFlow && (character == "," || character == "}") { break }
                at += 1
            }
            let text = Self.folded(String(scalars[start..<at]))
            return text == "null" || text == "~" ? .null : .scalar(text)
        }

        /// A quoted scalar, its escapes undone and its line breaks folded.
        private mutating func quoted() -> Node? {
            let quote = scalars[at]
            at += 1
            var raw = ""
            while let character = current {
                if quote == "'" && character == "'" {
                    if at + 1 < scalars.count && scalars[at + 1] == "'" {
                        raw.append("'")
                        at += 2
                        continue
                    }
                    at += 1
                    return .scalar(Self.folded(raw, keepEdges: true))
                }
                if quote == "\"" && character == "\"" {
                    at += 1
                    return .scalar(Self.unescaped(raw))
                }
                if quote == "\"" && character == "\\" && at + 1 < scalars.count {
                    raw.append("\\")
                    raw.append(scalars[at + 1])
                    at += 2
                    continue
                }
                raw.append(character)
                at += 1
            }
            return nil
        }

        /// YAML's folding: a line break between two lines is a space, each empty line between
        /// them a line break; indentation of continued lines dropped.
        static func folded(_ raw: String, keepEdges: Bool = false) -> String {
            let lines = raw.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count > 1 else { return keepEdges ? raw : raw.trimmingCharacters(in: .whitespaces) }
            var out = ""
            var blanks = 0
            for (number, line) in lines.enumerated() {
                var piece = String(line)
                if number > 0 { piece = String(piece.drop { $0 == " " || $0 == "\t" }) }
                if number < lines.count - 1 { while piece.hasSuffix(" ") || piece.hasSuffix("\t") { piece.removeLast() } }
                if number > 0 && piece.isEmpty && number < lines.count - 1 {
                    blanks += 1
                    continue
                }
                if number > 0 { out += blanks > 0 ? String(repeating: "\n", count: blanks) : " " }
                blanks = 0
                out += piece
            }
            return keepEdges ? out : out.trimmingCharacters(in: .whitespaces)
        }

        /// A double-quoted scalar's text: an escaped line break joins its lines with nothing
        /// between, the others fold; then the escapes are undone.
        static func unescaped(_ raw: String) -> String {
            // "\" at a line's end: the break and the next line's indentation vanish.
            let joined = raw.replacingOccurrences(of: "\\\\\\n[ \\t]*", with: "", options: .regularExpression)
            let text = folded(joined, keepEdges: true)
            var out = ""
            var characters = Array(text)[...]
            while let character = characters.popFirst() {
                guard character == "\\", let code = characters.popFirst() else {
                    out.append(character)
                    continue
                }
                switch code {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "0": out.append("\0")
                case "\"", "\\", "/", " ": out.append(code)
                case "_": out.append("\u{A0}")
                case "N": out.append("\u{85}")
                case "L": out.append("\u{2028}")
                case "P": out.append("\u{2029}")
                case "x", "u", "U":
                    let width = code == "x" ? 2 : code == "u" ? 4 : 8
                    let digits = String(characters.prefix(width))
                    if digits.count == width, let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) {
                        out.unicodeScalars.append(scalar)
                        characters = characters.dropFirst(width)
                    } else {
                        out.append("\\")
                        out.append(code)
                    }
                default:
                    out.append("\\")
                    out.append(code)
                }
            }
            return out
        }
    }
}
