import CGtk

/// A client of GeoClue 2, the freedesktop location service, over its D-Bus API on the system bus
/// (which GIO finds through DBUS_SYSTEM_BUS_ADDRESS, as tests use).
///
/// Sequence: Manager.GetClient → set DesktopId and RequestedAccuracyLevel → Client.Start → each
/// LocationUpdated signal names a Location object whose Latitude, Longitude and Accuracy are read.
/// Nothing connects to the bus until `start` is called.
@MainActor
public final class GeoClueClient {
    public enum Event: Equatable, Sendable {
        case fix(latitude: Double, longitude: Double, accuracy: Double)
        /// GeoClue (or its agent) refused: the person or the system said no.
        case denied
        /// No system bus, or no GeoClue on it.
        case unavailable
        case failed(String)
    }

    static let service = "org.freedesktop.GeoClue2"
    static let managerPath = "/org/freedesktop/GeoClue2/Manager"
    static let clientInterface = "org.freedesktop.GeoClue2.Client"
    static let locationInterface = "org.freedesktop.GeoClue2.Location"
    /// GeoClue's GCLUE_ACCURACY_LEVEL_EXACT.
    static let exactAccuracy: UInt32 = 8

    private let desktopID: String
    private let callTimeout: Int32
    private var session: Session?

    /// - Parameters:
    ///   - desktopID: the application id; GeoClue refuses clients that do not give one.
    ///   - callTimeoutMilliseconds: how long one D-Bus call may go unanswered.
    public init(desktopID: String, callTimeoutMilliseconds: Int32 = 25_000) {
        self.desktopID = desktopID
        self.callTimeout = callTimeoutMilliseconds
    }

    /// Starts asking for the position; `handler` hears each fix or the reason there is none.
    public func start(_ handler: @escaping @MainActor (Event) -> Void) {
        stop()
        let session = Session(desktopID: desktopID, callTimeout: callTimeout, handler: handler)
        self.session = session
        session.begin()
    }

    /// Stops the GeoClue client (if one was started) and drops the handler.
    public func stop() {
        session?.end()
        session = nil
    }
}

/// One start…stop of the client. Owns the connection, the cancellable and the signal subscription.
@MainActor
private final class Session {
    let desktopID: String
    let callTimeout: Int32
    var handler: (@MainActor (GeoClueClient.Event) -> Void)?
    let cancellable = g_cancellable_new()!
    var connection: OpaquePointer?
    var clientPath: String?
    var subscription: guint = 0
    var started = false

    init(desktopID: String, callTimeout: Int32, handler: @escaping @MainActor (GeoClueClient.Event) -> Void) {
        self.desktopID = desktopID
        self.callTimeout = callTimeout
        self.handler = handler
    }

    func report(_ event: GeoClueClient.Event) {
        handler?(event)
    }

    func begin() {
        Async.run({ callback, data in
            g_bus_get(G_BUS_TYPE_SYSTEM, self.cancellable, callback, data)
        }, finish: { [weak self] result in
            guard let self, let result else { return }
            var error: UnsafeMutablePointer<GError>?
            guard let connection = g_bus_get_finish(result, &error) else {
                return self.fail(error, otherwise: .unavailable)
            }
            self.connection = connection
            self.getClient()
        })
    }

    func end() {
        handler = nil
        g_cancellable_cancel(cancellable)
        if let connection {
            if subscription != 0 { g_dbus_connection_signal_unsubscribe(connection, subscription) }
            if started, let clientPath {
                // Fire and forget: GeoClue stops the client when asked or when we leave the bus.
                g_dbus_connection_call(connection, GeoClueClient.service, clientPath, GeoClueClient.clientInterface,
                                       "Stop", nil, nil, G_DBUS_CALL_FLAGS_NONE, callTimeout, nil, nil, nil)
            }
            g_object_unref(UnsafeMutableRawPointer(connection))
            self.connection = nil
        }
        g_object_unref(UnsafeMutableRawPointer(cancellable))
    }

    // MARK: - Steps

    private func getClient() {
        call(GeoClueClient.managerPath, "org.freedesktop.GeoClue2.Manager", "GetClient", nil) { [weak self] reply in
            guard let self else { return }
            let path = Variant.string(at: 0, of: reply)
            g_variant_unref(reply)
            guard let path else { return self.report(.failed("GeoClue gave no client")) }
            self.clientPath = path
            self.subscribe(path)
            self.setProperty(path, "DesktopId", g_variant_new_string(self.desktopID)) { [weak self] in
                self?.setProperty(path, "RequestedAccuracyLevel", g_variant_new_uint32(GeoClueClient.exactAccuracy)) { [weak self] in
                    self?.startClient(path)
                }
            }
        }
    }

