import FlourishCore
import Foundation

/// Numbers as people type them into a measure's fields: with the locale's decimal mark or a
/// point ("7,5" and "7.5" in French), spaces around them ignored. Empty is no number.
enum MeasureNumbers {
    enum Reading: Equatable {
        case empty
        case number(Double)
        case notANumber
    }

    static func read(_ text: String, locale: Locale = .current) -> Reading {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .empty }
        let mark = locale.decimalSeparator ?? "."
        // The minus sign some languages write (U+2212) is a minus.
        var normal = trimmed.replacingOccurrences(of: "\u{2212}", with: "-")
        if mark != "." { normal = normal.replacingOccurrences(of: mark, with: ".") }
        guard let value = Double(normal), value.isFinite else { return .notANumber }
        return .number(value)
    }

    /// A number as a field shows it: the locale's mark, no needless ".0", and every digit it
    /// has (a field that rounded would change the value at the next save of the entry).
    static func text(_ value: Double?) -> String {
        value.map { $0.formatted(.number.precision(.fractionLength(0...12)).grouping(.never)) } ?? ""
    }
}
