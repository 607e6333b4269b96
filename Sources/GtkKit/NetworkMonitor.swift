import CGtk

/// Whether the desktop says the network is there (GIO's network monitor: NetworkManager where it
/// runs, the kernel's routes otherwise), so that work waiting for the network starts again as
/// soon as it comes back rather than at its next timer.
@MainActor
public enum NetworkMonitor {
    public static var isAvailable: Bool {
        guard let monitor = g_network_monitor_get_default() else { return true }
        return g_network_monitor_get_network_available(monitor) != 0
    }

    /// Calls `changed` with the new state each time the network comes or goes. GIO's
    /// NetworkManager monitor only notifies the property (it emits no "network-changed"), so
    /// this listens to the notification, which every monitor sends.
    public static func watch(_ changed: @escaping @MainActor (Bool) -> Void) {
        guard let monitor = g_network_monitor_get_default() else { return }
        Signal.connectPointer(UnsafeMutableRawPointer(monitor), "notify::network-available") { _ in changed(isAvailable) }
    }
}
