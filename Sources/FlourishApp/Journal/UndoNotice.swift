import FlourishCore
import GtkKit

/// GNOME's in-app notification for deletions and imports: "Entry deleted" (or "412 entries
/// imported") with "Undo", sliding down over the top of the window for about ten seconds.
/// Several deletions in a row stay undoable in turn, the latest first, for as long as the
/// notice shows; an import is undone whole.
@MainActor
final class UndoNotice {
    let view: Revealer
    let label = Label(tr("Entry deleted"))
    let undoButton = Button(mnemonic: tr("_Undo"))
    let closeButton = Button(iconName: "window-close-symbolic", accessibleName: tr("Dismiss"))

    /// How long the notice stays, in milliseconds (GNOME's in-app notifications stay about ten seconds).
    var lifetimeMilliseconds: UInt32 = 10_000

    /// Deleted entries that can still be put back, oldest first.
    private(set) var undoable: [DeletedEntry] = []
    /// The import that can still be taken back (the latest thing done, when there is one).
    private(set) var undoableImport: ImportReceipt?
    /// Puts back a photo taken off a form, while the notice offers it.
    private var undoPhotoRemoval: (@MainActor () -> Void)?
    /// Counts showings, so that the timer of an earlier one does not hide a later one.
    private var generation = 0
    private var isRestoring = false
    /// Told whenever the notice shows or goes (the window turns `win.undo` on and off with it).
    var onVisibilityChanged: (@MainActor (Bool) -> Void)?

    private let model: JournalModel
    private let alerts: Alerts

    init(model: JournalModel, alerts: Alerts) {
        self.model = model
        self.alerts = alerts
        let content = Box(.horizontal, spacing: 12)
        content.addClass("app-notification")
        content.append(label)
        undoButton.tooltip = tr("Undo (Ctrl+Z)")
        content.append(undoButton)
        closeButton.addClass("flat")
        content.append(closeButton)
        view = Revealer(child: content)
        view.align(horizontal: .center, vertical: .start)
        undoButton.onClicked { [unowned self] in undo() }
        closeButton.onClicked { [unowned self] in dismiss() }
    }

    var isShowing: Bool { view.isRevealed }

    /// Shows the notice for `deleted` (the latest deletion), for another ten seconds.
    func add(_ deleted: DeletedEntry) {
        undoableImport = nil
        undoPhotoRemoval = nil
        undoable.append(deleted)
        label.text = tr("Entry deleted")
        show()
    }

    /// Shows the notice for a finished import; Undo takes it back whole.
    func add(_ imported: ImportReceipt) {
        undoable = []
        undoPhotoRemoval = nil
        undoableImport = imported
        label.text = imported.entryIDs.count == 1 ? tr("1 entry imported") : String(format: tr("%@ entries imported"), imported.entryIDs.count.formatted())
        show()
    }

    /// Shows the notice for a photo taken off the form; Undo puts it back where it was.
    func add(removedPhoto photo: EntryPhoto, undo: @escaping @MainActor () -> Void) {
        undoable = []
        undoableImport = nil
        undoPhotoRemoval = undo
        label.text = String(format: tr("Photo “%@” removed"), photo.fileName)
        show()
    }

    /// Puts back the latest deletion. The notice stays while older ones can still be undone.
    func undo() {
        guard !isRestoring else { return }
        if let undoPhotoRemoval {
            undoPhotoRemoval()
            return dismiss()
        }
        if let undoableImport { return takeBack(undoableImport) }
        guard let latest = undoable.popLast() else { return }
        restore(latest)
    }

    private func takeBack(_ imported: ImportReceipt) {
        isRestoring = true
        model.undoImport(imported) { [weak self] result in
            guard let self else { return }
            isRestoring = false
            switch result {
            case .success: dismiss()
            case .failure(let error):
                alerts.showError(error.errorDescription ?? tr("The import could not be taken back."),
                                 retry: { [weak self] in self?.takeBack(imported) },
                                 dismissed: { [weak self] in self?.show() })
            }
        }
    }

    private func restore(_ deleted: DeletedEntry) {
        isRestoring = true
        model.restore(deleted) { [weak self] result in
            guard let self else { return }
            isRestoring = false
            switch result {
            case .success:
                undoable.isEmpty ? dismiss() : show()
            case .failure(let error):
                // Still deleted: Retry tries this same entry again, whatever the notice does
                // meanwhile; OK gives the notice (and its Undo) another ten seconds.
                alerts.showError(error.errorDescription ?? tr("The entry could not be put back."),
                                 retry: { [weak self] in self?.restore(deleted) },
                                 dismissed: { [weak self] in
                                     guard let self else { return }
                                     undoable.append(deleted)
                                     show()
                                 })
            }
        }
    }

    /// Hides the notice; what it offered to undo stays deleted.
    func dismiss() {
        generation += 1
        undoable = []
        undoableImport = nil
        undoPhotoRemoval = nil
        view.isRevealed = false
        onVisibilityChanged?(false)
    }

    private func show() {
        generation += 1
        let shown = generation
        view.isRevealed = true
        onVisibilityChanged?(true)
        MainLoop.after(milliseconds: lifetimeMilliseconds) { [weak self] in
            // Not while an entry is being put back: its outcome decides what the notice does.
            guard let self, shown == generation, !isRestoring else { return }
            dismiss()
        }
    }
}
