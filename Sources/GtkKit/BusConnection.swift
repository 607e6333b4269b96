import CGtk

/// One D-Bus connection and the signal subscriptions made on it, all dropped together when it
/// goes: a watch holds one per bus and lets it go in its deinit. Every call is asynchronous, so
/// a bus that is slow or absent never holds up the GTK thread.
final class BusConnection {
    private let connection: OpaquePointer
    /// A private connection to an address (a test's stand-in bus) is closed when let go; the
    /// shared connection of a bus type belongs to GIO and stays open.
    private let isPrivate: Bool
    private var subscriptions: [guint] = []

    private init(_ connection: OpaquePointer, isPrivate: Bool) {
        self.connection = connection
        self.isPrivate = isPrivate
    }

    deinit {
        for subscription in subscriptions { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        if isPrivate { g_dbus_connection_close(connection, nil, nil, nil) }
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Connects to `type`'s bus, or, given an `address`, to the bus there. `opened` gets nil
    /// when no bus answers or `cancellable` was cancelled.
    @MainActor
    static func open(_ type: GBusType, address: String?, cancellable: UnsafeMutablePointer<GCancellable>,
                     _ opened: @escaping @MainActor (BusConnection?) -> Void) {
        guard let address else {
            return Async.run({ callback, data in g_bus_get(type, cancellable, callback, data) }) { result in
                opened(g_bus_get_finish(result, nil).map { BusConnection($0, isPrivate: false) })
            }
        }
        // What g_bus_get does for a bus: authenticate, then say Hello to get a unique name.
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
            | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        Async.run({ callback, data in
            g_dbus_connection_new_for_address(address, flags, nil, cancellable, callback, data)
        }) { result in
            opened(g_dbus_connection_new_for_address_finish(result, nil).map { BusConnection($0, isPrivate: true) })
        }
    }

    /// Hears `member` from `sender` until this connection is let go (see `DBusSignal`).
    func subscribe(sender: String, interface: String, member: String, path: String?,
                   _ handler: @escaping DBusSignal.Handler) {
        subscriptions.append(DBusSignal.subscribe(connection, sender: sender, interface: interface,
                                                  member: member, path: path, handler))
    }

    /// Calls a method; `reply` gets the reply tuple (valid only during the call), or nil for an
    /// error, a missing service, or cancellation. `parameters` is a floating tuple or nil.
    @MainActor
    func call(_ destination: String, _ path: String, _ interface: String, _ method: String,
              _ parameters: OpaquePointer?, cancellable: UnsafeMutablePointer<GCancellable>,
              reply: @escaping @MainActor (OpaquePointer?) -> Void) {
        let connection = self.connection
        Async.run({ callback, data in
            g_dbus_connection_call(connection, destination, path, interface, method, parameters, nil,
                                   G_DBUS_CALL_FLAGS_NONE, -1, cancellable, callback, data)
        }) { result in
            let answer = g_dbus_connection_call_finish(connection, result, nil)
            defer { if let answer { g_variant_unref(answer) } }
            reply(answer)
        }
    }

    /// Calls `done` once the bus has handled everything sent on this connection so far, the
    /// match rules of the subscriptions included: from then on they are heard. A bus handles one
    /// connection's messages in order, so the answer to a trivial question proves it.
    @MainActor
    func flushed(cancellable: UnsafeMutablePointer<GCancellable>, _ done: @escaping @MainActor () -> Void) {
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", nil,
             cancellable: cancellable) { answer in
            if answer != nil { done() }
        }
    }
}
