import CGtk

/// Desktop notifications through GApplication (GNotification): the desktop's notification server
/// shows them (GNOME Shell, KDE Plasma, any org.freedesktop.Notifications), and a click or a
/// button runs one of the application's actions (`app.NAME`), starting it over D-Bus when it is
/// not running.
@MainActor
public struct DesktopNotification {
    public var title: String
    public var body: String
    /// A themed icon's name: the application's id, for its own icon.
    public var iconName: String
    /// (label, action name without "app.").
    public var buttons: [(label: String, action: String)]
    /// What a click on the notification itself runs.
    public var defaultAction: String

    public init(title: String, body: String, iconName: String, buttons: [(label: String, action: String)], defaultAction: String) {
        self.title = title
        self.body = body
        self.iconName = iconName
        self.buttons = buttons
        self.defaultAction = defaultAction
    }
}

extension Application {
    /// Shows `notification` under `id`, replacing one shown under the same id.
    public func send(_ notification: DesktopNotification, id: String) {
        guard let raw = g_notification_new(notification.title) else { return }
        g_notification_set_body(raw, notification.body)
        if let icon = g_themed_icon_new(notification.iconName) {
            g_notification_set_icon(raw, icon)
            g_object_unref(UnsafeMutableRawPointer(icon))
        }
        for button in notification.buttons { g_notification_add_button(raw, button.label, "app.\(button.action)") }
        g_notification_set_default_action(raw, "app.\(notification.defaultAction)")
        g_application_send_notification(gapp, id, raw)
        g_object_unref(UnsafeMutableRawPointer(raw))
    }

    /// Takes the notification shown under `id` off the screen, if it is still there.
    public func withdrawNotification(id: String) {
        g_application_withdraw_notification(gapp, id)
    }
}
