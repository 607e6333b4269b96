import CGtk
import Foundation

/// Asks where to save a file, with GTK's file chooser (through the desktop's file portal when
/// there is one): `completion` gets the chosen path, or nil if the person cancelled.
@MainActor
public enum SaveDialog {
    public static func ask(title: String, from widget: Widget, suggestedName: String, accept: String, cancel: String,
                           completion: @escaping @MainActor (String?) -> Void) {
        let parent = gtk_widget_get_root(widget.raw).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
        guard let native = gtk_file_chooser_native_new(title, parent, GTK_FILE_CHOOSER_ACTION_SAVE, accept, cancel) else {
            return completion(nil)
        }
        let chooser = native
        gtk_native_dialog_set_modal(typed(native), 1)
        // Pictures, where a person looks for an image they saved; home when there is no such folder.
        let folder = g_get_user_special_dir(G_USER_DIRECTORY_PICTURES).map { String(cString: $0) } ?? NSHomeDirectory()
        if FileManager.default.fileExists(atPath: folder) {
            let file = g_file_new_for_path(folder)
            gtk_file_chooser_set_current_folder(chooser, file, nil)
            g_object_unref(UnsafeMutableRawPointer(file))
        }
        gtk_file_chooser_set_current_name(chooser, suggestedName)
        Signal.connectResponse(UnsafeMutableRawPointer(native), "response") { response in
            var path: String?
            if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(chooser) {
                path = g_file_get_path(file).map { text in
                    defer { g_free(text) }
                    return String(cString: text)
                }
                g_object_unref(UnsafeMutableRawPointer(file))
            }
            gtk_native_dialog_destroy(typed(native))
            // The reference gtk_file_chooser_native_new gave; the emission holds its own until it returns.
            g_object_unref(UnsafeMutableRawPointer(native))
            completion(path)
        }
        gtk_native_dialog_show(typed(native))
    }
}
