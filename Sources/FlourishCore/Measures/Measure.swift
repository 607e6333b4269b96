import Foundation

/// Something a person tracks beside their mood: a number (Sleep, hours, 0–24) or a scale of 1 to
/// 5 (Energy, Stress, Pain). Entries carry a value for some of them, never all by force.
public struct Measure: Sendable, Equatable, Hashable, Identifiable {
    public let id: Int64
    /// Names the measure between machines and in exports, whatever it is renamed to.
    public let uuid: String
    public let name: String
    public let kind: MeasureKind
    /// A number's unit ("hours", "steps"); empty for none, and for a scale.
    public let unit: String
    /// The values a number's field offers; nil for any. A scale's are always 1 to 5.
    public let range: ClosedRange<Double>?

    public init(id: Int64, uuid: String = UUID().uuidString.lowercased(), name: String, kind: MeasureKind,
                unit: String = "", range: ClosedRange<Double>? = nil) {
        self.id = id
        self.uuid = uuid
        self.name = name
        self.kind = kind
        self.unit = kind == .scale ? "" : unit
        self.range = kind == .scale ? MeasureKind.scaleSteps : range
    }

    /// The measure as the person defined it (for editing, or for making it again elsewhere).
    public var definition: MeasureDefinition {
        MeasureDefinition(name: name, kind: kind, unit: unit, range: kind == .scale ? nil : range)
    }

    /// Whether an entry can carry `value` for it: a finite number (outside the range too: the
    /// range is what the field offers, and a range narrowed later keeps earlier values), or a
    /// whole step of the scale.
    public func accepts(_ value: Double) -> Bool {
        switch kind {
        case .number: value.isFinite
        case .scale: MeasureKind.scaleSteps.contains(value) && value.rounded() == value
        }
    }

    /// The value as a row or a chart speaks it: "7.5 hours", "3 of 5".
    public func spoken(_ value: Double) -> String {
        switch kind {
        case .scale: String(format: tr("%@ of 5"), MeasureValues.number(value))
        case .number: unit.isEmpty ? MeasureValues.number(value) : "\(MeasureValues.number(value)) \(unit)"
        }
    }
}

public enum MeasureKind: String, Sendable, CaseIterable {
    /// Any number, with an optional unit and range.
    case number
    /// Whole steps from 1 to 5.
    case scale

    /// A scale's steps.
    public static let scaleSteps: ClosedRange<Double> = 1...5
}

/// A measure as the person writes it in Preferences → Measures, before the store keeps it.
public struct MeasureDefinition: Sendable, Equatable {
    public var name: String
    public var kind: MeasureKind
    public var unit: String
    public var range: ClosedRange<Double>?

    public init(name: String, kind: MeasureKind, unit: String = "", range: ClosedRange<Double>? = nil) {
        self.name = name
        self.kind = kind
        self.unit = unit
        self.range = range
    }

    public static let maximumNameLength = 40
    public static let maximumUnitLength = 16

    /// Why a definition cannot be kept, said next to the field it concerns.
    public enum Problem: Error, Sendable, Equatable {
        case emptyName
        case nameTooLong
        case nameTaken(existing: String)
        case unitTooLong
        /// A range whose lowest value is not below its highest, or not a finite number.
        case badRange

        public var message: String {
            switch self {
            case .emptyName: tr("Write a name for the measure.")
            case .nameTooLong: String(format: tr("A measure's name has at most %@ characters."), "\(maximumNameLength)")
            case .nameTaken(let existing): String(format: tr("There is already a measure “%@”."), existing)
            case .unitTooLong: String(format: tr("A unit has at most %@ characters."), "\(maximumUnitLength)")
            case .badRange: tr("Give a lowest and a highest number, the lowest below the highest, or neither.")
            }
        }
    }

    /// The definition as it is kept (name and unit trimmed, one line; a scale has neither unit
    /// nor range), or why it cannot be (a name taken is the store's to check).
    public func validated() -> Result<MeasureDefinition, Problem> {
        let name = name.withoutNUL.oneLine.trimmed
        if name.isEmpty { return .failure(.emptyName) }
        if name.count > Self.maximumNameLength { return .failure(.nameTooLong) }
        guard kind == .number else { return .success(MeasureDefinition(name: name, kind: .scale)) }
        let unit = unit.withoutNUL.oneLine.trimmed
        if unit.count > Self.maximumUnitLength { return .failure(.unitTooLong) }
        if let range, !(range.lowerBound.isFinite && range.upperBound.isFinite && range.lowerBound < range.upperBound) {
            return .failure(.badRange)
        }
        return .success(MeasureDefinition(name: name, kind: .number, unit: unit, range: range))
    }

    /// What names are compared by: "Sleep" and "sleep" are one measure.
    static func key(_ name: String) -> String { name.lowercased() }
}

/// An entry's values, by measure id, and how they are written down as text (a kept draft, an
/// earlier version) and shown.
public enum MeasureValues {
    /// "id=value id=value", by id, as a kept draft keeps them; the value as Swift writes a
    /// Double (exact, and read back the same).
    static func text(_ values: [Int64: Double]) -> String { written(values) }

    /// Reads `text(_:)` back; anything that is not an id and a finite number is left out.
    static func values(_ text: String) -> [Int64: Double] { read(text) { Int64($0) } }

    /// Values by the measures' uuids, as an earlier version keeps them: "uuid=value uuid=value".
    static func text(byUUID values: [String: Double]) -> String { written(values) }

    /// Reads `text(byUUID:)` back; anything that is not a uuid and a finite number is left out.
    static func valuesByUUID(_ text: String) -> [String: Double] { read(text) { $0.isEmpty ? nil : String($0) } }

    /// "key=value key=value", by key.
    private static func written<Key: Comparable>(_ values: [Key: Double]) -> String {
        values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// `written` read back, each key through `key` (nil: left out), as is a value that is not finite.
    private static func read<Key: Hashable>(_ text: String, key: (Substring) -> Key?) -> [Key: Double] {
        var values: [Key: Double] = [:]
        for pair in text.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let key = key(parts[0]), let value = Double(parts[1]), value.isFinite else { continue }
            values[key] = value
        }
        return values
    }

    /// A value without a needless ".0" ("7", "7.5"), in the person's locale's digits and point.
    public static func number(_ value: Double) -> String {
        value.formatted(.number.precision(.fractionLength(0...2)).grouping(.never))
    }
}
