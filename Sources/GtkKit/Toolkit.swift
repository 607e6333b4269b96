import CGtk

/// Process-wide GTK set-up for code that drives widgets without `Application.run` (tests, tools).
@MainActor
public enum Toolkit {
    private static var initialized = false

    /// Initialises GTK once and wires the main queue into its loop. Needs a display.
    public static func initialize() {
        guard !initialized else { return }
        initialized = true
        gtk_init()
        MainLoop.integrateDispatch()
    }

    /// Turns the desktop's `gtk-enable-animations` setting on or off for this process.
    public static func setAnimationsEnabled(_ enabled: Bool) {
        guard let settings = gtk_settings_get_default() else { return }
        var value = GValue()
        g_value_init(&value, GType(5 << 2)) // G_TYPE_BOOLEAN
        g_value_set_boolean(&value, enabled ? 1 : 0)
        g_object_set_property(typed(settings) as UnsafeMutablePointer<GObject>, "gtk-enable-animations", &value)
        g_value_unset(&value)
    }
}
