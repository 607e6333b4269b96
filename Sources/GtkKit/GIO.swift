import CGtk

// GIO's asynchronous calls, D-Bus signal subscriptions and GVariants, for the D-Bus clients in
// the bridge (GeoClue, the settings portal). Every C callback and box for them lives here.

/// One-shot GAsyncReadyCallback around a Swift closure.
enum Async {
    typealias Finish = @MainActor (OpaquePointer?) -> Void

    static func run(_ start: (GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void, finish: @escaping Finish) {
        let box = Unmanaged.passRetained(SignalBox<Finish>(finish)).toOpaque()
        start({ _, result, data in
            // Called exactly once by GIO; taking the retained value releases the box.
            let finish = Unmanaged<SignalBox<Finish>>.fromOpaque(data!).takeRetainedValue().handler
            nonisolated(unsafe) let result = result
            MainActor.assumeIsolated { finish(result) }
        }, box)
    }
}

/// Reading and building GVariants without GLib's variadic functions.
enum Variant {
    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer? {
        var children = children
        return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// The string (or object path) at `index` of a tuple.
    static func string(at index: Int, of tuple: OpaquePointer) -> String? {
        guard g_variant_n_children(tuple) > gsize(index), let child = g_variant_get_child_value(tuple, gsize(index)) else { return nil }
        defer { g_variant_unref(child) }
        return g_variant_get_string(child, nil).map { String(cString: $0) }
    }

    /// The boolean at `index` of a tuple.
    static func bool(at index: Int, of tuple: OpaquePointer) -> Bool? {
        guard g_variant_n_children(tuple) > gsize(index), let child = g_variant_get_child_value(tuple, gsize(index)) else { return nil }
        defer { g_variant_unref(child) }
        // "b": a boolean (GLib's type macros are not importable).
        guard String(cString: g_variant_get_type_string(child)) == "b" else { return nil }
        return g_variant_get_boolean(child) != 0
    }

    /// A double from an a{sv} dictionary.
    static func double(_ dictionary: OpaquePointer, _ key: String) -> Double? {
        guard let value = g_variant_lookup_value(dictionary, key, nil) else { return nil }
        defer { g_variant_unref(value) }
        return g_variant_get_double(value)
    }
}

/// A D-Bus signal subscription around a Swift closure, which gets the signal's parameters
/// (a tuple, valid only during the call) on the main thread; GDBus calls back in the main
/// context that subscribed. The box is released when the subscription is dropped.
enum DBusSignal {
    typealias Handler = @MainActor (OpaquePointer) -> Void

    /// Returns the id for `g_dbus_connection_signal_unsubscribe`. A nil `path` hears the signal
    /// from any object (for services whose object path differs between versions).
    static func subscribe(_ connection: OpaquePointer, sender: String, interface: String, member: String,
                          path: String?, arg0: String? = nil, _ handler: @escaping Handler) -> guint {
        let box = Unmanaged.passRetained(SignalBox<Handler>(handler)).toOpaque()
        return g_dbus_connection_signal_subscribe(
            connection, sender, interface, member, path, arg0, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, received, data in
                guard let received else { return }
                let run = Unmanaged<SignalBox<Handler>>.fromOpaque(data!).takeUnretainedValue().handler
                nonisolated(unsafe) let parameters = received
                MainActor.assumeIsolated { run(parameters) }
            },
            box,
            { data in Unmanaged<SignalBox<Handler>>.fromOpaque(data!).release() })
    }
}
