import CGtk

/// GtkBox: children in a row or a column.
public final class Box: Widget {
    public enum Orientation { case horizontal, vertical }

    public init(_ orientation: Orientation, spacing: Int32 = 0) {
        super.init(gtk_box_new(orientation == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL, spacing))
    }

    /// A box a screen reader meets as a group named `accessibleName` ("Tags"), its children inside.
    /// The role can only be given at construction (`accessible-role` is construct-only).
    public init(_ orientation: Orientation, spacing: Int32 = 0, groupNamed accessibleName: String) {
        var role = GValue()
        g_value_init(&role, gtk_accessible_role_get_type())
        g_value_set_enum(&role, Int32(bitPattern: GTK_ACCESSIBLE_ROLE_GROUP.rawValue))
        defer { g_value_unset(&role) }
        let object = "accessible-role".withCString { name in
            var names: [UnsafePointer<CChar>?] = [name]
            return g_object_new_with_properties(gtk_box_get_type(), 1, &names, &role)
        }
        // A GtkBox is a GtkWidget; g_object_new only fails for a type that does not exist.
        super.init(UnsafeMutableRawPointer(object!).assumingMemoryBound(to: GtkWidget.self))
        gtk_orientable_set_orientation(OpaquePointer(raw), orientation == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL)
        gtk_box_set_spacing(typed(raw), spacing)
        setAccessibleLabel(accessibleName)
    }

    public func append(_ child: Widget) { gtk_box_append(typed(raw), child.raw) }

    public func remove(_ child: Widget) { gtk_box_remove(typed(raw), child.raw) }

    public func removeAll() {
        while let child = gtk_widget_get_first_child(raw) { gtk_box_remove(typed(raw), child) }
    }

    /// How many widgets it holds.
    public var childCount: Int {
        var count = 0
        var child = gtk_widget_get_first_child(raw)
        while let current = child {
            count += 1
            child = gtk_widget_get_next_sibling(current)
        }
        return count
    }
}

