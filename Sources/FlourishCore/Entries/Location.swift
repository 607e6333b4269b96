import Foundation

/// A position on Earth with its accuracy radius in metres.
public struct Location: Sendable, Equatable {
    public let latitude: Double
    public let longitude: Double
    public let accuracy: Double

    public init(latitude: Double, longitude: Double, accuracy: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }
}

extension Location {
    /// Compact, offline, for a journal row: "52.52° N, 13.40° E ±50 m".
    public var formatted: String {
        let latitude = String(format: self.latitude < 0 ? tr("%.2f° S") : tr("%.2f° N"), abs(self.latitude))
        let longitude = String(format: self.longitude < 0 ? tr("%.2f° W") : tr("%.2f° E"), abs(self.longitude))
        return String(format: tr("%@, %@ ±%@"), latitude, longitude, accuracyText)
    }

    /// "50 m", or "3 km" for coarse fixes.
    public var accuracyText: String {
        accuracy >= 1_000 ? String(format: tr("%.0f km"), accuracy / 1_000) : String(format: tr("%.0f m"), accuracy)
    }

    /// Spoken form for a screen reader: words instead of symbols.
    public var spoken: String {
        let latitude = String(format: self.latitude < 0 ? tr("%.2f degrees south") : tr("%.2f degrees north"), abs(self.latitude))
        let longitude = String(format: self.longitude < 0 ? tr("%.2f degrees west") : tr("%.2f degrees east"), abs(self.longitude))
        let within = accuracy >= 1_000
            ? String(format: tr("%.0f kilometres"), accuracy / 1_000) : String(format: tr("%.0f metres"), accuracy)
        return String(format: tr("Location %@, %@, within %@"), latitude, longitude, within)
    }
}
