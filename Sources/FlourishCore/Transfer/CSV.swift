import Foundation

/// Comma-separated values as RFC 4180 has them: fields quoted when they hold a comma, a quote
/// or a line break, quotes inside doubled, records ended by CRLF.
public enum CSV {
    /// One record, with its line ending.
    public static func record(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A record read back, with the line of the file it starts on (1 is the first).
    public struct Record: Equatable, Sendable {
        public let line: Int
        public let fields: [String]
    }

    /// Why a file is not CSV, and where.
    public struct Problem: Error, Equatable, Sendable {
        public let line: Int
        public let reason: String
    }

    /// Every record of `text`: quoted fields may hold commas, doubled quotes and line breaks
    /// (LF or CRLF); records end with LF or CRLF; a blank line is no record. A quote left open
    /// at the end, or text straight after a closing quote, is a problem named with its line.
    /// `separator` is a comma, or what a spreadsheet saved in its place (";", a tab).
    /// The longest field read, in characters: no journal's text comes near it.
    static let fieldLimit = 1 << 20

    public static func records(_ text: String, separator: Unicode.Scalar = ",") throws(Problem) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        // Counted as it grows: a field past `fieldLimit` is refused at once, not carried along.
        var length = 0
        func grow(_ scalar: Unicode.Scalar, line: Int) throws(Problem) {
            length += 1
            if length > fieldLimit { throw Problem(line: line, reason: "a field longer than 1 MiB of text, longer than any journal's") }
            field.unicodeScalars.append(scalar)
        }
        var line = 1, recordLine = 1
        var quoted = false, closedQuote = false, quotedFrom = 1
        var scalars = Substring(text).unicodeScalars[...]
        // A byte order mark is no part of the first field.
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
            field = ""
            length = 0
            closedQuote = false
        }
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            if quoted {
                if scalar == "\"" {
                    if index < scalars.endIndex, scalars[index] == "\"" {
                        try grow("\"", line: quotedFrom)
                        index = scalars.index(after: index)
                    } else {
                        quoted = false
                        closedQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    try grow(scalar, line: quotedFrom)
                }
                continue
            }
            switch scalar {
            case separator:
                fields.append(field)
                field = ""
                length = 0
                closedQuote = false
            case "\r":
                // CRLF ends a record; a lone CR is kept as text.
                if index < scalars.endIndex, scalars[index] == "\n" { continue }
                try grow(scalar, line: line)
            case "\n":
                endRecord()
                line += 1
                recordLine = line
            case "\"" where field.isEmpty && !closedQuote:
                quoted = true
                quotedFrom = line
            default:
                if closedQuote { throw Problem(line: line, reason: "text follows a closing quote") }
                if scalar == "\"" { throw Problem(line: line, reason: "a quote inside a field that does not start with one") }
                try grow(scalar, line: line)
            }
        }
        if quoted { throw Problem(line: quotedFrom, reason: "a quote opened here is never closed") }
        if !field.isEmpty || !fields.isEmpty || closedQuote { endRecord() }
        return records
    }
}