    private func setProperty(_ path: String, _ name: String, _ value: OpaquePointer?, then next: @escaping @MainActor () -> Void) {
        let parameters = Variant.tuple([g_variant_new_string(GeoClueClient.clientInterface),
                                        g_variant_new_string(name), g_variant_new_variant(value)])
        call(path, "org.freedesktop.DBus.Properties", "Set", parameters) { reply in
            g_variant_unref(reply)
            next()
        }
    }

    private func startClient(_ path: String) {
        // Start waits while the desktop asks the person (GNOME's permission dialog), so it gets no
        // call timeout; the provider's own timer says "timed out" meanwhile.
        call(path, GeoClueClient.clientInterface, "Start", nil, timeout: Int32.max) { [weak self] reply in
            g_variant_unref(reply)
            self?.started = true
        }
    }

    private func subscribe(_ path: String) {
        guard let connection else { return }
        subscription = DBusSignal.subscribe(connection, sender: GeoClueClient.service, interface: GeoClueClient.clientInterface,
                                            member: "LocationUpdated", path: path) { [weak self] parameters in
            // LocationUpdated (o old, o new): the new Location object's path.
            if let newPath = Variant.string(at: 1, of: parameters) { self?.readLocation(newPath) }
        }
    }

    private func readLocation(_ path: String) {
        let parameters = Variant.tuple([g_variant_new_string(GeoClueClient.locationInterface)])
        // GeoClue frees a Location object two updates later; if this read loses that race it
        // fails harmlessly and the next LocationUpdated brings a fresh one, so the failure is
        // ignored rather than taken for "no service" (which would drop the fix already known).
        call(path, "org.freedesktop.DBus.Properties", "GetAll", parameters, reportErrors: false) { [weak self] reply in
            defer { g_variant_unref(reply) }
            guard let self else { return }
            guard let properties = g_variant_get_child_value(reply, 0) else { return }
            defer { g_variant_unref(properties) }
            guard let latitude = Variant.double(properties, "Latitude"),
                  let longitude = Variant.double(properties, "Longitude") else {
                return self.report(.failed("GeoClue sent a location without coordinates"))
            }
            self.report(.fix(latitude: latitude, longitude: longitude, accuracy: Variant.double(properties, "Accuracy") ?? 0))
        }
    }

    // MARK: - Calls

    /// Calls a method on GeoClue; `reply` gets the reply (to unref), errors become events.
    private func call(_ path: String, _ interface: String, _ method: String, _ parameters: OpaquePointer?,
                      timeout: Int32? = nil, reportErrors: Bool = true,
                      reply: @escaping @MainActor (OpaquePointer) -> Void) {
        guard let connection else {
            if let parameters { g_variant_unref(g_variant_ref_sink(parameters)) } // not consumed by a call
            return
        }
        Async.run({ callback, data in
            g_dbus_connection_call(connection, GeoClueClient.service, path, interface, method, parameters, nil,
                                   G_DBUS_CALL_FLAGS_NONE, timeout ?? self.callTimeout, self.cancellable, callback, data)
        }, finish: { [weak self] result in
            guard let self, let result else { return }
            var error: UnsafeMutablePointer<GError>?
            guard let value = g_dbus_connection_call_finish(self.connection, result, &error) else {
                guard reportErrors else { return g_clear_error(&error) }
                return self.fail(error, otherwise: .failed(method))
            }
            reply(value)
        })
    }

    /// Turns a GError into the event a person can understand; cancellation says nothing.
    private func fail(_ error: UnsafeMutablePointer<GError>?, otherwise: GeoClueClient.Event) {
        guard let error else { return report(otherwise) }
        defer { g_error_free(error) }
        if g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)) != 0 { return }
        let remote = g_dbus_error_get_remote_error(error).map { pointer -> String in
            defer { g_free(pointer) }
            return String(cString: pointer)
        }
        g_dbus_error_strip_remote_error(error) // "GDBus.Error:name: text" → "text", for the status line
        let message = string(from: error.pointee.message)
        switch remote {
        case "org.freedesktop.DBus.Error.AccessDenied", "org.freedesktop.DBus.Error.AuthFailed":
            report(.denied)
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
             "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
             "org.freedesktop.systemd1.NoSuchUnit":
            report(.unavailable)
        case let name? where name.hasPrefix("org.freedesktop.DBus.Error.Spawn."):
            // The bus knows GeoClue but could not start it: as good as not there.
            report(.unavailable)
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout":
            report(.failed("the location service did not answer"))
        case nil where error.pointee.domain == g_io_error_quark() && error.pointee.code == Int32(G_IO_ERROR_TIMED_OUT.rawValue):
            report(.failed("the location service did not answer"))
        default:
            if case .unavailable = otherwise { report(.unavailable) } else { report(.failed(message)) }
        }
    }
}
