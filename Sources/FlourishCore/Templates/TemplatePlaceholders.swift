import Foundation

/// The placeholders a template's title and body may hold, filled as it is applied: `{{date}}`
/// ("7 December 2026"), `{{weekday}}` ("Monday") and `{{time}}` ("14:05"), each in the person's
/// language and as their locale writes it. Spaces inside the braces and any case are allowed
/// (`{{ Date }}`); anything else in braces stays as written.
public enum TemplatePlaceholders {
    public static let names = ["date", "weekday", "time"]

    public static func fill(_ text: String, at date: Date, locale: Locale = .current, timeZone: TimeZone = .current) -> String {
        guard text.contains("{{") else { return text }
        func formatter(_ setUp: (DateFormatter) -> Void) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = timeZone
            setUp(formatter)
            return formatter
        }
        let values = [
            "date": formatter { $0.dateStyle = .long; $0.timeStyle = .none }.string(from: date),
            "weekday": formatter { $0.setLocalizedDateFormatFromTemplate("EEEE") }.string(from: date),
            "time": formatter { $0.dateStyle = .none; $0.timeStyle = .short }.string(from: date),
        ]
        var filled = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            filled += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces).lowercased()
            if let value = values[name] {
                filled += value
                rest = rest[close.upperBound...]
            } else {
                // Not a placeholder: its first brace is kept, and the search goes on after it.
                filled += "{"
                rest = rest[rest.index(after: open.lowerBound)...]
            }
        }
        return filled + rest
    }
}
