import CGtk

/// Items a text field adds to its own context menu (right click, the Menu key, Shift+F10): GTK
/// keeps Cut, Copy and Paste, and shows these after them. The items can change while the menu
/// is open (the word under the cursor changed); each runs its own action.
@MainActor
public final class ExtraMenu {
    public struct Item {
        public var label: String
        public var isEnabled: Bool
        /// A check mark beside it when true, none when false; nil: a plain item.
        public var isChecked: Bool?
        public var submenu: [Item]?
        public var run: @MainActor () -> Void

        public init(_ label: String, isEnabled: Bool = true, isChecked: Bool? = nil, submenu: [Item]? = nil,
                    run: @escaping @MainActor () -> Void = {}) {
            self.label = label
            self.isEnabled = isEnabled
            self.isChecked = isChecked
            self.submenu = submenu
            self.run = run
        }
    }

    let model: OpaquePointer
    private let group: OpaquePointer
    private let prefix: String
    /// Every item shown, submenus' after their own, with its label (mnemonic taken out) and
    /// its action's name (none for a submenu).
    private var shown: [(label: String, item: Item, action: String?)] = []
    /// Called just before the menu shows (a right click, the Menu key, Shift+F10), to `show` what
    /// it should hold then: what costs time to find (a word's suggestions, 20 to 30 ms) is
    /// found only when it is asked for, never on each keystroke.
    public var willShow: @MainActor () -> Void = {}

    /// Its actions are `prefix.item0`…, on `widget`. The widget's context menu opens on a right
    /// click, the Menu key or Shift+F10: each is heard here first (the capture phase), to fill
    /// the menu before GTK shows it.
    /// `hearsClicks` false: the widget tells `willShow` of a right click itself (a text view
    /// first puts its cursor where the click was).
    init(prefix: String, on widget: Widget, hearsClicks: Bool = true) {
        model = g_menu_new()!
        group = OpaquePointer(g_simple_action_group_new()!)
        self.prefix = prefix
        gtk_widget_insert_action_group(widget.raw, prefix, group)
        widget.onKeyPressed(beforeChildren: true) { [weak self] key, modifiers in
            if key == .menu || (key == .f10 && modifiers.meaningful == .shift) { self?.willShow() }
            return false
        }
        guard hearsClicks else { return }
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, guint(GDK_BUTTON_SECONDARY))
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        Signal.connectPress(UnsafeMutableRawPointer(click), "pressed", { [weak self] _, _, _ in self?.willShow() })
        gtk_widget_add_controller(widget.raw, click)
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(model))
        g_object_unref(UnsafeMutableRawPointer(group))
    }

    /// Replaces every item.
    public func show(_ sections: [[Item]]) {
        for case let (_, _, name?) in shown { g_action_map_remove_action(group, name) }
        shown.removeAll()
        g_menu_remove_all(model)
        for section in sections where !section.isEmpty {
            let menu = g_menu_new()!
            fill(menu, with: section)
            g_menu_append_section(model, nil, typed(menu))
            g_object_unref(UnsafeMutableRawPointer(menu))
        }
    }

    /// Activates the item with this label (in a section or a submenu) through its action, as
    /// choosing it in the menu does; false if there is none or it is disabled.
    @discardableResult
    public func choose(_ label: String) -> Bool {
        guard case let (_, item, name?)? = shown.first(where: { $0.label == label && $0.action != nil }), item.isEnabled else {
            return false
        }
        g_action_group_activate_action(group, name, nil)
        return true
    }

    /// Every item's label, mnemonics taken out, submenus' items after their own label.
    public var labels: [String] { shown.map(\.label) }

    /// Whether the item with this label has its check mark.
    public func isChecked(_ label: String) -> Bool {
        shown.first { $0.label == label }?.item.isChecked ?? false
    }

    private func fill(_ menu: OpaquePointer, with items: [Item]) {
        for item in items {
            let label = item.label.replacingOccurrences(of: "_", with: "")
            if let submenu = item.submenu {
                shown.append((label, item, nil))
                let inner = g_menu_new()!
                fill(inner, with: submenu)
                g_menu_append_submenu(menu, item.label, typed(inner))
                g_object_unref(UnsafeMutableRawPointer(inner))
                continue
            }
            let name = "item\(shown.count)"
            shown.append((label, item, name))
            let action = item.isChecked.map { g_simple_action_new_stateful(name, nil, g_variant_new_boolean($0 ? 1 : 0)) }
                ?? g_simple_action_new(name, nil)
            guard let action else { continue }
            g_simple_action_set_enabled(action, item.isEnabled ? 1 : 0)
            let run = item.run
            Signal.connectPointer(UnsafeMutableRawPointer(action), "activate", { _ in run() })
            g_action_map_add_action(group, action)
            g_object_unref(UnsafeMutableRawPointer(action))
            g_menu_append(menu, item.label, "\(prefix).\(name)")
        }
    }
}
