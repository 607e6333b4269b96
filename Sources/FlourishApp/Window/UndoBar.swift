import FlourishCore
import GtkKit

/// The bar at the top of a window of changes ("“Sleep” deleted", Undo) and the changes it can
/// take back, the latest last. One is taken back at a time; one that could not be stays, to be
/// tried again, and the window says why.
@MainActor
final class UndoBar<Change> {
    let view = Box(.horizontal, spacing: 12)
    let label = Label()
    let button = Button(mnemonic: tr("_Undo"))
    /// The changes that can be taken back, the latest last.
    private(set) var changes: [Change] = []
    private var isUndoing = false
    private let said: (Change) -> String

    init(said: @escaping (Change) -> String) {
        self.said = said
        view.addClass("app-notification")
        view.append(label)
        button.tooltip = tr("Undo (Ctrl+Z)")
        view.append(button)
        view.align(horizontal: .center)
        view.isVisible = false
    }

    /// A change made (not one made by taking another back).
    func remember(_ change: Change) {
        guard !isUndoing else { return }
        changes.append(change)
        show()
    }

    /// Each change still to take back, as `transform` makes it (a template put back under a new id).
    func update(_ transform: (Change) -> Change) {
        changes = changes.map(transform)
    }

    /// Takes back the latest change through `takeBack`, which calls its completion with why it
    /// could not, if it could not; `alerts` says so.
    func undo(alerts: Alerts, _ takeBack: (Change, @escaping @MainActor (JournalError?) -> Void) -> Void) {
        guard !isUndoing, let change = changes.popLast() else { return }
        isUndoing = true
        takeBack(change) { [weak self] error in
            guard let self else { return }
            isUndoing = false
            if error != nil { changes.append(change) }
            show()
            if let error {
                alerts.showMessage(title: tr("Error"), message: error.errorDescription ?? tr("The change could not be undone."))
            }
        }
    }

    private func show() {
        label.text = changes.last.map(said) ?? ""
        view.isVisible = !changes.isEmpty
    }
}
