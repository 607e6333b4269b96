import CGtk
import Foundation

/// A few lines of text for list rows: as wide as it is given, wrapped at words, at most `lines`
/// lines a paragraph, with "…" at the end of the last. Unlike a wrapping `Label` it lays its text
/// out only once for each width (see `flourish_preview_new`), which is what a list scrolling rows
/// in needs. Not selectable; a screen reader reads it as a label.
public final class PreviewText: Widget {
    public init(lines: Int32) { super.init(flourish_preview_new(lines)) }

    public var text: String {
        get { string(from: flourish_preview_get_text(raw)) }
        set { flourish_preview_set_text(raw, newValue) }
    }
}

/// GtkLabel.
public final class Label: Widget {
    public init(_ text: String = "") { super.init(gtk_label_new(text)) }

    /// A label a screen reader hears as a heading of `level` (1 to 6).
    public init(headingLevel level: Int) { super.init(flourish_heading_label_new(Int32(clamping: level))) }

    /// Sets the words with Pango markup (`<b>`, `<i>`, `<tt>`, `<a href>`…); `text` then reads
    /// them without it. Links are followed with the desktop's handler, from the mouse or the
    /// keyboard (Tab to one, Enter).
    public var markup: String {
        get { string(from: gtk_label_get_label(opaque)) }
        set { gtk_label_set_markup(opaque, newValue) }
    }

    /// The text escaped for markup: "&", "<", ">", quotes. On any thread.
    nonisolated public static func escaped(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    private var opaque: OpaquePointer { OpaquePointer(raw) }

    public var text: String {
        get { string(from: gtk_label_get_text(opaque)) }
        set { gtk_label_set_text(opaque, newValue) }
    }

    /// Wraps at word boundaries (falling back to characters), growing in height as needed.
    public func enableWrapping() {
        gtk_label_set_wrap(opaque, 1)
        gtk_label_set_wrap_mode(opaque, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_natural_wrap_mode(opaque, GTK_NATURAL_WRAP_WORD)
    }

    /// At most `count` characters wide when it could be wider: a wrapping label's natural width,
    /// which its window's height is measured at. Without it a long text measures as one line,
    /// and a window sized before the text grew clips what follows it.
    public func setMaxWidthChars(_ count: Int32) { gtk_label_set_max_width_chars(opaque, count) }

    /// Aligns the text to the start of the line (labels centre by default).
    public func alignStart() {
        gtk_label_set_xalign(opaque, 0)
        align(horizontal: .fill)
    }

    /// Aligns the text to the end of the line (a count under a field, by its right edge).
    public func alignEnd() {
        gtk_label_set_xalign(opaque, 1)
        align(horizontal: .fill)
    }

    /// Makes `_X` in the text a mnemonic that focuses `widget` on Alt+X. The label also names the
    /// widget for a screen reader (GTK adds the labelled-by relation), unless `namesWidget` is false
    /// because the widget carries a name of its own.
    public func setMnemonic(_ text: String, for widget: Widget, namesWidget: Bool = true) {
        gtk_label_set_text_with_mnemonic(opaque, text)
        gtk_label_set_mnemonic_widget(opaque, widget.raw)
        if !namesWidget {
            // GTK 4.8 would otherwise speak both names, run together.
            gtk_accessible_reset_relation(OpaquePointer(widget.raw), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
        }
    }

    public var isSelectable: Bool {
        get { gtk_label_get_selectable(opaque) != 0 }
        set { gtk_label_set_selectable(opaque, newValue ? 1 : 0) }
    }
}

/// GtkButton.
public final class Button: Widget {
    /// The name a screen reader speaks, when it is not the visible label. GTK 4.8 rewrites a
    /// button's accessible label whenever its text changes, so the name is applied again then.
    public var accessibleName: String? {
        didSet { applyAccessibleName() }
    }

    public init(_ label: String) {
        super.init(gtk_button_new_with_label(label))
    }

    /// A button with nothing inside, drawn by its CSS (a chart's point), named for a screen reader.
    public init(accessibleName: String) {
        super.init(gtk_button_new())
        self.accessibleName = accessibleName
        applyAccessibleName()
    }

    /// A button showing a symbolic icon, named for a screen reader by `accessibleName`.
    public init(iconName: String, accessibleName: String) {
        super.init(gtk_button_new_from_icon_name(iconName))
        self.accessibleName = accessibleName
        applyAccessibleName()
    }

    /// Wraps a button GTK made (a dialog's), adding a reference.
    init(existing raw: UnsafeMutablePointer<GtkWidget>) { super.init(raw) }

    /// A button whose `_X` gives Alt+X; a screen reader hears the text without the underscore.
    public init(mnemonic: String) {
        super.init(gtk_button_new_with_mnemonic(mnemonic))
        // A mnemonic button is also labelled-by its label; GTK 4.8 would speak the name twice.
        gtk_accessible_reset_relation(OpaquePointer(raw), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
        accessibleName = mnemonic.replacingOccurrences(of: "_", with: "")
        applyAccessibleName()
    }

    public var label: String {
        get { string(from: gtk_button_get_label(typed(raw))) }
        set {
            gtk_button_set_label(typed(raw), newValue)
            applyAccessibleName()
        }
    }

    private func applyAccessibleName() {
        if let accessibleName { setAccessibleLabel(accessibleName) }
    }

    /// Shows `child` in place of a label: a button laid out as its content needs.
    public func setChild(_ child: Widget) {
        gtk_button_set_child(typed(raw), child.raw)
    }

    /// Whether it is drawn as a button (GTK's default) or flat, as a link in a list is.
    public var hasFrame: Bool {
        get { gtk_button_get_has_frame(typed(raw)) != 0 }
        set { gtk_button_set_has_frame(typed(raw), newValue ? 1 : 0) }
    }

    public func onClicked(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "clicked", action)
    }

    /// Emits `clicked` exactly as a pointer click would.
    public func click() { flourish_emit_clicked(raw) }
}

/// GtkEntry: one line of text. (Named TextEntry so it never shadows the journal's Entry.)
public final class TextEntry: Widget {
    public init() { super.init(gtk_entry_new()) }

    public var text: String {
        get { string(from: gtk_editable_get_text(OpaquePointer(raw))) }
        set { gtk_editable_set_text(OpaquePointer(raw), newValue) }
    }

    /// Where the cursor stands, in characters from the start.
    public var cursorPosition: Int {
        get { Int(gtk_editable_get_position(OpaquePointer(raw))) }
        set { gtk_editable_set_position(OpaquePointer(raw), Int32(clamping: newValue)) }
    }

    public var placeholder: String {
        get { string(from: gtk_entry_get_placeholder_text(typed(raw))) }
        set { gtk_entry_set_placeholder_text(typed(raw), newValue) }
    }

    public func onChanged(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "changed", action)
    }

    /// Enter in the field moves on rather than doing nothing.
    public func onActivate(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "activate", action)
    }

    /// As Enter in the field.
    public func activate() { flourish_emit(raw, "activate") }

    /// How many characters wide it asks to be (a short number's field need not take a line).
    public func setWidthChars(_ count: Int32) { gtk_editable_set_width_chars(OpaquePointer(raw), count) }

    /// Offers a number keyboard where the desktop has one (an on-screen keyboard, say).
    public func expectsNumber() { gtk_entry_set_input_purpose(typed(raw), GTK_INPUT_PURPOSE_NUMBER) }
}

/// GtkPasswordEntry: a passphrase or password, shown as dots, with the caps-lock warning and
/// the peek icon GTK gives it, and kept from input methods that learn.
public final class PasswordEntry: Widget {
    public init() {
        super.init(gtk_password_entry_new())
        gtk_password_entry_set_show_peek_icon(OpaquePointer(raw), 1)
    }

