import CGtk
import Foundation

/// Asks for a file to save to, a file to open or a folder, with GTK's file chooser (through the
/// desktop's file portal when there is one): `completion` gets the chosen path, or nil if the
/// person cancelled.
@MainActor
public enum FileChooser {
    public enum Kind {
        case save(suggestedName: String)
        case open
        case folder
    }

    /// A choice of files to show: its name and the endings of their names ("csv"), in any case;
    /// no endings is every file.
    public struct Filter: Sendable {
        public let name: String
        public let suffixes: [String]
        /// Kinds of file by MIME type ("image/jpeg"), beside the endings: a photo without an
        /// ending is still a photo.
        public let mimeTypes: [String]

        public init(name: String, suffixes: [String], mimeTypes: [String] = []) {
            self.name = name
            self.suffixes = suffixes
            self.mimeTypes = mimeTypes
        }
    }

    /// Asks for one file or more to open (several chosen with Ctrl or Shift): `completion` gets
    /// their paths, or none when the person cancelled.
    public static func askForFiles(title: String, from widget: Widget, accept: String, cancel: String, filters: [Filter] = [],
                                   completion: @escaping @MainActor ([String]) -> Void) {
        let parent = gtk_widget_get_root(widget.raw).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
        guard let chooser = gtk_file_chooser_native_new(title, parent, GTK_FILE_CHOOSER_ACTION_OPEN, accept, cancel) else { return completion([]) }
        gtk_native_dialog_set_modal(typed(chooser), 1)
        gtk_file_chooser_set_select_multiple(chooser, 1)
        add(filters, to: chooser)
        Signal.connectResponse(UnsafeMutableRawPointer(chooser), "response") { response in
            var paths: [String] = []
            if response == GTK_RESPONSE_ACCEPT.rawValue, let files = gtk_file_chooser_get_files(chooser) {
                paths = FileList.paths(in: files)
                g_object_unref(UnsafeMutableRawPointer(files))
            }
            gtk_native_dialog_destroy(typed(chooser))
            // The reference gtk_file_chooser_native_new gave; the emission holds its own until it returns.
            g_object_unref(UnsafeMutableRawPointer(chooser))
            completion(paths)
        }
        gtk_native_dialog_show(typed(chooser))
    }

    private static func add(_ filters: [Filter], to chooser: OpaquePointer) {
        for filter in filters {
            let made = gtk_file_filter_new()
            gtk_file_filter_set_name(made, filter.name)
            for suffix in filter.suffixes { gtk_file_filter_add_suffix(made, suffix) }
            for type in filter.mimeTypes { gtk_file_filter_add_mime_type(made, type) }
            if filter.suffixes.isEmpty && filter.mimeTypes.isEmpty { gtk_file_filter_add_pattern(made, "*") }
            // The chooser keeps its own reference.
            gtk_file_chooser_add_filter(chooser, made)
            g_object_unref(UnsafeMutableRawPointer(made))
        }
    }

    /// `filters`, for a file to open: the first is chosen at the start; none shows every file.
    /// `startIn`: the folder it opens in, when it exists.
    public static func ask(_ kind: Kind, title: String, from widget: Widget, accept: String, cancel: String, filters: [Filter] = [],
                           startIn: String? = nil, completion: @escaping @MainActor (String?) -> Void) {
        let parent = gtk_widget_get_root(widget.raw).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
        let action = switch kind {
        case .save: GTK_FILE_CHOOSER_ACTION_SAVE
        case .open: GTK_FILE_CHOOSER_ACTION_OPEN
        case .folder: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
        }
        guard let native = gtk_file_chooser_native_new(title, parent, action, accept, cancel) else { return completion(nil) }
        let chooser = native
        gtk_native_dialog_set_modal(typed(native), 1)
        add(filters, to: chooser)
        if case .save(let name) = kind {
            // Pictures for an image, Documents for the rest; home when there is no such folder.
            let special = name.hasSuffix(".png") ? G_USER_DIRECTORY_PICTURES : G_USER_DIRECTORY_DOCUMENTS
            let folder = g_get_user_special_dir(special).map { String(cString: $0) } ?? NSHomeDirectory()
            if FileManager.default.fileExists(atPath: folder) {
                let file = g_file_new_for_path(folder)
                gtk_file_chooser_set_current_folder(chooser, file, nil)
                g_object_unref(UnsafeMutableRawPointer(file))
            }
            gtk_file_chooser_set_current_name(chooser, name)
        }
        if let startIn, FileManager.default.fileExists(atPath: startIn) {
            let file = g_file_new_for_path(startIn)
            gtk_file_chooser_set_current_folder(chooser, file, nil)
            g_object_unref(UnsafeMutableRawPointer(file))
        }
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
