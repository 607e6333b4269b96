import FlourishCore
import GtkKit

/// The seeds' UIAlertControllers as modal GTK message dialogs over the main window.
@MainActor
final class Alerts {
    static let ok: Int32 = -5 // GTK_RESPONSE_OK
    static let cancel: Int32 = -6 // GTK_RESPONSE_CANCEL
    static let retry: Int32 = 1
    static let discard: Int32 = 2

    private unowned let window: Window
    /// Dialogs on screen, oldest first: a second one (a save finishing while the discard
    /// question is open) stacks on the first instead of replacing it.
    private var open: [MessageDialog] = []
    /// The dialog on top, if any (tests press its real buttons).
    var current: MessageDialog? { open.last }

    init(window: Window) {
        self.window = window
    }

    /// "Entry Saved" / "Your entry has been saved!" with "OK".
    func showSaved(then done: @escaping @MainActor () -> Void = {}) {
        present(title: tr("Entry Saved"), message: tr("Your entry has been saved!"),
                choices: [.init(tr("OK"), response: Self.ok)], defaultResponse: Self.ok) { _ in done() }
    }

    /// "Error" with the error's description, "OK" and "Retry". Retry runs `retry`.
    func showError(_ message: String, retry: @escaping @MainActor () -> Void, dismissed: @escaping @MainActor () -> Void = {}) {
        present(title: tr("Error"), message: message,
                choices: [.init(tr("OK"), response: Self.ok), .init(tr("_Retry"), response: Self.retry)],
                defaultResponse: Self.retry) { response in
            response == Self.retry ? retry() : dismissed()
        }
    }

    /// Asked before closing over an unsaved entry. Cancel is the default: Enter keeps the words.
    func confirmDiscard(then decide: @escaping @MainActor (_ discard: Bool) -> Void) {
        present(title: tr("Discard this entry?"),
                message: tr("You have not saved it. If Flourish closes now, what you wrote is lost."),
                choices: [.init(tr("_Cancel"), response: Self.cancel), .init(tr("_Discard"), response: Self.discard, destructive: true)],
                defaultResponse: Self.cancel) { response in
            decide(response == Self.discard)
        }
    }

    /// Asked before an edit with changes is abandoned. Cancel is the default: Enter keeps editing.
    func confirmDiscardChanges(then decide: @escaping @MainActor (_ discard: Bool) -> Void) {
        present(title: tr("Discard changes?"),
                message: tr("Your changes to this entry have not been saved. If you discard them, the entry stays as it was."),
                choices: [.init(tr("_Cancel"), response: Self.cancel), .init(tr("_Discard"), response: Self.discard, destructive: true)],
                defaultResponse: Self.cancel) { response in
            decide(response == Self.discard)
        }
    }

    /// Asked before something that cannot be undone (deleting or merging a tag): Cancel is the
    /// default, so Enter loses nothing; `action` ("_Delete") is styled as destructive.
    func confirm(title: String, message: String, action: String, then decide: @escaping @MainActor (_ confirmed: Bool) -> Void) {
        present(title: title, message: message,
                choices: [.init(tr("_Cancel"), response: Self.cancel), .init(action, response: Self.discard, destructive: true)],
                defaultResponse: Self.cancel) { response in
            decide(response == Self.discard)
        }
    }

    /// A message with OK only: an error with no retry (a journal that cannot be read), or what
    /// a long task did (an export).
    func showMessage(title: String, message: String, then done: @escaping @MainActor () -> Void = {}) {
        present(title: title, message: message, choices: [.init(tr("OK"), response: Self.ok)], defaultResponse: Self.ok) { _ in done() }
    }

    private func present(title: String, message: String, choices: [MessageDialog.Choice], defaultResponse: Int32,
                         handle: @escaping @MainActor (Int32) -> Void) {
        let dialog = MessageDialog(parent: window, title: title, message: message, choices: choices,
                                   defaultResponse: defaultResponse)
        dialog.onResponse { [weak self, weak dialog] response in
            self?.open.removeAll { $0 === dialog }
            handle(response)
        }
        open.append(dialog)
        dialog.present()
    }
}
