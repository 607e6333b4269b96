import CGtk

/// Process-wide GTK set-up for code that drives widgets without `Application.run` (tests, tools).
@MainActor
public enum Toolkit {
    private static var initialized = false

    /// Initialises GTK once and wires the main queue into its loop. Needs a display.
    public static func initialize() {
        guard !initialized else { return }
        initialized = true
        skipGLUnderCairo()
        gtk_init()
        MainLoop.integrateDispatch()
        keepStandInWindowLast()
    }

    private static var standInKept = false

    /// Keeps a hidden stand-in window of GtkKit's own last among the toplevels, so that GTK 4.8
    /// answers a screen reader that asks for a window that just closed with that window, not with
    /// a hidden window of no object path, which kills the process: see
    /// `flourish_keep_stand_in_window_last` in shim.h. Once, after gtk_init.
    static func keepStandInWindowLast() {
        guard !standInKept else { return }
        standInKept = true
        flourish_keep_stand_in_window_last()
    }

    /// With `GSK_RENDERER=cairo` nothing is drawn with OpenGL, yet GDK 4.8 on X11 still loads the
    /// GL driver as it opens the display, to choose a visual: with Mesa's software driver that
    /// is some 70 ms of the start-up, spent for nothing. GDK's `gl-disable` skips it. Call before
    /// GTK opens the display; other renderers (GTK's default) are left alone.
    nonisolated static func skipGLUnderCairo() {
        guard let renderer = getenv("GSK_RENDERER"), String(cString: renderer) == "cairo" else { return }
        let debug = getenv("GDK_DEBUG").map { String(cString: $0) } ?? ""
        guard !debug.split(separator: ",").contains("gl-disable") else { return }
        setenv("GDK_DEBUG", debug.isEmpty ? "gl-disable" : debug + ",gl-disable", 1)
    }

    /// Turns the desktop's `gtk-enable-animations` setting on or off for this process.
    public static func setAnimationsEnabled(_ enabled: Bool) {
        setBooleanSetting("gtk-enable-animations", enabled)
    }

    /// Asks the GTK theme for its dark variant (the `gtk-application-prefer-dark-theme` setting).
    public static func setPrefersDark(_ dark: Bool) {
        setBooleanSetting("gtk-application-prefer-dark-theme", dark)
    }

    public static var prefersDark: Bool { booleanSetting("gtk-application-prefer-dark-theme") }

    // MARK: - GtkSettings booleans (g_object_set/get are variadic; GValue is not)

    private static let booleanType = GType(5 << 2) // G_TYPE_BOOLEAN, a macro Swift cannot import

    private static func setBooleanSetting(_ name: String, _ on: Bool) {
        guard let settings = gtk_settings_get_default() else { return }
        var value = GValue()
        g_value_init(&value, booleanType)
        g_value_set_boolean(&value, on ? 1 : 0)
        g_object_set_property(typed(settings) as UnsafeMutablePointer<GObject>, name, &value)
        g_value_unset(&value)
    }

    private static func booleanSetting(_ name: String) -> Bool {
        guard let settings = gtk_settings_get_default() else { return false }
        var value = GValue()
        g_value_init(&value, booleanType)
        defer { g_value_unset(&value) }
        g_object_get_property(typed(settings) as UnsafeMutablePointer<GObject>, name, &value)
        return g_value_get_boolean(&value) != 0
    }
}
