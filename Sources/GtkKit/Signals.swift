import CGtk

// One `@convention(c)` trampoline per C signal signature. Each connection boxes its Swift closure
// with `Unmanaged.passRetained`; the GClosureNotify releases the box when the instance dies or the
// handler is disconnected, so closures neither leak nor dangle.

final class SignalBox<Handler> {
    let handler: Handler
    init(_ handler: Handler) { self.handler = handler }
}

private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

private func connect<Handler>(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: Handler, trampoline: GCallback
) -> UInt {
    let box = Unmanaged.passRetained(SignalBox(handler) as AnyObject).toOpaque()
    return UInt(g_signal_connect_data(instance, signal, trampoline, box, releaseBox, GConnectFlags(rawValue: 0)))
}

private func handler<Handler>(_ data: UnsafeMutableRawPointer?) -> Handler {
    // The box outlives the connection by construction (released only by `releaseBox`).
    (Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! SignalBox<Handler>).handler
}

// MARK: - Signatures

/// `void (*)(GObject *instance, gpointer data)`: clicked, activate, show, closed, changed, destroy.
typealias VoidHandler = @MainActor () -> Void
private let voidTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
    let run: VoidHandler = handler(data)
    MainActor.assumeIsolated { run() }
}

/// `void (*)(GObject *instance, gpointer arg, gpointer data)`: list factory setup/bind/unbind/teardown,
/// GSimpleAction activate, notify.
typealias PointerHandler = @MainActor (UnsafeMutableRawPointer?) -> Void
private let pointerTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, arg, data in
    let run: PointerHandler = handler(data)
    nonisolated(unsafe) let arg = arg
    MainActor.assumeIsolated { run(arg) }
}

/// `void (*)(GtkDialog *dialog, gint response, gpointer data)`.
typealias ResponseHandler = @MainActor (Int32) -> Void
private let responseTrampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, response, data in
    let run: ResponseHandler = handler(data)
    MainActor.assumeIsolated { run(response) }
}

/// `void (*)(GtkGestureClick *gesture, gint n_press, gdouble x, gdouble y, gpointer data)`.
typealias PressHandler = @MainActor (Int32, Double, Double) -> Void
private let pressTrampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, count, x, y, data in
    let run: PressHandler = handler(data)
    MainActor.assumeIsolated { run(count, x, y) }
}

/// `void (*)(GObject *instance, guint position, gpointer data)`: GtkListView activate.
typealias PositionHandler = @MainActor (UInt32) -> Void
private let positionTrampoline: @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafeMutableRawPointer?) -> Void = { _, position, data in
    let run: PositionHandler = handler(data)
    MainActor.assumeIsolated { run(position) }
}

/// `gboolean (*)(GObject *instance, gpointer data)`: close-request.
typealias BoolHandler = @MainActor () -> Bool
private let boolTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, data in
    let run: BoolHandler = handler(data)
    return MainActor.assumeIsolated { run() } ? 1 : 0
}

/// `gboolean (*)(GtkEventControllerLegacy *c, GdkEvent *event, gpointer data)`: told of input
/// (a key, a button, a scroll, a touch, the pointer moving), never stopping it.
typealias InputHandler = @MainActor () -> Void
private let inputTrampoline: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, event, data in
    let run: InputHandler = handler(data)
    switch event.map({ gdk_event_get_event_type($0) }) {
    case GDK_KEY_PRESS?, GDK_BUTTON_PRESS?, GDK_SCROLL?, GDK_TOUCH_BEGIN?, GDK_MOTION_NOTIFY?:
        MainActor.assumeIsolated { run() }
    default: break
    }
    return 0
}

/// `gboolean (*)(GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state, gpointer data)`.
typealias KeyHandler = @MainActor (UInt32, UInt32) -> Bool
private let keyTrampoline: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, GdkModifierType, UnsafeMutableRawPointer?) -> gboolean = { _, keyval, _, state, data in
    let run: KeyHandler = handler(data)
    return MainActor.assumeIsolated { run(keyval, state.rawValue) } ? 1 : 0
}

/// `void (*)(GObject *instance, gint width, gint height, gpointer data)`: GtkDrawingArea resize.
typealias SizeHandler = @MainActor (Int32, Int32) -> Void
private let sizeTrampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, width, height, data in
    let run: SizeHandler = handler(data)
    MainActor.assumeIsolated { run(width, height) }
}

