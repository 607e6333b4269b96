/// A text field spelling can check: its characters by offset (Unicode scalars, as GTK counts
/// them), the error underline over ranges of them, its cursor, a replacement, and items of its
/// own in its context menu. The body (`TextView`) and the title (`TextEntry`) are.
@MainActor
public protocol SpellableText: AnyObject {
    var characterCount: Int { get }
    func text(in range: Range<Int>) -> String
    var cursorOffset: Int { get }
    func placeCursor(at offset: Int)
    /// Underlines `ranges`, and nothing else within `region`.
    func underlineMisspelled(_ ranges: [Range<Int>], within region: Range<Int>)
    var misspelledRanges: [Range<Int>] { get }
    /// Replaces the characters in `range`, as one step of Undo.
    func replace(_ range: Range<Int>, with text: String)
    func makeExtraMenu(prefix: String) -> ExtraMenu
    func onChanged(_ action: @escaping @MainActor () -> Void)
}

extension TextView: SpellableText {}
extension TextEntry: SpellableText {}
