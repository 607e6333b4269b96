import CGtk

/// What spelling needs of a one-line field (the title): as `TextView`'s, the underline made of
/// Pango attributes over the text's bytes, since a GtkEntry has no tags.
extension TextEntry {
    private var editable: OpaquePointer { OpaquePointer(raw) }

    public var characterCount: Int { Int(g_utf8_strlen(gtk_editable_get_text(editable), -1)) }

    public func text(in range: Range<Int>) -> String {
        guard let chars = gtk_editable_get_chars(editable, gint(clamping: range.lowerBound), gint(clamping: range.upperBound)) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }

    public var cursorOffset: Int { cursorPosition }

    public func placeCursor(at offset: Int) { cursorPosition = offset }

    public func underlineMisspelled(_ ranges: [Range<Int>], within region: Range<Int>) {
        let kept = misspelledRanges.filter { !region.overlaps($0) && !(region.isEmpty && region.lowerBound == $0.lowerBound) }
        let all = (kept + ranges).sorted { $0.lowerBound < $1.lowerBound }
        // Pango counts bytes of UTF-8: each range's characters to bytes.
        let text = Array(self.text.unicodeScalars)
        var bytes = [0]
        for scalar in text { bytes.append(bytes.last! + String(scalar).utf8.count) }
        let list = pango_attr_list_new()!
        for range in all where range.upperBound <= text.count {
            let underline = pango_attr_underline_new(PANGO_UNDERLINE_ERROR)!
            underline.pointee.start_index = guint(bytes[range.lowerBound])
            underline.pointee.end_index = guint(bytes[range.upperBound])
            pango_attr_list_insert(list, underline)
        }
        gtk_entry_set_attributes(typed(raw), list)
        pango_attr_list_unref(list)
    }

    public var misspelledRanges: [Range<Int>] {
        guard let list = gtk_entry_get_attributes(typed(raw)) else { return [] }
        let text = Array(self.text.unicodeScalars)
        var offsets: [Int: Int] = [0: 0]
        var byte = 0
        for (index, scalar) in text.enumerated() {
            byte += String(scalar).utf8.count
            offsets[byte] = index + 1
        }
        var ranges: [Range<Int>] = []
        var item = pango_attr_list_get_attributes(list)
        let first = item
        while let node = item {
            let attribute = node.pointee.data.assumingMemoryBound(to: PangoAttribute.self)
            if attribute.pointee.klass.pointee.type == PANGO_ATTR_UNDERLINE,
               let start = offsets[Int(attribute.pointee.start_index)], let end = offsets[Int(attribute.pointee.end_index)] {
                ranges.append(start..<end)
            }
            pango_attribute_destroy(attribute)
            item = node.pointee.next
        }
        g_slist_free(first)
        return ranges
    }

    public func replace(_ range: Range<Int>, with text: String) {
        gtk_editable_delete_text(editable, gint(range.lowerBound), gint(range.upperBound))
        var position = gint(range.lowerBound)
        gtk_editable_insert_text(editable, text, -1, &position)
        gtk_editable_set_position(editable, position)
    }

    /// Items of its own in the field's context menu, after GTK's.
    public func makeExtraMenu(prefix: String) -> ExtraMenu {
        let menu = ExtraMenu(prefix: prefix, on: self)
        gtk_entry_set_extra_menu(typed(raw), typed(UnsafeMutableRawPointer(menu.model)))
        return menu
    }
}
