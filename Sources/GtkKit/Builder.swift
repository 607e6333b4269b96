import CGtk
import Foundation

/// A window defined in a GtkBuilder .ui file (the shortcuts window), translated through a
/// gettext domain.
public final class BuilderWindow: Widget {
    /// Loads object `id` from `file`; nil (with GTK's reason on stderr) if the file is unusable.
    public init?(file: String, id: String, translationDomain: String, transientFor parent: Window) {
        let builder = gtk_builder_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        gtk_builder_set_translation_domain(builder, translationDomain)
        var error: UnsafeMutablePointer<GError>?
        guard gtk_builder_add_from_file(builder, file, &error) != 0,
              let object = gtk_builder_get_object(builder, id) else {
            if let error {
                FileHandle.standardError.write(Data("flourish: \(string(from: error.pointee.message))\n".utf8))
                g_error_free(error)
            }
            return nil
        }
        super.init(typed(UnsafeMutableRawPointer(object)) as UnsafeMutablePointer<GtkWidget>)
        gtk_window_set_transient_for(typed(raw), typed(parent.raw))
    }

    public func present() { gtk_window_present(typed(raw)) }
    public func close() { gtk_window_close(typed(raw)) }
}

/// The primary menu of a header bar: a GtkMenuButton with a GMenu of action items.
public final class MenuButton: Widget {
    public typealias Items = [(label: String, action: String)]

    /// The menu is made the first time it opens (click, Enter or F10), not with the button: its
    /// popover and a row per item would otherwise be built, styled and measured at start-up for
    /// a menu most starts never open.
    public init(iconName: String, accessibleName: String, items: Items) {
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(OpaquePointer(raw), iconName)
        let box = Unmanaged.passRetained(SignalBox<Items>(items)).toOpaque()
        // GTK calls this each time the button is toggled on, before it pops up any menu.
        gtk_menu_button_set_create_popup_func(OpaquePointer(raw), { button, data in
            guard let button, let data, gtk_menu_button_get_menu_model(button) == nil else { return }
            let items = Unmanaged<SignalBox<Items>>.fromOpaque(data).takeUnretainedValue().handler
            let menu = g_menu_new()!
            for item in items { g_menu_append(menu, item.label, item.action) }
            gtk_menu_button_set_menu_model(button, typed(menu))
            g_object_unref(UnsafeMutableRawPointer(menu))
        }, box, { data in
            guard let data else { return }
            Unmanaged<SignalBox<Items>>.fromOpaque(data).release()
        })
        gtk_menu_button_set_primary(OpaquePointer(raw), 1) // F10 opens it, as in GNOME apps
        setAccessibleLabel(accessibleName)
        tooltip = accessibleName
    }

    /// How many items its menu holds: 0 until it is made (the first time it opens).
    public var menuItemCount: Int {
        guard let model = gtk_menu_button_get_menu_model(OpaquePointer(raw)) else { return 0 }
        return Int(g_menu_model_get_n_items(model))
    }

    /// Opens the menu, as a click or F10 does.
    public func popup() { gtk_menu_button_popup(OpaquePointer(raw)) }
    public func popdown() { gtk_menu_button_popdown(OpaquePointer(raw)) }

    /// Whether its menu is on screen.
    public var isOpen: Bool {
        guard let popover = gtk_menu_button_get_popover(OpaquePointer(raw)) else { return false }
        return gtk_widget_get_mapped(typed(popover)) != 0
    }
}

/// GtkAboutDialog, filled without the variadic gtk_show_about_dialog.
public enum AboutDialog {
    @MainActor
    public static func present(parent: Window, name: String, version: String, comments: String, iconName: String) {
        let about = gtk_about_dialog_new()!
        let dialog = OpaquePointer(about)
        gtk_about_dialog_set_program_name(dialog, name)
        gtk_about_dialog_set_version(dialog, version)
        gtk_about_dialog_set_comments(dialog, comments)
        gtk_about_dialog_set_logo_icon_name(dialog, iconName)
        gtk_window_set_transient_for(typed(about), typed(parent.raw))
        gtk_window_set_modal(typed(about), 1)
        gtk_window_set_destroy_with_parent(typed(about), 1)
        gtk_window_present(typed(about))
    }
}
