import CGtk

/// GtkToggleButton: a button that stays pressed until pressed again (a tag on an entry).
public final class ToggleButton: Widget {
    public init(_ label: String) { super.init(gtk_toggle_button_new_with_label(label)) }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(typed(raw)) != 0 }
        set { gtk_toggle_button_set_active(typed(raw), newValue ? 1 : 0) }
    }

    public var label: String {
        get { string(from: gtk_button_get_label(typed(raw))) }
        set { gtk_button_set_label(typed(raw), newValue) }
    }

    /// Called whenever it turns on or off, by the person or by code.
    public func onToggled(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "toggled", action)
    }

    /// Toggles it exactly as a click would.
    public func click() { flourish_emit_clicked(raw) }

    /// Joins `other`'s group: of the buttons in a group, one at a time is on (a choice of one).
    public func join(_ other: ToggleButton) { gtk_toggle_button_set_group(typed(raw), typed(other.raw)) }
}

/// GtkCheckButton: a box to tick, with its label (a choice in a filter).
public final class CheckButton: Widget {
    public init(_ label: String) { super.init(gtk_check_button_new_with_label(label)) }

    /// One choice of several (see `join`), which a screen reader names a radio button.
    public init(choice label: String) { super.init(flourish_radio_button_new(label)) }

    /// The words beside the box, as the person reads them.
    public var label: String { gtk_check_button_get_label(typed(raw)).map { String(cString: $0) } ?? "" }

    public var isActive: Bool {
        get { gtk_check_button_get_active(typed(raw)) != 0 }
        set { gtk_check_button_set_active(typed(raw), newValue ? 1 : 0) }
    }

    /// Makes it one of a group of which only one is ticked (a radio button).
    public func join(_ other: CheckButton) { gtk_check_button_set_group(typed(raw), typed(other.raw)) }

    /// Called whenever it is ticked or unticked, by the person or by code.
    public func onToggled(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "toggled", action)
    }
}

/// GtkFlowBox holding controls that wrap over as many lines as the width needs. Nothing in it is
/// selected: its children only lay the controls out, so Tab goes from control to control.
public final class FlowBox: Widget {
    public init() {
        super.init(gtk_flow_box_new())
        gtk_flow_box_set_selection_mode(opaque, GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(opaque, 0)
        gtk_flow_box_set_max_children_per_line(opaque, 100)
        gtk_flow_box_set_row_spacing(opaque, 6)
        gtk_flow_box_set_column_spacing(opaque, 6)
    }

    private var opaque: OpaquePointer { OpaquePointer(raw) }

    public func append(_ child: Widget) {
        gtk_flow_box_append(opaque, child.raw)
        // The wrapper GTK puts around each child would otherwise take a Tab stop of its own.
        if let wrapper = gtk_widget_get_parent(child.raw) { gtk_widget_set_focusable(wrapper, 0) }
    }

    public func removeAll() {
        while let child = gtk_widget_get_first_child(raw) { gtk_flow_box_remove(opaque, child) }
    }
}

/// A GtkMenuButton that opens a popover holding `child` (the search's filters).
public final class PopoverButton: Widget {
    /// With `mnemonic`, an underscore in `label` marks the letter Alt opens it with.
    public init(label: String, accessibleName: String, child: Widget, mnemonic: Bool = false) {
        self.accessibleName = accessibleName
        super.init(gtk_menu_button_new())
        if mnemonic { gtk_menu_button_set_use_underline(opaque, 1) }
        gtk_menu_button_set_label(opaque, label)
        let popover = gtk_popover_new()!
        gtk_popover_set_child(typed(popover), child.raw)
        gtk_menu_button_set_popover(opaque, popover)
        applyAccessibleName()
    }

    private var opaque: OpaquePointer { OpaquePointer(raw) }

    /// The name a screen reader speaks; applied again when the label changes (GTK 4.8 rewrites it).
    public var accessibleName: String {
        didSet { applyAccessibleName() }
    }

    /// On the menu button and on the button inside it, which is what takes the keyboard and what
    /// a screen reader announces (GTK 4.8 names that one by its label otherwise).
    private func applyAccessibleName() {
        setAccessibleLabel(accessibleName)
        if let inner = gtk_widget_get_first_child(raw) {
            gtk_accessible_reset_relation(OpaquePointer(inner), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
            flourish_accessible_set_label(inner, accessibleName)
        }
    }

    public var label: String {
        get { string(from: gtk_menu_button_get_label(opaque)) }
        set {
            gtk_menu_button_set_label(opaque, newValue)
            applyAccessibleName()
        }
    }

    public var isOpen: Bool {
        guard let popover = gtk_menu_button_get_popover(opaque) else { return false }
        return gtk_widget_get_visible(typed(popover)) != 0
    }

    public func open() { gtk_menu_button_popup(opaque) }
    public func close() { gtk_menu_button_popdown(opaque) }
}
