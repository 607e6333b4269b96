import FlourishCore
import GtkKit

/// What this machine keeps of a synced journal in the desktop's Secret Service: the journal
/// key (so the passphrase is typed once per machine) and, for a WebDAV server, the password.
/// Filed under the journal file, so two journals on one machine keep their own. Where no Secret
/// Service runs, nothing is kept and Flourish asks again when it needs them.
public enum SyncKeyring {
    /// `unlocking`: whether a locked keyring may be asked to unlock (a prompt on screen).
    public static func key(for journal: JournalStore, unlocking: Bool = true) -> JournalKey? {
        let kept = try? Keyring.withSecret(journal: journal.file, kind: "key", unlocking: unlocking) { JournalKey(exported: $0) }
        return kept ?? nil
    }

    public static func password(for journal: JournalStore, unlocking: Bool = true) -> String? {
        (try? Keyring.lookup(journal: journal.file, kind: "password", unlocking: unlocking)) ?? nil
    }

    /// The journal's sync, opened with the key (and password) this machine keeps: nil when no
    /// keyring keeps the key (with `unlocking` false, a locked keyring keeps none). The window's
    /// sync and the locked journal's both open it so. `busy` hears each wait for a busy server.
    public static func openSync(for journal: JournalStore, unlocking: Bool = true,
                                busy: @escaping @Sendable (Int) -> Void = { _ in }) throws(SyncError) -> JournalSync? {
        guard let state = try? journal.syncState() else { throw .notSetUp }
        guard let key = key(for: journal, unlocking: unlocking) else { return nil }
        let place = try SyncTarget.place(state.place, password: password(for: journal, unlocking: unlocking))
        place.hearBusy(busy)
        return try JournalSync.open(journal, at: place, key: key)
    }

    /// Keeps the key, and the password when there is one; false when no Secret Service took them.
    @discardableResult
    public static func keep(key: JournalKey, password: String?, for journal: JournalStore) -> Bool {
        do {
            try key.withExported { text throws(Keyring.Unavailable) in
                try Keyring.store(secret: text, label: String(format: tr("Flourish sync key for %@"), journal.path),
                                  journal: journal.file, kind: "key")
            }
            if let password {
                try Keyring.store(password, label: String(format: tr("Flourish sync password for %@"), journal.path),
                                  journal: journal.file, kind: "password")
            }
            return true
        } catch {
            return false
        }
    }

    /// Forgets both (turning sync off).
    public static func forget(for journal: JournalStore) {
        try? Keyring.clear(journal: journal.file, kind: "key")
        try? Keyring.clear(journal: journal.file, kind: "password")
    }
}
