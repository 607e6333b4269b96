import GtkKit

/// Many buttons that make one Tab stop: only the current one can take the keyboard, and the
/// arrow keys move it from button to button (a chart's points, the days of the year in pixels).
///
/// Only the current button is shown to a screen reader, named as it becomes current, so each
/// is read as the keyboard reaches it. Naming hundreds of buttons each time a chart changed
/// sent each name over the accessibility bus: 40-70 ms a chart, more than everything else the
/// page did. And Tab leaves the chart instead of walking through hundreds of points.
@MainActor
final class RovingFocus {
    private(set) var buttons: [Button] = []
    private(set) var current: Int?
    /// Where a key sends the keyboard from button `index`: another index, or nil to leave the
    /// key to others.
    var move: (@MainActor (_ index: Int, Key) -> Int?)?
    /// What button `index` says ("Monday 3 March 2025: okay, 3.0 on average, 1 entry").
    var name: (@MainActor (_ index: Int) -> String)?

    /// Listens to the keys pressed inside `container`, before its buttons do.
    init(container: Widget) {
        container.onKeyPressed(beforeChildren: true) { [unowned self] key, modifiers in
            guard modifiers.meaningful.isEmpty, let current, buttons.indices.contains(current), buttons[current].hasFocus,
                  let next = move?(current, key), buttons.indices.contains(next) else { return false }
            select(next, focus: true)
            return true
        }
    }

    /// Each new button starts out of the keyboard's and the screen reader's way.
    static func prepare(_ button: Button) {
        button.isFocusable = false
        button.setAccessibleHidden(true)
    }

    /// The buttons, in order (each made ready by `prepare`), with `current` the one Tab reaches.
    /// Their names may have changed: the current one is named again.
    func use(_ buttons: [Button], current: Int?) {
        let hadFocus = self.current.map { self.buttons.indices.contains($0) && self.buttons[$0].hasFocus } ?? false
        if let old = self.current, self.buttons.indices.contains(old) { leave(self.buttons[old]) }
        self.buttons = buttons
        self.current = nil
        if let current, buttons.indices.contains(current) { select(current, focus: hadFocus) }
    }

    /// Makes button `index` the one Tab reaches, and gives it the keyboard if `focus`.
    func select(_ index: Int, focus: Bool) {
        guard buttons.indices.contains(index) else { return }
        let button = buttons[index]
        if let name { button.accessibleName = name(index) }
        button.setAccessibleHidden(false)
        // The new one first: the focus moves straight to it, never out of the chart.
        button.isFocusable = true
        if focus { button.grabFocus() }
        if let current, current != index, buttons.indices.contains(current) { leave(buttons[current]) }
        current = index
    }

    private func leave(_ button: Button) {
        button.isFocusable = false
        button.setAccessibleHidden(true)
    }
}
