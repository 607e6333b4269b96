import FlourishCore
import Foundation
import GtkKit

/// The recovery key, shown once when the lock is turned on or the journal gets a new key (New
/// Key…): it opens the journal if the passphrase is forgotten. It can be copied or saved to a
/// file of the person's choosing, and is gone from memory once the window closes.
@MainActor
final class RecoveryKeyWindow {
    /// Why a recovery key is shown: the lock turned on, or New Key….
    enum Occasion { case locked, newKey }

    let window: Window
    let keyLabel: Label
    let copyButton = Button(mnemonic: tr("_Copy"))
    let saveButton = Button(mnemonic: tr("_Save…"))
    let doneButton = Button(mnemonic: tr("_Done"))
    let status = Label()

    init(application: Application, parent: Window, recoveryKey: String, occasion: Occasion = .locked) {
        let content: Box
        (window, content) = TaskWindow.make(application: application, parent: parent, title: tr("Recovery Key"), width: 480)
        let about = Label(occasion == .locked
            ? tr("Your journal is locked. Keep this recovery key somewhere safe, away from this computer: it opens the journal if the passphrase is forgotten. It is shown only now.")
            : tr("Your journal has a new key: its old passphrase and recovery key no longer open it. Keep this new recovery key somewhere safe, away from this computer: it opens the journal if the passphrase is forgotten. It is shown only now."))
        about.enableWrapping()
        about.alignStart()
        content.append(about)
        keyLabel = Label(recoveryKey)
        keyLabel.addClass("recovery-key")
        keyLabel.isSelectable = true
        keyLabel.setAccessibleLabel(String(format: tr("Recovery key: %@"), recoveryKey))
        content.append(keyLabel)
        status.alignStart()
        status.isVisible = false
        content.append(status)
        let row = Box(.horizontal, spacing: 8)
        row.append(copyButton)
        row.append(saveButton)
        content.append(row)
        TaskWindow.buttons([doneButton], in: content, of: window)

        copyButton.onClicked { [unowned self] in
            copyButton.copyToClipboard(recoveryKey)
            say(tr("Copied."))
        }
        saveButton.onClicked { [unowned self] in
            FileChooser.ask(.save(suggestedName: "flourish-recovery-key.txt"), title: tr("Save Recovery Key"), from: saveButton, accept: tr("_Save"), cancel: tr("_Cancel")) { [weak self] path in
                guard let self, let path else { return }
                let text = "Flourish recovery key\n\(recoveryKey)\n"
                // Private from its first byte (the chooser already asked before replacing a file).
                if FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) {
                    say(String(format: tr("Saved to %@."), path))
                } else {
                    say(String(format: tr("Could not save to %@."), path))
                }
            }
        }
        doneButton.onClicked { [unowned self] in window.close() }
    }

    func present() {
        window.present()
        _ = copyButton.grabFocus()
    }

    private func say(_ text: String) {
        status.text = text
        status.isVisible = true
    }
}
