import Foundation

/// Daylio's scales (its numeric trackers: "Sleep", "Energy"), brought in as measures. The CSV
/// export writes them in a `scales` column as "Sleep: 4 | Energy: 3", names as the person gave
/// them; each becomes a number measure (the CSV does not say a scale's range), and a name met
/// again in any case is the same measure.
enum DaylioScales {
    /// The values of one `scales` field, by name; a part that is not "name: number" is left out.
    static func values(_ field: String) -> [(name: String, value: Double)] {
        field.split(separator: "|").compactMap { part in
            guard let colon = part.lastIndex(of: ":") else { return nil }
            let name = part[..<colon].trimmingCharacters(in: .whitespaces)
            let number = part[part.index(after: colon)...].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
            guard !name.isEmpty, let value = Double(number), value.isFinite else { return nil }
            return (name, value)
        }
    }

    /// The measures the records' values name, in the order first met (one per name, in any case).
    static func measures(of records: [DaylioExport.Record]) -> [ImportedMeasure] {
        var seen = Set<String>()
        var measures: [ImportedMeasure] = []
        for record in records {
            for name in record.measureOrder where seen.insert(MeasureDefinition.key(name)).inserted {
                measures.append(ImportedMeasure(definition: MeasureDefinition(name: name, kind: .number)))
            }
        }
        return measures
    }
}
