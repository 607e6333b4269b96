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
    public init(iconName: String, accessibleName: String, items: [(label: String, action: String)]) {
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(OpaquePointer(raw), iconName)
        let menu = g_menu_new()!
        for item in items { g_menu_append(menu, item.label, item.action) }
        gtk_menu_button_set_menu_model(OpaquePointer(raw), typed(menu))
        g_object_unref(UnsafeMutableRawPointer(menu))
        gtk_menu_button_set_primary(OpaquePointer(raw), 1) // F10 opens it, as in GNOME apps
        setAccessibleLabel(accessibleName)
        tooltip = accessibleName
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
