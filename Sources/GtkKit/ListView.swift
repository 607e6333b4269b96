import CGtk

/// A virtualized list of keys, with rows built by Swift.
///
/// It is a one-column GtkGridView rather than a GtkListView: on GTK 4.8 a list view keeps 200
/// rows built, bound and measured around its anchor (GTK_LIST_VIEW_MAX_LIST_ITEMS) whatever its
/// height, while a grid view keeps about 30 rows, so its cost follows the screen. The keys (for
/// Flourish, entry ids) stay a Swift array; the view's model only counts them (see
/// `flourish_count_model_new`), so listing a journal makes no object per entry. Each row is a
/// Swift object made once per row widget and bound to a key (and told its position) as it
/// scrolls into view.
public final class KeyedListView<Row: AnyObject, Key>: Widget {
    public typealias MakeRow = @MainActor () -> (row: Row, widget: Widget)

    nonisolated(unsafe) private let model: OpaquePointer // the count model, owned by the selection model, referenced here too
    public private(set) var keys: [Key] = []
    private var rows: [UnsafeMutableRawPointer: (row: Row, widget: Widget)] = [:]
    private let bind: @MainActor (Row, Key, Int) -> Void
    private let unbind: @MainActor (Row) -> Void
    /// Whether the keyboard has been among the rows since the list was last emptied. GTK then
    /// remembers a row to give the keyboard back to (by its place), and only emptying the list
    /// forgets it: see `replaceKeepingRows`.
    private var focusVisited = false

