import CGtk

/// `gboolean (*)(GtkDropTarget *target, const GValue *value, double x, double y, gpointer data)`.
private typealias DropHandler = @MainActor ([String]) -> Bool
private let dropTrampoline: @convention(c) (OpaquePointer?, UnsafePointer<GValue>?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = { _, value, _, _, data in
    guard let value, let data else { return 0 }
    // The box lives as long as the connection (released by the closure's notify).
    nonisolated(unsafe) let run = Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as! DropBox
    let list = g_value_get_boxed(value).map { OpaquePointer($0) }
    // gdk_file_list_get_files gives a new list of the files it holds (not new references).
    let files = list.map { gdk_file_list_get_files($0) }
    defer { if let files { g_slist_free(files) } }
    let paths = FileList.paths(in: files ?? nil)
    return MainActor.assumeIsolated { run.handler(paths) } ? 1 : 0
}

private final class DropBox {
    let handler: DropHandler
    init(_ handler: @escaping DropHandler) { self.handler = handler }
}

private let releaseDropBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

extension Widget {
    /// Takes files dropped anywhere on the widget (from the file manager), before any widget
    /// inside it: `handle` gets their paths and says whether it took them.
    public func onDropFiles(_ handle: @escaping @MainActor ([String]) -> Bool) {
        // Cannot fail: a new object of a type GTK registers itself.
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        let box = Unmanaged.passRetained(DropBox(handle) as AnyObject).toOpaque()
        g_signal_connect_data(UnsafeMutableRawPointer(target), "drop", unsafeBitCast(dropTrampoline, to: GCallback.self),
                              box, releaseDropBox, GConnectFlags(rawValue: 0))
        // Before the widgets inside it: a text field would otherwise take dropped files as
        // their paths in words.
        gtk_event_controller_set_propagation_phase(target, GTK_PHASE_CAPTURE)
        // The widget takes the controller's reference.
        gtk_widget_add_controller(raw, target)
    }
}
