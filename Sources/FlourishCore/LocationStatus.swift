import Foundation

/// Where finding the person's location stands, in words the form's status line can say.
public enum LocationStatus: Equatable, Sendable {
    /// The person has not asked for their location to be attached.
    case off
    case locating
    case located(Location)
    /// The system (GeoClue's agent, or its configuration) refused Flourish the location.
    case denied
    /// No location service is running on this machine.
    case unavailable
    /// The service was asked but gave no position in time.
    case timedOut
    case failed(reason: String)

    /// The status line's text; nil when there is nothing to say.
    public var message: String? {
        switch self {
        case .off: nil
        case .locating: "Finding where you are…"
        case .located(let location): "Location found, accurate to \(location.accuracyText)."
        case .denied: "The system did not allow Flourish to see your location. Entries are saved without it."
        case .unavailable: "No location service is available on this computer. Entries are saved without a location."
        case .timedOut: "Your location could not be found in time. Entries are saved without it."
        case .failed(let reason): "Your location could not be found (\(reason)). Entries are saved without it."
        }
    }

    /// The fix to attach to an entry saved now, if there is one.
    public var location: Location? {
        if case .located(let location) = self { location } else { nil }
    }
}

/// Finds the person's location for the entry form. The GeoClue client is the real one; the form
/// only ever sees this interface.
@MainActor
public protocol LocationProvider: AnyObject {
    /// Starts looking; `update` hears every status change (on the main thread) until `stop()`.
    func start(update: @escaping @MainActor (LocationStatus) -> Void)
    /// Stops looking and forgets the callback.
    func stop()
}

extension Location {
    /// Compact, offline, for a journal row: "52.52° N, 13.40° E ±50 m".
    public var formatted: String {
        let latitude = String(format: "%.2f° %@", abs(self.latitude), self.latitude < 0 ? "S" : "N")
        let longitude = String(format: "%.2f° %@", abs(self.longitude), self.longitude < 0 ? "W" : "E")
        return "\(latitude), \(longitude) ±\(accuracyText)"
    }

    /// "50 m", or "3 km" for coarse fixes.
    public var accuracyText: String {
        accuracy >= 1_000 ? String(format: "%.0f km", accuracy / 1_000) : String(format: "%.0f m", accuracy)
    }

    /// Spoken form for a screen reader: words instead of symbols.
    public var spoken: String {
        String(format: "Location %.2f degrees %@, %.2f degrees %@, within %@",
               abs(latitude), latitude < 0 ? "south" : "north",
               abs(longitude), longitude < 0 ? "west" : "east",
               accuracy >= 1_000 ? String(format: "%.0f kilometres", accuracy / 1_000) : String(format: "%.0f metres", accuracy))
    }
}
