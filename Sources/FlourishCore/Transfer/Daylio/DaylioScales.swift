import Foundation

/// Daylio's scales (its trackers: "Sleep Quality", "Sleep Time"), brought in as measures. The
/// CSV export writes them in a `scales` column, each "name: value" (Daylio puts a no-break space
/// after the colon), joined by " | ": a number scale's value as "8/10 points", a time's as
/// "8:00" (hours and minutes), a category's as its label. Numbers become number measures (the
/// CSV does not give a number scale's lowest value, so no range is set), times number measures
/// in hours; a category's labels are no numbers and are left out. A name met again in any case
/// is the same measure.
enum DaylioScales {
    struct Value: Equatable {
        let name: String
        let value: Double
        /// "hours" for a time, "" otherwise.
        let unit: String
    }

    /// The values of one `scales` field, in order; a part whose value is no number is left out.
    static func values(_ field: String) -> [Value] {
        field.components(separatedBy: "|").compactMap { part in
            // The name ends at the first colon followed by a space (a time's own colon is not).
            guard let split = part.range(of: ":[ \u{00A0}]", options: .regularExpression) else { return nil }
            let name = part[..<split.lowerBound].trimmingCharacters(in: .whitespaces)
            let text = part[split.upperBound...].trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\u{00A0}")))
            guard !name.isEmpty, let (value, unit) = number(text) else { return nil }
            return Value(name: name, value: value, unit: unit)
        }
    }

    /// "8/10 points" is 8; "7:30" is 7.5 hours; "4" and "6,5" are themselves.
    private static func number(_ text: String) -> (Double, String)? {
        let parts = text.split(separator: ":")
        if parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<60).contains(minutes), parts[1].count == 2 {
            return (Double(hours) + Double(minutes) / 60, "hours")
        }
        let first = text.split(whereSeparator: { $0 == "/" || $0 == " " || $0 == "\u{00A0}" }).first.map(String.init) ?? ""
        guard let value = Double(first.replacingOccurrences(of: ",", with: ".")), value.isFinite else { return nil }
        return (value, "")
    }

    /// The measures the records' values name, in the order first met (one per name, in any case).
    static func measures(of records: [DaylioExport.Record]) -> [ImportedMeasure] {
        var seen = Set<String>()
        var measures: [ImportedMeasure] = []
        for record in records {
            for scale in record.scales where seen.insert(MeasureDefinition.key(scale.name)).inserted {
                measures.append(ImportedMeasure(definition: MeasureDefinition(name: scale.name, kind: .number, unit: scale.unit)))
            }
        }
        return measures
    }
}
