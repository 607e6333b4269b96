import CGtk

/// A typed, owning handle on a GtkWidget.
///
/// The handle holds one strong reference (sinking the floating one of a new widget), so the
/// pointer stays valid for as long as Swift holds the handle, whatever GTK does with the widget.
@MainActor
public class Widget {
    // Immutable for the handle's life; read from `==`, which must be nonisolated.
    nonisolated(unsafe) let raw: UnsafeMutablePointer<GtkWidget>

    /// Takes ownership of a newly created (floating) widget, or adds a reference to an existing one.
    init(_ raw: UnsafeMutablePointer<GtkWidget>) {
        self.raw = raw
        g_object_ref_sink(raw)
    }

    init(_ opaque: OpaquePointer) {
        self.raw = typed(opaque)
        g_object_ref_sink(self.raw)
    }

    deinit {
        // Handles are created and dropped on the GTK thread; the unref is a plain C call.
        g_object_unref(raw)
    }

    var pointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(raw) }

    // MARK: - Style

    public func addClass(_ name: String) { gtk_widget_add_css_class(raw, name) }
    public func removeClass(_ name: String) { gtk_widget_remove_css_class(raw, name) }
    public func hasClass(_ name: String) -> Bool { gtk_widget_has_css_class(raw, name) != 0 }

    // MARK: - State

    public var isVisible: Bool {
        get { gtk_widget_get_visible(raw) != 0 }
        set { gtk_widget_set_visible(raw, newValue ? 1 : 0) }
    }

    /// Whether the widget is actually on screen: visible, mapped, and so are its ancestors.
    public var isMapped: Bool { gtk_widget_get_mapped(raw) != 0 }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(raw) != 0 }
        set { gtk_widget_set_sensitive(raw, newValue ? 1 : 0) }
    }

    public var hasFocus: Bool { gtk_widget_has_focus(raw) != 0 }

    /// Whether the keyboard can move the focus to it (Tab, or a click on it).
    public var isFocusable: Bool {
        get { gtk_widget_get_focusable(raw) != 0 }
        set { gtk_widget_set_focusable(raw, newValue ? 1 : 0) }
    }

    /// Whether the keyboard focus is on this widget or inside it (an entry's focus is on its text child).
    public var containsFocus: Bool { gtk_widget_get_state_flags(raw).rawValue & GTK_STATE_FLAG_FOCUS_WITHIN.rawValue != 0 }

    /// Activates an action by its detailed name ("win.save-entry", "text.undo"), looked for
    /// from this widget up, as a shortcut would.
    @discardableResult
    public func activateAction(_ name: String) -> Bool {
        gtk_widget_activate_action_variant(raw, name, nil) != 0
    }

    @discardableResult
    public func grabFocus() -> Bool { gtk_widget_grab_focus(raw) != 0 }

    /// The smallest size the widget takes (-1 leaves a side to its content).
    public func setSizeRequest(width: Int32, height: Int32) { gtk_widget_set_size_request(raw, width, height) }

    public var tooltip: String? {
        get { gtk_widget_get_tooltip_text(raw).map { String(cString: $0) } }
        set { gtk_widget_set_tooltip_text(raw, newValue) }
    }

    /// A tooltip whose text is asked for only when it is about to show. Setting a tooltip's text
    /// makes GTK look again at what is under the pointer, each time: across a chart's hundreds of
    /// points that cost more than everything else the chart did.
    public func tooltipOnDemand(_ text: @escaping @MainActor () -> String?) {
        gtk_widget_set_has_tooltip(raw, 1)
        Signal.connectTooltip(pointer, text)
    }

    // MARK: - Layout

    public func setMargins(top: Int32 = 0, bottom: Int32 = 0, start: Int32 = 0, end: Int32 = 0) {
        gtk_widget_set_margin_top(raw, top)
        gtk_widget_set_margin_bottom(raw, bottom)
        gtk_widget_set_margin_start(raw, start)
        gtk_widget_set_margin_end(raw, end)
    }

    public func setMargins(_ all: Int32) { setMargins(top: all, bottom: all, start: all, end: all) }

    public func expand(horizontally: Bool? = nil, vertically: Bool? = nil) {
        if let horizontally { gtk_widget_set_hexpand(raw, horizontally ? 1 : 0) }
        if let vertically { gtk_widget_set_vexpand(raw, vertically ? 1 : 0) }
    }

    public enum Align: UInt32 {
        case fill = 0, start, end, center, baseline
        var gtk: GtkAlign { GtkAlign(rawValue) }
    }

    public func align(horizontal: Align? = nil, vertical: Align? = nil) {
        if let horizontal { gtk_widget_set_halign(raw, horizontal.gtk) }
        if let vertical { gtk_widget_set_valign(raw, vertical.gtk) }
    }

    /// Where the widget lies inside `ancestor`, from the top left of the ancestor's border box
    /// (what `render` draws); nil when they are not laid out in one window.
    public func bounds(in ancestor: Widget) -> (x: Double, y: Double, width: Double, height: Double)? {
        // Each is measured in the window's coordinates: a widget's own coordinates start inside
        // its padding, which would shift every point by it.
        guard let root = gtk_widget_get_root(raw) else { return nil }
        let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
        var rect = graphene_rect_t(), outer = graphene_rect_t()
        guard gtk_widget_compute_bounds(raw, window, &rect) != 0, gtk_widget_compute_bounds(ancestor.raw, window, &outer) != 0 else { return nil }
        return (Double(rect.origin.x - outer.origin.x), Double(rect.origin.y - outer.origin.y), Double(rect.size.width), Double(rect.size.height))
    }

    /// The rendered width, once laid out.
    public var allocatedWidth: Int32 { gtk_widget_get_allocated_width(raw) }
    public var allocatedHeight: Int32 { gtk_widget_get_allocated_height(raw) }

    // MARK: - Accessibility

    /// The name a screen reader speaks for this control.
    public func setAccessibleLabel(_ label: String) { flourish_accessible_set_label(raw, label) }

    /// Whether a screen reader hears it as a heading.
    public var isAccessibleHeading: Bool {
        gtk_accessible_get_accessible_role(OpaquePointer(raw)) == GTK_ACCESSIBLE_ROLE_HEADING
    }

    /// The extra text a screen reader reads after the name (used for hints and for field errors).
    public func setAccessibleDescription(_ text: String) { flourish_accessible_set_description(raw, text) }

    /// Leaves the widget out of what a screen reader is told (or puts it back), though it is on screen.
    public func setAccessibleHidden(_ hidden: Bool) { flourish_accessible_set_hidden(raw, hidden ? 1 : 0) }

    public func setAccessibleInvalid(_ invalid: Bool) { flourish_accessible_set_invalid(raw, invalid ? 1 : 0) }

    /// Whether the desktop wants animations (the `gtk-enable-animations` setting).
    public var animationsEnabled: Bool { flourish_animations_enabled(raw) != 0 }

    /// Calls `handle` for each key pressed while the focus is inside this widget (after the focused
    /// widget had its chance, or before it with `beforeChildren`); return true to stop the key there.
    public func onKeyPressed(beforeChildren: Bool = false, _ handle: @escaping @MainActor (Key, Key.Modifiers) -> Bool) {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, beforeChildren ? GTK_PHASE_CAPTURE : GTK_PHASE_BUBBLE)
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed", { keyval, state in
            handle(Key(rawValue: keyval), Key.Modifiers(rawValue: state))
        })
        gtk_widget_add_controller(raw, keys)
    }

    /// Calls `action` for each input inside the widget (a key, a click, a scroll, a touch, the
    /// pointer moving), before any child sees it, and lets the input go on: for noticing that
    /// the person is there (the idle lock).
    public func onAnyInput(_ action: @escaping @MainActor () -> Void) {
        let legacy = gtk_event_controller_legacy_new()!
        gtk_event_controller_set_propagation_phase(legacy, GTK_PHASE_CAPTURE)
        Signal.connectInput(UnsafeMutableRawPointer(legacy), action)
        gtk_widget_add_controller(raw, legacy)
    }

    /// Calls `action` each time the keyboard focus comes into the widget or anything in it.
    public func onFocusEnter(_ action: @escaping @MainActor () -> Void) {
        let focus = gtk_event_controller_focus_new()!
        Signal.connect(UnsafeMutableRawPointer(focus), "enter", action)
        gtk_widget_add_controller(raw, focus)
    }

    /// Calls `started` as each frame of the widget's window starts its update, layout and paint,
    /// and `painted` when that frame is painted: the window's own frame clock, for measuring.
    /// Does nothing before the widget is realized (a window is, once presented).
    public func onFrames(started: @escaping @MainActor () -> Void, painted: @escaping @MainActor () -> Void) {
        guard let clock = gtk_widget_get_frame_clock(raw) else { return }
        Signal.connect(UnsafeMutableRawPointer(clock), "before-paint", started)
        Signal.connect(UnsafeMutableRawPointer(clock), "after-paint", painted)
    }

    /// Calls `action` once, after the window's next frame is painted: for work that should not
    /// hold up what that frame shows.
    public func afterNextPaint(_ action: @escaping @MainActor () -> Void) {
        guard let clock = gtk_widget_get_frame_clock(raw) else {
            MainLoop.after(milliseconds: 0, action)
            return
        }
        let instance = UnsafeMutableRawPointer(clock)
        var handler: UInt = 0
        handler = Signal.connect(instance, "after-paint") {
            guard handler != 0 else { return }
            // GLib keeps the closure alive until this emission returns.
            g_signal_handler_disconnect(instance, handler)
            handler = 0
            action()
        }
    }

    /// Asks for a frame that paints the widget again, whether or not anything in it changed.
    public func queueDraw() { gtk_widget_queue_draw(raw) }

    /// The height of the window the widget is in (0 outside one).
    public var windowHeight: Int32 {
        guard let root = gtk_widget_get_root(raw) else { return 0 }
        return gtk_widget_get_allocated_height(UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self))
    }

    /// Calls `action` each time the widget is mapped (comes on screen).
    public func onMap(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "map", action)
    }
}

