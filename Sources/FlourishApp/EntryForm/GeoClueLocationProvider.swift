import FlourishCore
import GtkKit

/// The core's LocationProvider, backed by the real GeoClue client in the bridge. Adds the one
/// policy GeoClue leaves to applications: when to stop waiting for a first fix.
@MainActor
final class GeoClueLocationProvider: LocationProvider {
    private let client: GeoClueClient
    private let timeoutMilliseconds: UInt32
    private var update: (@MainActor (LocationStatus) -> Void)?
    private var generation = 0

    /// - Parameter timeoutMilliseconds: after this long without a fix the status says "timed out"
    ///   (a fix that comes later still replaces it).
    init(desktopID: String, timeoutMilliseconds: UInt32 = 30_000) {
        client = GeoClueClient(desktopID: desktopID, callTimeoutMilliseconds: Int32(timeoutMilliseconds))
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    func start(update: @escaping @MainActor (LocationStatus) -> Void) {
        stop()
        self.update = update
        generation += 1
        let current = generation
        // Any answer (a fix, a refusal, an error) means the wait did not time out.
        var answered = false
        update(.locating)
        client.start { [weak self] event in
            guard let self, current == generation else { return }
            answered = true
            switch event {
            case let .fix(latitude, longitude, accuracy):
                self.update?(.located(Location(latitude: latitude, longitude: longitude, accuracy: accuracy)))
            case .denied: self.update?(.denied)
            case .unavailable: self.update?(.unavailable)
            case .failed(let reason): self.update?(.failed(reason: reason))
            }
        }
        MainLoop.after(milliseconds: timeoutMilliseconds) { [weak self] in
            guard let self, current == generation, !answered else { return }
            self.update?(.timedOut)
        }
    }

    func stop() {
        generation += 1
        update = nil
        client.stop()
    }
}
