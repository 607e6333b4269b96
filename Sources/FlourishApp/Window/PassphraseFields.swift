import GtkKit

/// The password fields of a question asked in a window of its own (the lock's passphrases, the
/// sync key's): Enter goes on to the next field, and in the last one does what the window is for;
/// the window closing empties them all, so that no secret stays in a window once it is closed.
@MainActor
enum PassphraseFields {
    static func wire(_ fields: [PasswordEntry], in window: Window, act: @escaping @MainActor () -> Void) {
        for (index, field) in fields.enumerated() {
            let next = index + 1 < fields.count ? fields[index + 1] : nil
            field.onActivate { if let next { _ = next.grabFocus() } else { act() } }
        }
        window.onCloseRequest {
            for field in fields { field.text = "" }
            return false
        }
    }
}
