import Foundation

/// A measure as the JSON export lists it at the top (the entries give their values by its
/// name): its identity, name, kind, and a number's unit and range.
public struct ExportedMeasure: Codable, Equatable, Sendable {
    public var uuid: String
    public var name: String
    /// "number" or "scale" (whole steps 1 to 5).
    public var kind: String
    /// A number's unit; absent for none.
    public var unit: String?
    /// A number's range; both absent for none.
    public var lowest: Double?
    public var highest: Double?

    public init(_ measure: Measure) {
        uuid = measure.uuid
        name = measure.name
        kind = measure.kind.rawValue
        unit = measure.kind == .number && !measure.unit.isEmpty ? measure.unit : nil
        lowest = measure.kind == .number ? measure.range?.lowerBound : nil
        highest = measure.kind == .number ? measure.range?.upperBound : nil
    }

    /// The measure as an import brings it, or nil when the kind is not one Flourish knows.
    var imported: ImportedMeasure? {
        guard let kind = MeasureKind(rawValue: kind) else { return nil }
        let range = lowest.flatMap { low in highest.flatMap { high in low < high ? low...high : nil } }
        return ImportedMeasure(uuid: uuid, definition: MeasureDefinition(name: name, kind: kind, unit: unit ?? "", range: range))
    }
}

/// A measure a file brings (a Flourish export's, a Daylio backup's scale): matched on import to
/// the journal's by uuid, then by name in any case, and made when the journal has neither.
public struct ImportedMeasure: Sendable, Equatable {
    /// Its identity in a Flourish export; nil from other apps.
    public var uuid: String?
    public var definition: MeasureDefinition

    public init(uuid: String? = nil, definition: MeasureDefinition) {
        self.uuid = uuid
        self.definition = definition
    }
}

extension Measure {
    /// A value as files say it, in English whatever the language Flourish speaks: "7.5 hours",
    /// "3 of 5" (Markdown).
    func written(_ value: Double) -> String {
        let number = Self.plain(value)
        return switch kind {
        case .scale: "\(number) of 5"
        case .number: unit.isEmpty ? number : "\(number) \(unit)"
        }
    }

    /// A value as a file holds it: digits and a point, without a needless ".0" (CSV, Markdown).
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
