import CGtk

/// GtkSearchEntry: a field for words to find, telling of changes as the person types.
public final class SearchEntry: Widget {
    public init() { super.init(gtk_search_entry_new()) }

    private var opaque: OpaquePointer { OpaquePointer(raw) }

    public var text: String {
        get { string(from: gtk_editable_get_text(opaque)) }
        set { gtk_editable_set_text(opaque, newValue) }
    }

    /// Adds `text` at the end of the field in one change, as a keystroke there does, never
    /// through an empty field (setting `text` empties the field first, and GTK reports the empty
    /// field at once). The cursor stays where it was.
    public func type(_ text: String) {
        var end = Int32(self.text.unicodeScalars.count) // GTK's positions count characters
        gtk_editable_insert_text(opaque, text, -1, &end)
    }

    /// How long after a keystroke `onSearchChanged` runs (GTK waits 150 ms by default).
    public var delayMilliseconds: UInt32 {
        get { gtk_search_entry_get_search_delay(opaque) }
        set { gtk_search_entry_set_search_delay(opaque, newValue) }
    }

    /// Typing while `widget` (or anything in it) has the keyboard goes into this field.
    public func captureKeys(from widget: Widget) {
        gtk_search_entry_set_key_capture_widget(opaque, widget.raw)
    }

    public func onSearchChanged(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "search-changed", action)
    }

    /// Escape in the field.
    public func onStopSearch(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "stop-search", action)
    }

    /// Enter in the field.
    public func onActivate(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "activate", action)
    }
}

/// GtkSearchBar: a bar that slides in over content when a search starts and hides when it ends.
public final class SearchBar: Widget {
    public init(child: Widget, entry: SearchEntry) {
        super.init(gtk_search_bar_new())
        gtk_search_bar_set_child(opaque, child.raw)
        gtk_search_bar_connect_entry(opaque, OpaquePointer(entry.raw))
        gtk_search_bar_set_show_close_button(opaque, 1)
    }

    private var opaque: OpaquePointer { OpaquePointer(raw) }

    /// Typing while `widget` (or anything in it) has the keyboard opens the bar and types there.
    public func captureKeys(from widget: Widget) {
        gtk_search_bar_set_key_capture_widget(opaque, widget.raw)
    }

    public var isSearching: Bool {
        get { gtk_search_bar_get_search_mode(opaque) != 0 }
        set { gtk_search_bar_set_search_mode(opaque, newValue ? 1 : 0) }
    }

    /// Called when the bar is shown or hidden (Ctrl+F, Escape, its close button, code).
    public func onSearchingChanged(_ action: @escaping @MainActor () -> Void) {
        Signal.connectPointer(pointer, "notify::search-mode-enabled", { _ in action() })
    }
}

extension ScrolledWindow {
    /// How far down the content is scrolled, in pixels.
    public var verticalPosition: Double {
        get { gtk_adjustment_get_value(gtk_scrolled_window_get_vadjustment(OpaquePointer(raw))) }
        set { gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(OpaquePointer(raw)), newValue) }
    }
}

extension Window {
    /// Destroys the window at once (one that only hides when closed, as the app ends).
    public func destroy() { gtk_window_destroy(typed(raw)) }

    /// Makes this a window of `parent`'s: kept above it, gone with it, hidden when closed.
    public func setTransient(for parent: Window) {
        gtk_window_set_transient_for(typed(raw), typed(parent.raw))
        gtk_window_set_destroy_with_parent(typed(raw), 1)
        // Closing only hides it: the same window (and its Swift handle) opens again next time.
        gtk_window_set_hide_on_close(typed(raw), 1)
    }
}

extension PreviewText {
    /// Shows these UTF-8 byte ranges of the text highlighted (the words a search matched).
    /// Set after the text; new text clears them.
    public func highlight(_ ranges: [Range<Int>]) {
        var flat: [Int32] = []
        for range in ranges { flat += [Int32(clamping: range.lowerBound), Int32(clamping: range.upperBound)] }
        flourish_preview_set_highlights(raw, flat, Int32(ranges.count))
    }

    /// The byte ranges shown highlighted now.
    public var highlights: [Range<Int>] {
        var flat = [Int32](repeating: 0, count: 512)
        let count = Int(flourish_preview_get_highlights(raw, &flat, 256))
        return (0..<count).map { Int(flat[2 * $0])..<Int(flat[2 * $0 + 1]) }
    }
}
