import CGtk

/// GtkApplicationWindow.
public final class Window: Widget {
    public init(application: Application) {
        super.init(gtk_application_window_new(application.raw))
    }

    private var window: UnsafeMutablePointer<GtkWindow> { typed(raw) }

    public var title: String {
        get { string(from: gtk_window_get_title(window)) }
        set { gtk_window_set_title(window, newValue) }
    }

    public func setDefaultSize(width: Int32, height: Int32) { gtk_window_set_default_size(window, width, height) }

    /// The size the window has now (GTK 4 keeps the default size in step with resizes).
    public var size: (width: Int32, height: Int32) {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(window, &width, &height)
        return (width, height)
    }

    public var isMaximized: Bool { gtk_window_is_maximized(window) != 0 }
    public func maximize() { gtk_window_maximize(window) }

    /// The icon every window of the process shows (the window manager's, the task switcher's).
    public static func setDefaultIcon(name: String) { gtk_window_set_default_icon_name(name) }
    public func setChild(_ child: Widget) { gtk_window_set_child(window, child.raw) }
    public func setTitlebar(_ bar: Widget) { gtk_window_set_titlebar(window, bar.raw) }
    public func present() { gtk_window_present(window) }

    /// Asks the window to close, as its close button does.
    public func close() { gtk_window_close(window) }

    /// Adds `win.NAME`, run by `action`.
    public func addAction(_ name: String, _ action: @escaping @MainActor () -> Void) {
        Action.add(name, to: OpaquePointer(raw), action)
    }

    /// Turns `win.NAME` (given as NAME) on or off; while off, its shortcut does nothing and the key goes on to
    /// the focused widget (so Ctrl+Z still undoes typing when there is no deletion to undo).
    public func setActionEnabled(_ name: String, _ enabled: Bool) {
        guard let action = g_action_map_lookup_action(OpaquePointer(raw), name) else { return }
        g_simple_action_set_enabled(action, enabled ? 1 : 0)
    }

    public func isActionEnabled(_ name: String) -> Bool {
        guard let action = g_action_map_lookup_action(OpaquePointer(raw), name) else { return false }
        return g_action_get_enabled(action) != 0
    }


    /// The seeds dismiss the keyboard on a tap outside a text field. The desktop equivalent: a
    /// click anywhere that is not inside an editable takes keyboard focus away from the field.
    /// Runs in the capture phase and never claims the click, so buttons still get it.
    public func releaseTextFocusOnOutsideClicks() {
        let gesture = gtk_gesture_click_new()!
        gtk_event_controller_set_propagation_phase(gesture, GTK_PHASE_CAPTURE)
        let widget = raw
        Signal.connectPress(UnsafeMutableRawPointer(gesture), "pressed", { _, x, y in
            var picked = gtk_widget_pick(widget, x, y, GTK_PICK_DEFAULT)
            while let current = picked {
                if flourish_is_editable(current) != 0 { return }
                picked = gtk_widget_get_parent(current)
            }
            if let focus = gtk_window_get_focus(typed(widget)), focusIsEditable(focus) {
                gtk_window_set_focus(typed(widget), nil)
            }
        })
        gtk_widget_add_controller(raw, gesture)
    }

    public var isActive: Bool { gtk_window_is_active(window) != 0 }

    /// Runs `action` once, the first time the window is active (has the keyboard).
    public func onFirstActive(_ action: @escaping @MainActor () -> Void) {
        if isActive { return action() }
        let instance = pointer
        var handler: UInt = 0
        handler = Signal.connectPointer(instance, "notify::is-active", { [weak self] _ in
            guard let self, handler != 0, isActive else { return }
            g_signal_handler_disconnect(instance, handler)
            handler = 0
            action()
        })
    }

    /// Runs `action` when the window is asked to close; return true to keep it open.
    public func onCloseRequest(_ action: @escaping @MainActor () -> Bool) {
        Signal.connectReturning(pointer, "close-request", action)
    }
}

private func focusIsEditable(_ focus: UnsafeMutablePointer<GtkWidget>) -> Bool {
    var current: UnsafeMutablePointer<GtkWidget>? = focus
    while let widget = current {
        if flourish_is_editable(widget) != 0 { return true }
        current = gtk_widget_get_parent(widget)
    }
    return false
}
