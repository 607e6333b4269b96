import CGtk

/// What Markdown editing needs of a text view: its styles (tags made once per buffer), the
/// selection, and a Ctrl+click's place in the text.
extension TextView {
    /// How a part of the text is set.
    public enum Style: String, CaseIterable, Sendable {
        case heading1 = "md-h1", heading2 = "md-h2", heading3 = "md-h3"
        case strong = "md-strong", emphasis = "md-emphasis", strikethrough = "md-strike"
        case code = "md-code", link = "md-link", quote = "md-quote"
        /// The marks themselves, kept and dimmed.
        case mark = "md-mark"
    }

    /// Sets `styled` parts, and takes every style off the rest of `region`.
    public func applyStyles(_ styled: [(style: Style, range: Range<Int>)], within region: Range<Int>) {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &start, gint(region.lowerBound))
        gtk_text_buffer_get_iter_at_offset(buffer, &end, gint(region.upperBound))
        for style in Style.allCases { gtk_text_buffer_remove_tag(buffer, tag(style), &start, &end) }
        for (style, range) in styled {
            gtk_text_buffer_get_iter_at_offset(buffer, &start, gint(range.lowerBound))
            gtk_text_buffer_get_iter_at_offset(buffer, &end, gint(range.upperBound))
            gtk_text_buffer_apply_tag(buffer, tag(style), &start, &end)
        }
    }

    /// The styles at a character (for tests: what the editor shows there).
    public func styles(at offset: Int) -> Set<Style> {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &iter, gint(offset))
        return Set(Style.allCases.filter { gtk_text_iter_has_tag(&iter, tag($0)) != 0 })
    }

    /// The selected characters, nil when nothing is selected.
    public var selection: Range<Int>? {
        var start = GtkTextIter(), end = GtkTextIter()
        guard gtk_text_buffer_get_selection_bounds(buffer, &start, &end) != 0 else { return nil }
        return Int(gtk_text_iter_get_offset(&start))..<Int(gtk_text_iter_get_offset(&end))
    }

    public func select(_ range: Range<Int>) {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &start, gint(range.lowerBound))
        gtk_text_buffer_get_iter_at_offset(buffer, &end, gint(range.upperBound))
        gtk_text_buffer_select_range(buffer, &start, &end)
    }

    /// Calls `handle` for Enter (without modifiers) before the view puts in a line break; true
    /// stops the key there. An input method composing text (Japanese, Chinese) hears it first:
    /// Enter that commits a composition never reaches `handle`.
    public func onEnter(_ handle: @escaping @MainActor () -> Bool) {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        let view = raw
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed", { keyval, state in
            guard keyval == UInt32(GDK_KEY_Return) || keyval == UInt32(GDK_KEY_KP_Enter),
                  state & (GDK_SHIFT_MASK.rawValue | GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue) == 0 else { return false }
            if let event = gtk_event_controller_get_current_event(keys),
               gtk_text_view_im_context_filter_keypress(typed(view), event) != 0 { return true }
            return handle()
        })
        gtk_widget_add_controller(raw, keys)
    }

    /// Calls `handle` with the character a Ctrl+click was made on; true claims the click.
    public func onControlClick(_ handle: @escaping @MainActor (Int) -> Bool) {
        let gesture = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(gesture, guint(GDK_BUTTON_PRIMARY))
        gtk_event_controller_set_propagation_phase(gesture, GTK_PHASE_CAPTURE)
        let view = raw
        Signal.connectPress(UnsafeMutableRawPointer(gesture), "pressed", { _, x, y in
            let state = gtk_event_controller_get_current_event_state(gesture)
            guard state.rawValue & GDK_CONTROL_MASK.rawValue != 0 else { return }
            var bufferX: gint = 0, bufferY: gint = 0
            gtk_text_view_window_to_buffer_coords(typed(view), GTK_TEXT_WINDOW_WIDGET, gint(x), gint(y), &bufferX, &bufferY)
            var iter = GtkTextIter()
            guard gtk_text_view_get_iter_at_location(typed(view), &iter, bufferX, bufferY) != 0 else { return }
            if handle(Int(gtk_text_iter_get_offset(&iter))) {
                gtk_gesture_set_state(gesture, GTK_EVENT_SEQUENCE_CLAIMED)
            }
        })
        gtk_widget_add_controller(raw, gesture)
    }

    private func tag(_ style: Style) -> UnsafeMutablePointer<GtkTextTag> {
        // G_TYPE_DOUBLE and its kin are macros Swift cannot see: GLib's fundamental type numbers,
        // shifted by G_TYPE_FUNDAMENTAL_SHIFT (2).
        let doubleType = GType(15 << 2), intType = GType(6 << 2), booleanType = GType(5 << 2), stringType = GType(16 << 2)
        return tag(named: style.rawValue) { set in
            switch style {
            case .heading1, .heading2, .heading3:
                let scale = style == .heading1 ? 1.5 : style == .heading2 ? 1.3 : 1.15
                set("scale", doubleType) { g_value_set_double($0, scale) }
                set("weight", intType) { g_value_set_int($0, 700) }
            case .strong: set("weight", intType) { g_value_set_int($0, 700) }
            case .emphasis, .quote: set("style", pango_style_get_type()) { g_value_set_enum($0, gint(PANGO_STYLE_ITALIC.rawValue)) }
            case .strikethrough: set("strikethrough", booleanType) { g_value_set_boolean($0, 1) }
            case .code: set("family", stringType) { g_value_set_string($0, "monospace") }
            case .link: set("underline", pango_underline_get_type()) { g_value_set_enum($0, gint(PANGO_UNDERLINE_SINGLE.rawValue)) }
            case .mark: set("foreground", stringType) { g_value_set_string($0, "rgba(128,128,128,0.75)") }
            }
        }
    }
}

extension Widget {
    /// Opens `uri` (a link's address) with the desktop's handler, over this widget's window.
    public func openURI(_ uri: String) {
        let root: UnsafeMutablePointer<GtkWindow>? = gtk_widget_get_root(raw).map { typed($0) }
        gtk_show_uri(root, uri, guint32(GDK_CURRENT_TIME))
    }
}