/// GtkScrolledWindow around one child.
public final class ScrolledWindow: Widget {
    public init(_ child: Widget? = nil) {
        super.init(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        if let child { setChild(child) }
    }

    private var opaque: OpaquePointer { OpaquePointer(raw) }

    public func setChild(_ child: Widget) {
        gtk_scrolled_window_set_child(opaque, child.raw)
        followFocusOnceSized()
    }

    /// GTK 4.8's viewport (made here for a child that does not scroll itself) scrolls to each
    /// newly focused widget with a 0.2 s animation, and does so before it has a height too: it
    /// then takes the focused widget for out of view and animates to where it already is. A
    /// window giving a field the keyboard as it appears ran twelve frames for nothing after its
    /// first, and was not idle until they were done. So the viewport follows the focus from
    /// when it is first given its height.
    private func followFocusOnceSized() {
        guard let viewport = gtk_scrolled_window_get_child(opaque), flourish_is_viewport(viewport) != 0 else { return }
        guard let adjustment = gtk_scrolled_window_get_vadjustment(opaque),
              gtk_adjustment_get_page_size(adjustment) <= 0 else { return }
        gtk_viewport_set_scroll_to_focus(OpaquePointer(viewport), 0)
        let instance = UnsafeMutableRawPointer(adjustment)
        var handler: UInt = 0
        handler = Signal.connect(instance, "changed") {
            guard handler != 0, gtk_adjustment_get_page_size(adjustment) > 0 else { return }
            g_signal_handler_disconnect(instance, handler)
            handler = 0
            gtk_viewport_set_scroll_to_focus(OpaquePointer(viewport), 1)
        }
    }

    public func setMinContentHeight(_ height: Int32) {
        gtk_scrolled_window_set_min_content_height(opaque, height)
    }

    /// A scrollbar beside the content whenever it scrolls, instead of GTK's overlay indicator.
    /// The indicator fades in at every motion over the content, and GTK synthesizes one each time
    /// the content under a resting pointer is laid out again (each key typed into a long text):
    /// a second of fading, painted at 60 frames a second, which the next key's frame then waits
    /// its turn behind.
    public func keepScrollbarBeside() {
        gtk_scrolled_window_set_overlay_scrolling(opaque, 0)
    }

    public var keepsScrollbarBeside: Bool { gtk_scrolled_window_get_overlay_scrolling(opaque) == 0 }

    public func setMinContentWidth(_ width: Int32) {
        gtk_scrolled_window_set_min_content_width(opaque, width)
    }

    /// Scrolls sideways only, as tall as its content: something wide that must not make the
    /// window wider.
    public func scrollSideways() {
        gtk_scrolled_window_set_policy(opaque, GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_height(opaque, 1)
    }

    /// Grows with its content up to `height`, then scrolls (a popover's list).
    public func setMaxContentHeight(_ height: Int32) {
        gtk_scrolled_window_set_max_content_height(opaque, height)
        gtk_scrolled_window_set_propagate_natural_height(opaque, 1)
    }
}

/// GtkStack: named pages, one shown at a time.
public final class Stack: Widget {
    public init() {
        super.init(gtk_stack_new())
        // Pages switch at once, as GNOME's own view stacks do; a crossfade is two whole pages
        // painted for a fifth of a second, in software where there is no GPU.
        gtk_stack_set_transition_type(opaque, GTK_STACK_TRANSITION_TYPE_NONE)
        // Sized by the page on screen only: a homogeneous stack measures every page, which would
        // lay out (and shape the text of) a journal no one is looking at.
        gtk_stack_set_hhomogeneous(opaque, 0)
        gtk_stack_set_vhomogeneous(opaque, 0)
    }

    var opaque: OpaquePointer { OpaquePointer(raw) }

    /// Adds a page; a non-nil `title` makes it appear in a `StackSwitcher`.
    public func addPage(_ child: Widget, name: String, title: String? = nil) {
        if let title {
            gtk_stack_add_titled(opaque, child.raw, name, title)
        } else {
            gtk_stack_add_named(opaque, child.raw, name)
        }
    }

    public var visiblePage: String {
        get { string(from: gtk_stack_get_visible_child_name(opaque)) }
        set { gtk_stack_set_visible_child_name(opaque, newValue) }
    }

    /// Calls `action` whenever the visible page changes.
    public func onPageChanged(_ action: @escaping @MainActor () -> Void) {
        Signal.connectPointer(pointer, "notify::visible-child-name", { _ in action() })
    }
}

/// GtkStackSwitcher: the row of page buttons in the header bar.
public final class StackSwitcher: Widget {
    public init(stack: Stack) {
        super.init(gtk_stack_switcher_new())
        gtk_stack_switcher_set_stack(OpaquePointer(raw), stack.opaque)
    }
}

/// GtkHeaderBar with a title widget.
public final class HeaderBar: Widget {
    public init() { super.init(gtk_header_bar_new()) }

    public func setTitleWidget(_ widget: Widget) {
        gtk_header_bar_set_title_widget(OpaquePointer(raw), widget.raw)
    }

    public func packStart(_ widget: Widget) {
        gtk_header_bar_pack_start(OpaquePointer(raw), widget.raw)
    }

    public func packEnd(_ widget: Widget) {
        gtk_header_bar_pack_end(OpaquePointer(raw), widget.raw)
    }
}

/// GtkOverlay: one main child with others floating over it (an in-app notification).
public final class Overlay: Widget {
    public init(child: Widget) {
        super.init(gtk_overlay_new())
        gtk_overlay_set_child(OpaquePointer(raw), child.raw)
    }

    public func addOverlay(_ widget: Widget) { gtk_overlay_add_overlay(OpaquePointer(raw), widget.raw) }
}

/// GtkRevealer: shows or hides its child with a slide down from the top edge.
public final class Revealer: Widget {
    public init(child: Widget) {
        super.init(gtk_revealer_new())
        gtk_revealer_set_transition_type(OpaquePointer(raw), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        gtk_revealer_set_child(OpaquePointer(raw), child.raw)
    }

    public var isRevealed: Bool {
        get { gtk_revealer_get_reveal_child(OpaquePointer(raw)) != 0 }
        set { gtk_revealer_set_reveal_child(OpaquePointer(raw), newValue ? 1 : 0) }
    }
}
