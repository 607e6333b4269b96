import CGtk

/// Hears when the computer wakes from sleep (logind's PrepareForSleep(false) on the system
/// bus): timers count only time awake, so what was due while it slept is looked at again.
/// Without a system bus or logind it hears nothing, and timers alone serve. The bus is reached
/// without blocking the GTK thread.
@MainActor
public final class SleepWatch {
    nonisolated(unsafe) private var connection: OpaquePointer?
    nonisolated(unsafe) private var subscription: guint = 0
    nonisolated(unsafe) private let cancellable = g_cancellable_new()

    public init(woke: @escaping @MainActor () -> Void) {
        let cancellable = self.cancellable
        Async.run({ callback, data in g_bus_get(G_BUS_TYPE_SYSTEM, cancellable, callback, data) }) { [weak self] result in
            guard let self, let connection = g_bus_get_finish(result, nil) else { return }
            self.connection = connection
            subscription = DBusSignal.subscribe(connection, sender: "org.freedesktop.login1", interface: "org.freedesktop.login1.Manager",
                                                member: "PrepareForSleep", path: "/org/freedesktop/login1") { parameters in
                // (b): true going to sleep, false woken.
                if Variant.bool(at: 0, of: parameters) == false { woke() }
            }
        }
    }

    deinit {
        g_cancellable_cancel(cancellable)
        g_object_unref(UnsafeMutableRawPointer(cancellable))
        if let connection {
            if subscription != 0 { g_dbus_connection_signal_unsubscribe(connection, subscription) }
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
    }
}
