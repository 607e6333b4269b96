import CGtk

/// GtkDropDown over a list of strings: one choice among several, in a popup list.
public final class DropDown: Widget {
    public init(accessibleName: String) {
        super.init(gtk_drop_down_new_from_strings(nil))
        setAccessibleLabel(accessibleName)
    }

    private var dropDown: OpaquePointer { OpaquePointer(raw) }

    /// The choices, in order; replacing them selects the first.
    public var items: [String] {
        get {
            guard let model = gtk_drop_down_get_model(dropDown) else { return [] }
            return (0..<g_list_model_get_n_items(model)).map { string(from: gtk_string_list_get_string(model, $0)) }
        }
        set {
            guard let model = gtk_drop_down_get_model(dropDown) else { return }
            let copies = newValue.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            var strings: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
            gtk_string_list_splice(model, 0, g_list_model_get_n_items(model), &strings)
            gtk_drop_down_set_selected(dropDown, 0)
        }
    }

    /// The index of the choice shown (nil: none, as with no choices).
    public var selected: Int? {
        get {
            let index = gtk_drop_down_get_selected(dropDown)
            return index == GTK_INVALID_LIST_POSITION ? nil : Int(index)
        }
        set { gtk_drop_down_set_selected(dropDown, newValue.map(UInt32.init) ?? GTK_INVALID_LIST_POSITION) }
    }

    /// Gives the keyboard to its button (the drop-down itself takes no focus in GTK 4.8, so a
    /// plain grab would leave the keyboard where it was).
    @discardableResult
    public override func grabFocus() -> Bool {
        gtk_widget_child_focus(raw, GTK_DIR_TAB_FORWARD) != 0
    }

    /// Called when the choice changes, by the person or by code.
    public func onSelected(_ action: @escaping @MainActor () -> Void) {
        Signal.connectPointer(pointer, "notify::selected") { _ in action() }
    }
}
