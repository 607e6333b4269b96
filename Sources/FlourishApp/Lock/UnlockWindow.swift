import FlourishCore
import Foundation
import GtkKit

/// What a locked journal shows, and nothing else: the app's name, a passphrase field, Unlock, and
/// a line when what was typed does not open the journal. No entry's title, text, tag, mood, date
/// or count is in this window, its title or what a screen reader is told: the journal is not
/// open while it shows. Unlocking (Argon2id, about a second) runs off the GTK thread.
@MainActor
final class UnlockWindow {
    let window: Window
    let passphraseField = PasswordEntry()
    let unlockButton = Button(mnemonic: tr("_Unlock"))
    let problem = Label()
    private let journalPath: String
    private var isUnlocking = false
    /// Told with the key once the journal's passphrase (or recovery key) opened it.
    var onUnlocked: (JournalCipher) -> Void = { _ in }
    /// Told when the person closes the window without unlocking.
    var onClosed: () -> Void = {}

    init(application: Application, journalPath: String) {
        self.journalPath = journalPath
        Theme.install()
        window = Window(application: application)
        window.title = "Flourish"
        window.setDefaultSize(width: 420, height: 320)
        if BuildProfile.isDevelopment { window.addClass("devel") }

        let content = Box(.vertical, spacing: 12)
        content.setMargins(32)
        content.align(horizontal: .center, vertical: .center)
        let name = Label("Flourish")
        name.addClass("unlock-title")
        content.append(name)
        let about = Label(tr("Your journal is locked. Type its passphrase, or its recovery key, to open it."))
        about.enableWrapping()
        content.append(about)
        passphraseField.setAccessibleLabel(tr("Passphrase"))
        passphraseField.placeholder = tr("Passphrase")
        content.append(passphraseField)
        problem.addClass("field-error")
        problem.enableWrapping()
        problem.isVisible = false
        content.append(problem)
        unlockButton.addClass("suggested-action")
        unlockButton.align(horizontal: .center)
        content.append(unlockButton)
        window.setChild(content)

        unlockButton.onClicked { [unowned self] in unlock() }
        passphraseField.onActivate { [unowned self] in unlock() }
        window.onCloseRequest { [unowned self] in
            passphraseField.text = ""
            onClosed()
            return false
        }
    }

    func present() {
        window.present()
        _ = passphraseField.grabFocus()
    }

    private func unlock() {
        guard !isUnlocking else { return }
        // As typed, never a `String`.
        let secret = passphraseField.withTypedBytes(Passphrase.init(bytes:))
        guard !secret.isEmpty else { return say(tr("Type the journal’s passphrase or its recovery key.")) }
        isUnlocking = true
        unlockButton.isSensitive = false
        passphraseField.isSensitive = false
        problem.isVisible = false
        let path = journalPath
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { () throws(JournalError) in try JournalLock.unlock(path: path, secret: secret) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.unlocked(result) }
            }
        }
    }

    private func unlocked(_ result: Result<JournalCipher, JournalError>) {
        isUnlocking = false
        unlockButton.isSensitive = true
        passphraseField.isSensitive = true
        switch result {
        case .success(let cipher):
            passphraseField.text = ""
            onUnlocked(cipher)
        case .failure(let error):
            passphraseField.text = ""
            say(error.errorDescription ?? tr("The journal could not be unlocked."))
        }
    }

    private func say(_ text: String) {
        problem.text = text
        problem.isVisible = true
        passphraseField.setAccessibleDescription(text)
        _ = passphraseField.grabFocus()
    }
}
