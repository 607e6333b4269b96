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
        case .locating: tr("Finding where you are…")
        case .located(let location): String(format: tr("Location found, accurate to %@."), location.accuracyText)
        case .denied: tr("The system did not allow Flourish to see your location. Entries are saved without it.")
        case .unavailable: tr("No location service is available on this computer. Entries are saved without a location.")
        case .timedOut: tr("Your location could not be found in time. Entries are saved without it.")
        case .failed(let reason): String(format: tr("Your location could not be found (%@). Entries are saved without it."), reason)
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