extension Widget: Equatable {
    nonisolated public static func == (lhs: Widget, rhs: Widget) -> Bool { lhs.raw == rhs.raw }
}

/// A key, as GDK names it, with the few that Flourish binds spelled out.
public struct Key: Equatable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let escape = Key(rawValue: UInt32(GDK_KEY_Escape))
    public static let delete = Key(rawValue: UInt32(GDK_KEY_Delete))
    public static let keypadDelete = Key(rawValue: UInt32(GDK_KEY_KP_Delete))
    public static let left = Key(rawValue: UInt32(GDK_KEY_Left))
    public static let right = Key(rawValue: UInt32(GDK_KEY_Right))
    public static let up = Key(rawValue: UInt32(GDK_KEY_Up))
    public static let down = Key(rawValue: UInt32(GDK_KEY_Down))
    public static let pageUp = Key(rawValue: UInt32(GDK_KEY_Page_Up))
    public static let pageDown = Key(rawValue: UInt32(GDK_KEY_Page_Down))
    public static let home = Key(rawValue: UInt32(GDK_KEY_Home))
    public static let end = Key(rawValue: UInt32(GDK_KEY_End))
    /// The Menu key, and F10 (Shift+F10): what opens a context menu from the keyboard.
    public static let menu = Key(rawValue: UInt32(GDK_KEY_Menu))
    public static let f10 = Key(rawValue: UInt32(GDK_KEY_F10))
    public static let enter = Key(rawValue: UInt32(GDK_KEY_Return))
    public static let keypadEnter = Key(rawValue: UInt32(GDK_KEY_KP_Enter))

    /// Whether this is the letter `letter`, typed in either case (Caps Lock or Shift).
    public func isLetter(_ letter: Character) -> Bool {
        let lower = gdk_keyval_to_lower(rawValue)
        return lower == gdk_unicode_to_keyval(UInt32(letter.unicodeScalars.first?.value ?? 0))
    }

    /// Modifier keys held with a key.
    public struct Modifiers: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: GDK_SHIFT_MASK.rawValue)
        public static let control = Modifiers(rawValue: GDK_CONTROL_MASK.rawValue)
        public static let alt = Modifiers(rawValue: GDK_ALT_MASK.rawValue)
        /// The modifiers that change what a key means (not Caps Lock or Num Lock).
        public var meaningful: Modifiers { intersection([.shift, .control, .alt]) }
    }
}

extension Widget {
    /// Puts `text` on the desktop's clipboard (the recovery key's Copy button).
    public func copyToClipboard(_ text: String) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(raw), text)
    }
}
