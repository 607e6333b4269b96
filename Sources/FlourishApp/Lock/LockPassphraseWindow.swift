import FlourishCore
import Foundation
import GtkKit

/// The lock's questions in Preferences: turning it on (a new passphrase, twice, and the warning),
/// off (the passphrase), Change Passphrase… and New Key… (the current one, then a new one
/// twice). The work runs in the background; its outcome is said here, and the window closes once
/// it is done.
@MainActor
final class LockPassphraseWindow {
    enum Purpose { case turnOn, turnOff, change, newKey }

    let window: Window
    let currentField = PasswordEntry()
    let newField = PasswordEntry()
    let againField = PasswordEntry()
    let cancelButton = Button(mnemonic: tr("_Cancel"))
    let actionButton: Button
    let problem = Label()
    private let purpose: Purpose
    private var isWorking = false
    /// Does the work with (current, new) off the GTK thread's way, and calls back with nil or
    /// what went wrong. Both as typed, never a `String` (`Passphrase`).
    private let perform: (_ current: Passphrase, _ new: Passphrase, _ done: @escaping @MainActor (JournalError?) -> Void) -> Void

    init(application: Application, parent: Window, purpose: Purpose,
         perform: @escaping (_ current: Passphrase, _ new: Passphrase, _ done: @escaping @MainActor (JournalError?) -> Void) -> Void) {
        self.purpose = purpose
        self.perform = perform
        let (title, action, about): (String, String, String) = switch purpose {
        case .turnOn: (tr("Lock Journal"), tr("_Lock Journal"),
                       tr("Every entry, the search index and the backups are encrypted on disk with this passphrase. Flourish asks for it when it starts and after it locks. A forgotten passphrase cannot be recovered: the recovery key shown next is the only other way in."))
        case .turnOff: (tr("Remove Lock"), tr("_Remove Lock"),
                        tr("The journal and its backups are made plain again: anyone with the computer or a backup can read them."))
        case .change: (tr("Change Passphrase"), tr("_Change Passphrase"),
                       tr("The journal’s key is wrapped anew under the new passphrase; the recovery key stays the same."))
        case .newKey: (tr("New Key"), tr("_Make New Key"),
                       tr("For a passphrase that may have leaked: the journal, its backups and its photos are encrypted anew under a new key, with the new passphrase and a new recovery key (shown next). The old passphrase and recovery key then open nothing kept from now on. The journal closes and opens again."))
        }
        actionButton = Button(mnemonic: action)
        let content: Box
        (window, content) = TaskWindow.make(application: application, parent: parent, title: title, width: 460)
        let text = Label(about)
        text.enableWrapping()
        text.alignStart()
        content.append(text)
        var fields: [(PasswordEntry, String)] = []
        if purpose != .turnOn { fields.append((currentField, tr("Passphrase"))) }
        if purpose != .turnOff {
            fields.append((newField, tr("New passphrase")))
            fields.append((againField, tr("The new passphrase again")))
        }
        for (field, name) in fields {
            field.setAccessibleLabel(name)
            field.placeholder = name
            content.append(field)
        }
        problem.addClass("field-error")
        problem.enableWrapping()
        problem.alignStart()
        problem.isVisible = false
        content.append(problem)
        if purpose == .turnOff { actionButton.addClass("destructive-action") }
        TaskWindow.buttons([cancelButton, actionButton], in: content, of: window)

        cancelButton.onClicked { [unowned self] in window.close() }
        actionButton.onClicked { [unowned self] in act() }
        PassphraseFields.wire(fields.map(\.0), in: window) { [unowned self] in act() }
    }

    func present() {
        problem.isVisible = false
        window.present()
        _ = (purpose == .turnOn ? newField : currentField).grabFocus()
    }

    private func act() {
        guard !isWorking else { return }
        let current = currentField.withTypedBytes(Passphrase.init(bytes:))
        let new = newField.withTypedBytes(Passphrase.init(bytes:))
        if purpose != .turnOn, current.isEmpty { return say(tr("Type the journal’s passphrase."), on: currentField) }
        if purpose != .turnOff {
            guard new.characterCount >= JournalLock.shortestPassphrase else {
                return say(String(format: tr("A passphrase has at least %@ characters."), "\(JournalLock.shortestPassphrase)"), on: newField)
            }
            guard new.isSame(as: againField.withTypedBytes(Passphrase.init(bytes:))) else {
                return say(tr("The two new passphrases differ."), on: againField)
            }
        }
        isWorking = true
        actionButton.isSensitive = false
        problem.text = tr("Working…")
        problem.isVisible = true
        perform(current, new) { [weak self] error in
            guard let self else { return }
            isWorking = false
            actionButton.isSensitive = true
            if let error {
                say(error.errorDescription ?? tr("The journal could not be changed."), on: purpose == .turnOn ? newField : currentField)
            } else {
                window.close()
            }
        }
    }

    private func say(_ text: String, on field: PasswordEntry) {
        problem.text = text
        problem.isVisible = true
        field.setAccessibleDescription(text)
        _ = field.grabFocus()
    }
}
