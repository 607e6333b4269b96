import CGtk

/// Hears when a file changes, is replaced (written beside and renamed over) or is removed:
/// GIO's file monitor, which the kernel wakes (inotify), so nothing polls the disk.
@MainActor
public final class FileWatch {
    nonisolated(unsafe) private let monitor: UnsafeMutablePointer<GFileMonitor>

    public init?(path: String, changed: @escaping @MainActor () -> Void) {
        guard let file = g_file_new_for_path(path) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let monitor = g_file_monitor_file(file, G_FILE_MONITOR_WATCH_MOVES, nil, nil) else { return nil }
        self.monitor = monitor
        Signal.connectFileChanged(UnsafeMutableRawPointer(monitor), changed)
    }

    deinit {
        g_file_monitor_cancel(monitor)
        g_object_unref(UnsafeMutableRawPointer(monitor))
    }
}