    public var text: String {
        get { string(from: gtk_editable_get_text(OpaquePointer(raw))) }
        set { gtk_editable_set_text(OpaquePointer(raw), newValue) }
    }

    public var placeholder: String {
        get { "" }
        set { flourish_password_entry_set_placeholder(raw, newValue) }
    }

    /// Runs `body` with what is typed as its UTF-8 bytes, copied from GTK's own buffer (which
    /// GTK wipes) and wiped after the call, never a Swift `String`: for passphrases. `body` keeps
    /// a copy of its own if it needs one.
    public func withTypedBytes<T>(_ body: ([UInt8]) throws -> T) rethrows -> T {
        let text = gtk_editable_get_text(OpaquePointer(raw))
        var bytes = text.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
        defer { explicit_bzero(&bytes, bytes.count) }
        return try body(bytes)
    }

    public func onActivate(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "activate", action)
    }

    /// As Enter in the field (for tests that check what Enter does).
    public func activate() {
        flourish_emit(raw, "activate")
    }
}

/// GtkTextView: several lines of wrapping text.
public final class TextView: Widget {
    public init() {
        super.init(gtk_text_view_new())
        gtk_text_view_set_wrap_mode(typed(raw), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(typed(raw), 0) // Tab moves focus, as in any form.
    }

    var buffer: UnsafeMutablePointer<GtkTextBuffer> { gtk_text_view_get_buffer(typed(raw)) }

    /// Sets one property of a tag being made: its name, its GType, and how to fill the value.
    typealias TagProperty = (_ name: String, _ type: GType, _ fill: (UnsafeMutablePointer<GValue>) -> Void) -> Void

    /// The buffer's tag `name`, made the first time with `setUp` setting its properties (GObject's
    /// own setter is variadic; one GValue a property instead).
    func tag(named name: String, _ setUp: (TagProperty) -> Void) -> UnsafeMutablePointer<GtkTextTag> {
        let table = gtk_text_buffer_get_tag_table(buffer)
        if let tag = gtk_text_tag_table_lookup(table, name) { return tag }
        let tag = gtk_text_tag_new(name)!
        let object = UnsafeMutablePointer<GObject>(OpaquePointer(tag))
        setUp { property, type, fill in
            var value = GValue()
            g_value_init(&value, type)
            fill(&value)
            g_object_set_property(object, property, &value)
            g_value_unset(&value)
        }
        gtk_text_tag_table_add(table, tag)
        g_object_unref(UnsafeMutableRawPointer(tag))
        return tag
    }

    public var text: String {
        get {
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
            defer { g_free(chars) }
            return String(cString: chars)
        }
        set { gtk_text_buffer_set_text(buffer, newValue, -1) }
    }

    public func onChanged(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(UnsafeMutableRawPointer(buffer), "changed", action)
    }
}

/// GtkSwitch: on or off.
public final class Switch: Widget {
    public init() { super.init(gtk_switch_new()) }

    public var isOn: Bool {
        get { gtk_switch_get_active(OpaquePointer(raw)) != 0 }
        set { gtk_switch_set_active(OpaquePointer(raw), newValue ? 1 : 0) }
    }

    /// Called whenever the switch changes, by the person or by code.
    public func onToggled(_ action: @escaping @MainActor () -> Void) {
        Signal.connectPointer(pointer, "notify::active", { _ in action() })
    }
}

/// GtkSeparator: a line between parts (a Markdown rule, say).
public final class Separator: Widget {
    public init() { super.init(gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)) }
}

