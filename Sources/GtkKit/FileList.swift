import CGtk

/// Paths out of GIO's lists of files: a chooser's choice (a GListModel), a drop or a paste
/// (a GSList inside a GdkFileList). Files without a local path (a phone seen through MTP, say)
/// are left out: Flourish reads what it keeps from the disk.
enum FileList {
    static func paths(in model: OpaquePointer) -> [String] {
        (0..<g_list_model_get_n_items(model)).compactMap { index in
            guard let item = g_list_model_get_item(model, index) else { return nil }
            defer { g_object_unref(item) }
            return path(of: OpaquePointer(item))
        }
    }

    /// The paths of a GSList of GFile (the list's own; its files are not ours to free).
    static func paths(in list: UnsafeMutablePointer<GSList>?) -> [String] {
        var paths: [String] = []
        var node = list
        while let current = node {
            if let file = current.pointee.data, let path = path(of: OpaquePointer(file)) { paths.append(path) }
            node = current.pointee.next
        }
        return paths
    }

    private static func path(of file: OpaquePointer) -> String? {
        guard let text = g_file_get_path(file) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