/// `gboolean (*)(GtkWidget *w, gint x, gint y, gboolean keyboard, GtkTooltip *tooltip, gpointer data)`: query-tooltip.
typealias TooltipHandler = @MainActor () -> String?
private let tooltipTrampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, gboolean, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _, _, _, tooltip, data in
    let run: TooltipHandler = handler(data)
    nonisolated(unsafe) let tooltip = tooltip
    return MainActor.assumeIsolated {
        guard let tooltip, let text = run() else { return 0 }
        gtk_tooltip_set_text(tooltip, text)
        return 1
    }
}

/// `void (*)(GFileMonitor *m, GFile *file, GFile *other, GFileMonitorEvent event, gpointer data)`.
/// Only a change of what the file holds, or of its name, is passed on: not "attributes
/// changed", which merely opening some files causes (SQLite's write-ahead log, read by anyone),
/// nor each write of many (the "done" hint that follows them is).
private let fileChangedTrampoline: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent,
                                                   UnsafeMutableRawPointer?) -> Void = { _, _, _, event, data in
    let passed: [GFileMonitorEvent] = [G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT, G_FILE_MONITOR_EVENT_CREATED, G_FILE_MONITOR_EVENT_DELETED,
                                       G_FILE_MONITOR_EVENT_RENAMED, G_FILE_MONITOR_EVENT_MOVED_IN, G_FILE_MONITOR_EVENT_MOVED_OUT]
    guard passed.contains(event) else { return }
    let run: VoidHandler = handler(data)
    MainActor.assumeIsolated { run() }
}

// MARK: - Connecting

enum Signal {
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping VoidHandler) -> UInt {
        GtkKit.connect(instance, signal, run, trampoline: unsafeBitCast(voidTrampoline, to: GCallback.self))
    }

    @discardableResult
    static func connectPointer(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping PointerHandler) -> UInt {
        GtkKit.connect(instance, signal, run, trampoline: unsafeBitCast(pointerTrampoline, to: GCallback.self))
    }

    @discardableResult
    static func connectResponse(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping ResponseHandler) -> UInt {
        GtkKit.connect(instance, signal, run, trampoline: unsafeBitCast(responseTrampoline, to: GCallback.self))
    }

    @discardableResult
    static func connectPosition(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping PositionHandler) -> UInt {
        GtkKit.connect(instance, signal, run, trampoline: unsafeBitCast(positionTrampoline, to: GCallback.self))
    }

    @discardableResult
    static func connectPress(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping PressHandler) -> UInt {
        GtkKit.connect(instance, signal, run, trampoline: unsafeBitCast(pressTrampoline, to: GCallback.self))
    }

    @discardableResult
    static func connectInput(_ instance: UnsafeMutableRawPointer, _ run: @escaping InputHandler) -> UInt {
        GtkKit.connect(instance, "event", run, trampoline: unsafeBitCast(inputTrampoline, to: GCallback.self))
    }

    @discardableResult
    static func connectReturning(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping BoolHandler) -> UInt {
        GtkKit.connect(instance, signal, run, trampoline: unsafeBitCast(boolTrampoline, to: GCallback.self))
    }

    @discardableResult
    static func connectSize(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping SizeHandler) -> UInt {
        GtkKit.connect(instance, signal, run, trampoline: unsafeBitCast(sizeTrampoline, to: GCallback.self))
    }

    @discardableResult
    static func connectTooltip(_ instance: UnsafeMutableRawPointer, _ run: @escaping TooltipHandler) -> UInt {
        GtkKit.connect(instance, "query-tooltip", run, trampoline: unsafeBitCast(tooltipTrampoline, to: GCallback.self))
    }

    @discardableResult
    static func connectFileChanged(_ instance: UnsafeMutableRawPointer, _ run: @escaping VoidHandler) -> UInt {
        GtkKit.connect(instance, "changed", run, trampoline: unsafeBitCast(fileChangedTrampoline, to: GCallback.self))
    }

    @discardableResult
    static func connectKey(_ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping KeyHandler) -> UInt {
        GtkKit.connect(instance, signal, run, trampoline: unsafeBitCast(keyTrampoline, to: GCallback.self))
    }
}
