import Foundation

/// A search for entries by a measure's value, typed in the search bar as the person would say
/// it: "sleep < 6", "Energy>=4", "steps = 10000". Only entries that gave the measure a value
/// can match (an entry without one is neither below nor above anything).
public struct MeasureCondition: Sendable, Equatable, Hashable {
    public enum Comparison: String, Sendable, CaseIterable {
        case less = "<", atMost = "<=", greater = ">", atLeast = ">=", equal = "="

        /// The SQL operator, from a fixed set (never from what was typed).
        var sql: String { rawValue }
    }

    public let measureID: Int64
    public let comparison: Comparison
    public let value: Double

    public init(measureID: Int64, comparison: Comparison, value: Double) {
        self.measureID = measureID
        self.comparison = comparison
        self.value = value
    }

    /// The conditions in `text` on the journal's `measures` (named in any case, with or without
    /// accents), and the text left once they are taken out: the words to find. A name followed
    /// by anything but a comparison and a number stays a word to find.
    public static func extract(from text: String, measures: [Measure]) -> (words: String, conditions: [MeasureCondition]) {
        guard !measures.isEmpty, text.contains(where: { "<>=≤≥".contains($0) }) else { return (text, []) }
        var rest = text
        var found: [(position: Int, condition: MeasureCondition)] = []
        // Longer names first: "sleep quality < 3" is not "sleep" followed by "quality".
        for measure in measures.sorted(by: { $0.name.count > $1.name.count }) {
            let name = NSRegularExpression.escapedPattern(for: measure.name)
            let pattern = "(?<![\\p{L}\\p{N}])\(name)\\s*(<=|>=|≤|≥|<|>|=)\\s*(-?\\d+(?:[.,]\\d+)?)(?![\\p{L}\\p{N}])"
            guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { continue }
            while let match = expression.firstMatch(in: rest, range: NSRange(rest.startIndex..., in: rest)),
                  let whole = Range(match.range, in: rest), let symbol = Range(match.range(at: 1), in: rest),
                  let number = Range(match.range(at: 2), in: rest) {
                let comparison: Comparison = switch rest[symbol] {
                case "<": .less
                case "<=", "≤": .atMost
                case ">": .greater
                case ">=", "≥": .atLeast
                default: .equal
                }
                if let value = Double(rest[number].replacingOccurrences(of: ",", with: ".")) {
                    found.append((match.range.location, MeasureCondition(measureID: measure.id, comparison: comparison, value: value)))
                }
                rest.replaceSubrange(whole, with: " ")
            }
        }
        return (rest, found.sorted { $0.position < $1.position }.map(\.condition))
    }
}
