import FlourishCore
import GtkKit

/// "Unlock when I log in": a locked journal's key kept in the desktop's Secret Service, filed
/// under the journal file, so the journal opens without its passphrase while the session's
/// keyring is unlocked. A new machine, or a reset keyring, asks for the passphrase again.
/// Blocking calls: off the GTK thread. Preferences' switch and `flourish --unlock-at-login` keep
/// and forget it.
public enum LockKeyring {
    private static let kind = "lock-key"

    /// The journal's key, when one is kept and still opens it. `unlocking`: whether a locked
    /// keyring may be asked to unlock (a prompt on screen), as `Keyring.lookup`.
    public static func cipher(for journalPath: String, file: String, unlocking: Bool = true) -> JournalCipher? {
        let kept = try? Keyring.withSecret(journal: file, kind: kind, unlocking: unlocking) { key in
            JournalLock.unlock(path: journalPath, keptKey: key)
        }
        return kept ?? nil
    }

    static func isKept(file: String) -> Bool {
        ((try? Keyring.lookup(journal: file, kind: kind)) ?? nil) != nil
    }

    /// False when no Secret Service took it.
    public static func keep(_ cipher: JournalCipher, journalPath: String, file: String) -> Bool {
        cipher.withExportedKey { key in
            (try? Keyring.store(secret: key, label: String(format: tr("Flourish journal key for %@"), journalPath),
                                journal: file, kind: kind)) != nil
        }
    }

    /// After New Key…: a key kept for the journal is replaced by `cipher`'s, or forgotten when the
    /// keyring does not take the new one (the old one opens nothing any more). None kept, none is.
    public static func replaceKept(by cipher: JournalCipher, journalPath: String, file: String) {
        guard isKept(file: file), !keep(cipher, journalPath: journalPath, file: file) else { return }
        forget(file: file)
    }

    /// False when no Secret Service answered: a key kept there may still be kept.
    @discardableResult
    public static func forget(file: String) -> Bool {
        (try? Keyring.clear(journal: file, kind: kind)) != nil
    }
}
