import CGtk

/// Application-wide CSS: one provider for the whole display, loaded once.
@MainActor
public enum Style {
    private static var provider: UnsafeMutablePointer<GtkCssProvider>?

    /// Installs `css` for the default display at application priority, replacing what was loaded before.
    public static func install(css: String) {
        let provider = self.provider ?? gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1)
        if self.provider == nil {
            gtk_style_context_add_provider_for_display(
                gdk_display_get_default(), OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
            self.provider = provider
        }
    }
}