    public init(makeRow: @escaping MakeRow,
                bind: @escaping @MainActor (Row, Key, Int) -> Void,
                unbind: @escaping @MainActor (Row) -> Void) {
        model = flourish_count_model_new()
        g_object_ref(UnsafeMutableRawPointer(model))
        self.bind = bind
        self.unbind = unbind
        let selection = gtk_no_selection_new(model) // takes ownership of one reference
        let factory = gtk_signal_list_item_factory_new()!
        super.init(listRoledGridView())
        gtk_grid_view_set_model(OpaquePointer(raw), selection)
        gtk_grid_view_set_factory(OpaquePointer(raw), factory)
        g_object_unref(UnsafeMutableRawPointer(selection)) // the view holds its own references now
        g_object_unref(UnsafeMutableRawPointer(factory))
        gtk_grid_view_set_min_columns(OpaquePointer(raw), 1)
        gtk_grid_view_set_max_columns(OpaquePointer(raw), 1)

        let factoryPointer = UnsafeMutableRawPointer(factory)
        // The closures hold `self` weakly: the factory outlives no handle in practice, but a
        // strong capture would be a cycle through the signal boxes.
        Signal.connectPointer(factoryPointer, "setup", { [weak self] item in
            guard let self, let item else { return }
            let made = makeRow()
            gtk_list_item_set_child(OpaquePointer(item), made.widget.raw)
            self.rows[item] = made
        })
        Signal.connectPointer(factoryPointer, "bind", { [weak self] item in
            guard let self, let item, let made = self.rows[item] else { return }
            let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
            guard keys.indices.contains(position) else { return }
            bind(made.row, keys[position], position)
        })
        Signal.connectPointer(factoryPointer, "unbind", { [weak self] item in
            guard let self, let item, let made = self.rows[item] else { return }
            unbind(made.row)
        })
        Signal.connectPointer(factoryPointer, "teardown", { [weak self] item in
            guard let self, let item else { return }
            self.rows[item] = nil
        })
        onFocusEnter { [weak self] in self?.focusVisited = true }
        // A one-column grid moves between items with Left and Right as with Up and Down; in a
        // list they mean nothing, so they stop here, before the grid's own key bindings.
        onKeyPressed(beforeChildren: true) { key, modifiers in
            (key == .left || key == .right) && modifiers.meaningful.isEmpty
        }
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(model))
    }

    /// How many items the view has, as GTK counts them.
    public var count: Int { Int(g_list_model_get_n_items(model)) }

    public func key(at position: Int) -> Key { keys[position] }

    /// Replaces `removing` keys at `position` with `adding`, in one change.
    public func splice(at position: Int, removing: Int, adding: [Key]) {
        keys.replaceSubrange(position..<position + removing, with: adding)
        flourish_count_model_splice(model, UInt32(position), UInt32(removing), UInt32(adding.count))
    }

    /// Shows `newKeys` in place of everything: for a whole journal, one copy-on-write array
    /// and one change, whatever its length.
    public func replaceAll(with newKeys: [Key]) {
        let removed = keys.count
        keys = newKeys
        flourish_count_model_splice(model, 0, UInt32(removed), UInt32(newKeys.count))
        // Emptied, GTK forgets the row it would give the keyboard back to.
        if newKeys.isEmpty { focusVisited = containsFocus }
    }

    /// Shows `newKeys` in place of everything, as `replaceAll`, but keeps the rows GTK has built
    /// and binds them again to the keys now at their places: for one list of thousands of
    /// results after another, as a search is typed. GTK 4.8 told of a change to every item
    /// destroys every row it has built and builds them again (some 15 ms a keystroke at 100,000
    /// entries); told only of the change in length, at the end, it keeps them.
    ///
    /// Once the keyboard has been among the rows, the list is emptied and filled instead: GTK
    /// would otherwise give the keyboard back to the row at the place it last had it, not to the
    /// first of the new keys.
    public func replaceKeepingRows(with newKeys: [Key]) {
        guard !focusVisited else {
            replaceAll(with: [])
            replaceAll(with: newKeys)
            return
        }
        let old = keys.count
        keys = newKeys
        if newKeys.count > old {
            flourish_count_model_splice(model, UInt32(old), 0, UInt32(newKeys.count - old))
        } else if newKeys.count < old {
            flourish_count_model_splice(model, UInt32(newKeys.count), UInt32(old - newKeys.count), 0)
        }
        // The rows at the places that remain (those past the new end have gone with the change).
        for (row, position) in boundRows {
            unbind(row)
            bind(row, newKeys[position], position)
        }
    }

    /// The rows that currently have a widget (on screen or just off it), for tests and refreshes.
    public var builtRows: [Row] { rows.values.map(\.row) }

    /// The built rows bound to an item, with the place of the key each is to show.
    public var boundRows: [(row: Row, position: Int)] {
        rows.compactMap { item, made in
            let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
            return position < keys.count && gtk_list_item_get_item(OpaquePointer(item)) != nil ? (made.row, position) : nil
        }
    }

    /// Calls `action` with the key of a row the person activates: a click (one is enough, as in a
    /// list of links), or Enter on the focused row.
    public func onActivate(_ action: @escaping @MainActor (Key) -> Void) {
        gtk_grid_view_set_single_click_activate(OpaquePointer(raw), 1)
        Signal.connectPosition(pointer, "activate", { [weak self] position in
            guard let self, Int(position) < count else { return }
            action(key(at: Int(position)))
        })
    }

    /// The row holding the keyboard focus (the row itself or anything inside it), if any.
    public var focusedRow: Row? {
        guard let root = gtk_widget_get_root(raw) else { return nil }
        // Walks up from the focused widget until it meets one of the list's own row widgets (the
        // parent of a row's widget), or leaves the list.
        var current = gtk_root_get_focus(root)
        while let widget = current, widget != raw {
            if let made = rows.values.first(where: { gtk_widget_get_parent($0.widget.raw) == widget }) { return made.row }
            current = gtk_widget_get_parent(widget)
        }
        return nil
    }

    /// Gives the keyboard focus to the first built row that `matches`; returns whether one did.
    @discardableResult
    public func focusRow(where matches: (Row) -> Bool) -> Bool {
        guard let made = rows.values.first(where: { matches($0.row) }),
              let rowWidget = gtk_widget_get_parent(made.widget.raw) else { return false }
        return gtk_widget_grab_focus(rowWidget) != 0
    }

    /// Activates the first built row that `matches` as Enter on it would; returns whether one did.
    @discardableResult
    public func activateRow(where matches: (Row) -> Bool) -> Bool {
        guard let item = rows.first(where: { matches($0.value.row) })?.key else { return false }
        return activateListAction("list.activate-item", position: gtk_list_item_get_position(OpaquePointer(item)))
    }

    /// Scrolls so that the item at `position` is visible (GTK 4.8's `list.scroll-to-item` action).
    public func scroll(to position: Int) {
        guard position < count else { return }
        activateListAction("list.scroll-to-item", position: UInt32(position))
    }

    /// Runs one of GtkListView's own actions on an item. The action only borrows its parameter,
    /// so the new (floating) variant is sunk here and released after.
    @discardableResult
    private func activateListAction(_ name: String, position: UInt32) -> Bool {
        let parameter = g_variant_ref_sink(g_variant_new_uint32(position))
        defer { g_variant_unref(parameter) }
        return gtk_widget_activate_action_variant(raw, name, parameter) != 0
    }
}

extension Widget {
    /// Names, for a screen reader, the cell a `KeyedListView` wraps this row widget in: on GTK
    /// 4.8 that cell is what the keyboard moves between and what is read, with a role of its own
    /// (a grid view's cell) and, unnamed, its type's name ("GtkListItemWidget").
    public func setListCellAccessibleLabel(_ label: String) {
        guard let cell = gtk_widget_get_parent(raw) else { return }
        flourish_accessible_set_label(cell, label)
    }
}

/// A GtkGridView that a screen reader meets as a list (a one-column grid is one), not a table.
/// The role can only be given at construction: `accessible-role` is construct-only.
private func listRoledGridView() -> UnsafeMutablePointer<GtkWidget> {
    var role = GValue()
    g_value_init(&role, gtk_accessible_role_get_type())
    g_value_set_enum(&role, Int32(bitPattern: GTK_ACCESSIBLE_ROLE_LIST.rawValue))
    defer { g_value_unset(&role) }
    return "accessible-role".withCString { name in
        var names: [UnsafePointer<CChar>?] = [name]
        let object = g_object_new_with_properties(gtk_grid_view_get_type(), 1, &names, &role)
        // A GtkGridView is a GtkWidget; g_object_new only fails for a type that does not exist.
        return UnsafeMutableRawPointer(object!).assumingMemoryBound(to: GtkWidget.self)
    }
}
