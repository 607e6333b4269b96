import CGtk

/// What spelling needs of a text view: its characters by offset (GTK counts Unicode scalars),
/// the error underline over ranges of them, its cursor, a replacement Undo takes back whole, and
/// its context menu's own items.
extension TextView {
    public var characterCount: Int { Int(gtk_text_buffer_get_char_count(buffer)) }

    /// The characters in `range` (clamped to the text).
    public func text(in range: Range<Int>) -> String {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &start, gint(clamping: range.lowerBound))
        gtk_text_buffer_get_iter_at_offset(buffer, &end, gint(clamping: range.upperBound))
        guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 1) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }

    /// Where the cursor is, in characters from the start.
    public var cursorOffset: Int {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(buffer, &iter, gtk_text_buffer_get_insert(buffer))
        return Int(gtk_text_iter_get_offset(&iter))
    }

    public func placeCursor(at offset: Int) {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &iter, gint(offset))
        gtk_text_buffer_place_cursor(buffer, &iter)
    }

    /// Underlines `ranges` as misspelled, and nothing else within `region`.
    public func underlineMisspelled(_ ranges: [Range<Int>], within region: Range<Int>) {
        let tag = misspelledTag
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &start, gint(region.lowerBound))
        gtk_text_buffer_get_iter_at_offset(buffer, &end, gint(region.upperBound))
        gtk_text_buffer_remove_tag(buffer, tag, &start, &end)
        for range in ranges {
            gtk_text_buffer_get_iter_at_offset(buffer, &start, gint(range.lowerBound))
            gtk_text_buffer_get_iter_at_offset(buffer, &end, gint(range.upperBound))
            gtk_text_buffer_apply_tag(buffer, tag, &start, &end)
        }
    }

    /// The ranges underlined as misspelled, read back from the buffer's tag.
    public var misspelledRanges: [Range<Int>] {
        let tag = misspelledTag
        var ranges: [Range<Int>] = []
        var iter = GtkTextIter()
        gtk_text_buffer_get_start_iter(buffer, &iter)
        var from: Int? = gtk_text_iter_has_tag(&iter, tag) != 0 ? 0 : nil
        while gtk_text_iter_forward_to_tag_toggle(&iter, tag) != 0 {
            let offset = Int(gtk_text_iter_get_offset(&iter))
            if gtk_text_iter_starts_tag(&iter, tag) != 0 {
                from = offset
            } else if let start = from {
                ranges.append(start..<offset)
                from = nil
            }
        }
        if let start = from { ranges.append(start..<characterCount) }
        return ranges
    }

    /// Puts `text` in at the cursor, as typing it does.
    public func insertAtCursor(_ text: String) {
        gtk_text_buffer_begin_user_action(buffer)
        gtk_text_buffer_insert_at_cursor(buffer, text, -1)
        gtk_text_buffer_end_user_action(buffer)
    }

    /// Replaces the characters in `range` with `text`, as one step of Undo.
    public func replace(_ range: Range<Int>, with text: String) {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_begin_user_action(buffer)
        gtk_text_buffer_get_iter_at_offset(buffer, &start, gint(range.lowerBound))
        gtk_text_buffer_get_iter_at_offset(buffer, &end, gint(range.upperBound))
        gtk_text_buffer_delete(buffer, &start, &end)
        gtk_text_buffer_insert(buffer, &start, text, -1)
        gtk_text_buffer_place_cursor(buffer, &start)
        gtk_text_buffer_end_user_action(buffer)
    }

    /// Items of its own in the view's context menu, after GTK's. A right click first puts the
    /// cursor where it was made (unless inside the selection), so the items can be about the
    /// word clicked, as the Menu key's are about the word at the cursor.
    public func makeExtraMenu(prefix: String) -> ExtraMenu {
        let menu = ExtraMenu(prefix: prefix, on: self, hearsClicks: false)
        gtk_text_view_set_extra_menu(typed(raw), typed(UnsafeMutableRawPointer(menu.model)))
        let gesture = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(gesture, guint(GDK_BUTTON_SECONDARY))
        gtk_event_controller_set_propagation_phase(gesture, GTK_PHASE_CAPTURE)
        let view = raw, buffer = buffer
        Signal.connectPress(UnsafeMutableRawPointer(gesture), "pressed", { [weak menu] _, x, y in
            defer { menu?.willShow() }
            var bufferX: gint = 0, bufferY: gint = 0
            gtk_text_view_window_to_buffer_coords(typed(view), GTK_TEXT_WINDOW_WIDGET, gint(x), gint(y), &bufferX, &bufferY)
            var iter = GtkTextIter(), selectionStart = GtkTextIter(), selectionEnd = GtkTextIter()
            guard gtk_text_view_get_iter_at_location(typed(view), &iter, bufferX, bufferY) != 0 else { return }
            if gtk_text_buffer_get_selection_bounds(buffer, &selectionStart, &selectionEnd) != 0,
               gtk_text_iter_in_range(&iter, &selectionStart, &selectionEnd) != 0 { return }
            gtk_text_buffer_place_cursor(buffer, &iter)
        })
        gtk_widget_add_controller(raw, gesture)
        return menu
    }

    /// The tag of misspelled words: the error underline (a red wave), made once per buffer.
    private var misspelledTag: UnsafeMutablePointer<GtkTextTag> {
        tag(named: "misspelled") { set in
            set("underline", pango_underline_get_type()) { g_value_set_enum($0, gint(PANGO_UNDERLINE_ERROR.rawValue)) }
        }
    }
}
