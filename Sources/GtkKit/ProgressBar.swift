import CGtk

/// GtkProgressBar, with its text shown ("1,500 of 100,000 entries").
public final class ProgressBar: Widget {
    public init() {
        super.init(gtk_progress_bar_new())
        gtk_progress_bar_set_show_text(OpaquePointer(raw), 1)
    }

    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(OpaquePointer(raw)) }
        set { gtk_progress_bar_set_fraction(OpaquePointer(raw), newValue) }
    }

    public var text: String {
        get { string(from: gtk_progress_bar_get_text(OpaquePointer(raw))) }
        set { gtk_progress_bar_set_text(OpaquePointer(raw), newValue) }
    }
}
