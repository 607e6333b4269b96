import FlourishCore
import Foundation
import GtkKit

/// "Change Passphrase…" and "Shut Out Other Computers…" (the Sync window, while sync is on): the
/// current passphrase, the new one twice, and what the change does. Both want the current
/// passphrase, so a computer left open is not enough to lock the others out. The work runs in
/// the background; its outcome is said here, and the window closes once it is done.
@MainActor
final class SyncKeyWindow {
    let window: Window
    let currentField = PasswordEntry()
    let newField = PasswordEntry()
    let againField = PasswordEntry()
    let cancelButton = Button(mnemonic: tr("_Cancel"))
    let changeButton: Button
    let problem = Label()
    private let controller: SyncController
    private let shutOut: Bool
    private var isWorking = false

    init(application: Application, parent: Window, controller: SyncController, shutOut: Bool) {
        self.controller = controller
        self.shutOut = shutOut
        changeButton = Button(mnemonic: shutOut ? tr("_Shut Out Others") : tr("_Change Passphrase"))
        let content: Box
        (window, content) = TaskWindow.make(application: application, parent: parent,
                                            title: shutOut ? tr("Shut Out Other Computers") : tr("Change Sync Passphrase"), width: 480)
        let about = Label(shutOut
            ? tr("The journal gets a new key and a new passphrase, and is sealed anew at the sync place; everything the old key sealed is removed there. Every other computer stops syncing until the new passphrase is typed on it; what it had not sent is kept and sent then. Do this when a computer is lost or no longer yours. A computer that synced before keeps what it had already read.")
            : tr("The journal key is wrapped anew under the new passphrase. Your computers go on syncing; a computer that joins, or one that asks for the passphrase, needs the new one."))
        about.enableWrapping()
        about.alignStart()
        content.append(about)
        for (field, name) in [(currentField, tr("Current sync passphrase")), (newField, tr("New sync passphrase")),
                              (againField, tr("The new passphrase again"))] {
            field.setAccessibleLabel(name)
            field.placeholder = name
            content.append(field)
        }
        let warning = Label(tr("A forgotten passphrase cannot be recovered: keep the new one somewhere safe."))
        warning.enableWrapping()
        warning.alignStart()
        content.append(warning)
        problem.addClass("field-error")
        problem.enableWrapping()
        problem.alignStart()
        problem.isVisible = false
        content.append(problem)
        if shutOut { changeButton.addClass("destructive-action") }
        TaskWindow.buttons([cancelButton, changeButton], in: content, of: window)

        cancelButton.onClicked { [unowned self] in window.close() }
        changeButton.onClicked { [unowned self] in change() }
        PassphraseFields.wire([currentField, newField, againField], in: window) { [unowned self] in change() }
    }

    func present() {
        problem.isVisible = false
        window.present()
        _ = currentField.grabFocus()
    }

    private func change() {
        guard !isWorking else { return }
        guard !currentField.text.isEmpty else { return say(tr("Write the current sync passphrase."), on: currentField) }
        guard newField.text.count >= JournalSync.shortestPassphrase else {
            return say(String(format: tr("A new passphrase has at least %@ characters."), "\(JournalSync.shortestPassphrase)"), on: newField)
        }
        guard newField.text == againField.text else { return say(tr("The two new passphrases differ."), on: againField) }
        working(true)
        controller.changeKey(shutOut: shutOut, current: currentField.text, new: newField.text, again: againField.text) { [weak self] error in
            guard let self else { return }
            working(false)
            if let error { return say(error.errorDescription ?? "\(error)", on: error == .wrongPassphrase ? currentField : newField) }
            window.close()
        }
    }

    private func working(_ on: Bool) {
        isWorking = on
        problem.isVisible = false
        for field in [currentField, newField, againField] { field.setAccessibleDescription("") }
        changeButton.isSensitive = !on
    }

    private func say(_ words: String, on widget: Widget) {
        problem.text = words
        problem.isVisible = true
        widget.setAccessibleDescription(words)
        _ = widget.grabFocus()
    }
}
