import CGtk

/// The desktop's light or dark preference: the freedesktop appearance setting
/// (`org.freedesktop.appearance` `color-scheme`), read through the settings portal on the session
/// bus and followed as it changes. GNOME and KDE both publish it; GTK 4.8 itself does not read it.
@MainActor
public final class AppearanceWatcher {
    public enum Scheme: UInt32, Sendable {
        case noPreference = 0, preferDark = 1, preferLight = 2
    }

    static let portal = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Settings"
    static let namespace = "org.freedesktop.appearance"
    static let key = "color-scheme"

    private let cancellable = g_cancellable_new()!
    private var connection: OpaquePointer?
    private var subscription: guint = 0
    private let changed: @MainActor (Scheme) -> Void

    /// Reads the setting once, then reports every change. Without a portal nothing is reported
    /// (the desktop's default, light, stays).
    public init(changed: @escaping @MainActor (Scheme) -> Void) {
        self.changed = changed
        Async.run({ callback, data in
            g_bus_get(G_BUS_TYPE_SESSION, self.cancellable, callback, data)
        }, finish: { [weak self] result in
            guard let self, let result, let connection = g_bus_get_finish(result, nil) else { return }
            self.connection = connection
            self.subscribe()
            self.read()
        })
    }

    isolated deinit {
        g_cancellable_cancel(cancellable)
        if let connection {
            if subscription != 0 { g_dbus_connection_signal_unsubscribe(connection, subscription) }
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        g_object_unref(UnsafeMutableRawPointer(cancellable))
    }

    private func read() {
        guard let connection else { return }
        let parameters = Variant.tuple([g_variant_new_string(Self.namespace), g_variant_new_string(Self.key)])
        Async.run({ callback, data in
            g_dbus_connection_call(connection, Self.portal, Self.path, Self.interface, "Read", parameters, nil,
                                   G_DBUS_CALL_FLAGS_NONE, 5_000, self.cancellable, callback, data)
        }, finish: { [weak self] result in
            guard let self, let result, let connection = self.connection,
                  let reply = g_dbus_connection_call_finish(connection, result, nil) else { return }
            defer { g_variant_unref(reply) }
            if let scheme = Self.scheme(in: reply) { self.changed(scheme) }
        })
    }

    private func subscribe() {
        guard let connection else { return }
        subscription = DBusSignal.subscribe(connection, sender: Self.portal, interface: Self.interface,
                                            member: "SettingChanged", path: Self.path, arg0: Self.namespace) { [weak self] parameters in
            // SettingChanged (s namespace, s key, v value)
            guard let self, Variant.string(at: 1, of: parameters) == Self.key,
                  let scheme = Self.scheme(in: parameters) else { return }
            self.changed(scheme)
        }
    }

    /// The uint32 in the last child of a reply, however deeply the portal wrapped it in variants
    /// (Read answers `(v)` holding another `v`).
    nonisolated static func scheme(in tuple: OpaquePointer) -> Scheme? {
        let count = g_variant_n_children(tuple)
        guard count > 0, var value = g_variant_get_child_value(tuple, count - 1) else { return nil }
        func type(_ variant: OpaquePointer) -> String { string(from: g_variant_get_type_string(variant)) }
        while type(value) == "v" {
            guard let inner = g_variant_get_variant(value) else { break }
            g_variant_unref(value)
            value = inner
        }
        defer { g_variant_unref(value) }
        guard type(value) == "u" else { return nil }
        return Scheme(rawValue: g_variant_get_uint32(value)) ?? .noPreference
    }
}
