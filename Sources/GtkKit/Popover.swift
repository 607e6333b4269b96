import CGtk

/// A GtkPopover attached to a widget (a button, here), holding one child.
public final class Popover: Widget {
    public init(attachedTo owner: Widget, child: Widget) {
        super.init(gtk_popover_new())
        gtk_popover_set_child(typed(raw), child.raw)
        gtk_popover_set_position(typed(raw), GTK_POS_BOTTOM)
        gtk_widget_set_parent(raw, owner.raw)
        // A popover parented by hand must be unparented before its owner goes, or GTK warns
        // about a finalized widget with children left.
        let popover = raw
        Signal.connect(owner.pointer, "destroy") {
            if gtk_widget_get_parent(popover) != nil { gtk_widget_unparent(popover) }
        }
    }

    public var isOpen: Bool { isVisible }

    public func open() { gtk_popover_popup(typed(raw)) }
    public func close() { gtk_popover_popdown(typed(raw)) }

    /// Called after the popover is hidden, however it was closed (Escape, a click outside, `close()`).
    public func onClosed(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "closed", action)
    }

    /// Escape pressed inside the popover; return true to handle it instead of GTK's instant close.
    public func onEscape(_ action: @escaping @MainActor () -> Bool) {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed", { keyval, _ in
            keyval == UInt32(GDK_KEY_Escape) ? action() : false
        })
        gtk_widget_add_controller(raw, keys)
    }
}
