import GtkKit

/// A problem with what was typed into a field, said under it and to a screen reader (the field
/// marked invalid, the words its description), the keyboard sent back to it to fix.
@MainActor
enum FieldProblem {
    /// Says `message` in `label` about `field`; nil takes it back.
    static func say(_ message: String?, in label: Label, about field: Widget, focus: Bool = true) {
        label.text = message ?? ""
        label.isVisible = message != nil
        field.setAccessibleInvalid(message != nil)
        field.setAccessibleDescription(message ?? "")
        if message != nil && focus { _ = field.grabFocus() }
    }
}
