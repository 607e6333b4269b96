import FlourishApp
import FlourishCore
import Foundation

// `--encrypt`, `--decrypt`, `--unlock-at-login`, and the key every other command needs first
// for a locked journal.

/// The key of the locked journal at `path`: from the keyring when "Unlock when I log in" is on,
/// else the passphrase or recovery key, asked for on a terminal or read as the first line of
/// standard input. Nil for a plain journal. A wrong one
/// ends the command with one line and exit status 1, having changed nothing.
func cipherIfLocked(_ path: String) -> JournalCipher? {
    guard JournalLock.isLocked(path) else { return nil }
    // "Unlock when I log in": the keyring's key, while the session's keyring is open.
    if let kept = LockKeyring.cipher(for: path, file: JournalLock.file(of: path)) { return kept }
    do {
        return try cipherFromSecret(path)
    } catch {
        failed(error)
    }
}

/// `--encrypt`: locks the journal under a new passphrase and prints the recovery key, once.
func runEncrypt(_ path: String) -> Never {
    guard !JournalLock.isLocked(path) else {
        // Locked, with a copy of it still plain (locking cut short, or a backup put back): that is
        // the lock left to finish.
        guard !JournalLock.plainCopies(path: path).isEmpty else {
            failed(.other(reason: String(format: tr("The journal at %@ is already locked."), path)))
        }
        sealPlainCopies(path)
    }
    if JournalLock.isHalfLocked(path) { finishLocking(path) }
    FileHandle.standardError.write(Data((tr("Locking the journal. A forgotten passphrase cannot be recovered: keep the recovery key printed below somewhere safe.") + "\n").utf8))
    let passphrase = readNewLockPassphrase()
    do {
        let locked = try JournalLock.lock(path: path, passphrase: passphrase)
        finished(String(format: tr("Locked the journal at %@."), path) + "\n"
                 + String(format: tr("Recovery key (it opens the journal if the passphrase is forgotten; it is shown only now): %@"), locked.recoveryKey),
                 locked.backupsSealed, locked.backupsRemoved, tr("Backups locked with it: %@."))
    } catch {
        failed(error)
    }
}

/// The journal's new passphrase: asked twice on a terminal, read once from anything else; one
/// too short, or typed differently twice, ends the command having changed nothing.
private func readNewLockPassphrase() -> Passphrase {
    let passphrase = readPassphrase(prompt: tr("New passphrase for the journal: "))
    guard passphrase.characterCount >= JournalLock.shortestPassphrase else {
        failed(.other(reason: String(format: tr("a passphrase has at least %@ characters; nothing was changed"), "\(JournalLock.shortestPassphrase)")))
    }
    if isatty(STDIN_FILENO) == 1, !readPassphrase(prompt: tr("The same passphrase again: ")).isSame(as: passphrase) {
        failed(.other(reason: tr("the two passphrases differ; nothing was changed")))
    }
    return passphrase
}

/// `--lock-new-key`: the locked journal, its backups and its photos sealed under a new key, with a
/// new passphrase (after the current one, or the recovery key: never the keyring's key alone),
/// and a new recovery key printed, once. A journal whose New Key… was cut short is finished
/// instead, after its new passphrase, with a new recovery key.
func runLockNewKey(_ path: String) -> Never {
    guard JournalLock.isLocked(path) else { failed(.other(reason: String(format: tr("The journal at %@ is not locked."), path))) }
    let file = JournalLock.file(of: path)
    do {
        let cipher = try cipherFromSecret(path)
        if JournalLock.isNewKeyPending(path) {
            // (The new key opens every file still sealed under the old: it is the key file's.)
            let done = try JournalLock.finishNewKey(path: path, cipher: cipher)
            print(String(format: tr("Finished sealing the journal at %@ under its new key."), path))
            print(String(format: tr("New recovery key (the one before it no longer opens the journal; this one is shown only now): %@"), done.recoveryKey))
            if let finished = done.finished { printRenewed(finished) }
            end(0)
        }
        FileHandle.standardError.write(Data((tr("A new key for the journal, its backups and its photos, under a new passphrase: the old passphrase and recovery key will open nothing kept from now on.") + "\n").utf8))
        let passphrase = readNewLockPassphrase()
        let renewed = try JournalLock.newKey(path: path, cipher: cipher, passphrase: passphrase)
        // The keyring's key is replaced last, once every file opens with the new one: until then
        // it still opened the journal.
        if renewed.unfinished == nil { LockKeyring.replaceKept(by: renewed.cipher, journalPath: path, file: file) }
        print(String(format: tr("The journal at %@ has a new key and passphrase."), path))
        print(String(format: tr("Recovery key (it opens the journal if the passphrase is forgotten; it is shown only now): %@"), renewed.recoveryKey))
        if let finished = renewed.finished { printRenewed(finished) }
        if let unfinished = renewed.unfinished {
            let words = String(format: tr("not every file is sealed under the new key yet (%@): Flourish finishes it the next time it opens the journal"),
                               unfinished.errorDescription ?? "\(unfinished)")
            FileHandle.standardError.write(Data("flourish: \(words)\n".utf8))
            end(1)
        }
        end(0)
    } catch {
        failed(error)
    }
}

private func printRenewed(_ finished: JournalLock.Finished) {
    printBackups(sealed: finished.backupsSealed, removed: finished.backupsRemoved, sealedFormat: tr("Backups sealed under the new key: %@."))
    if finished.photosSealed > 0 { print(String(format: tr("Photo files sealed under the new key: %@."), "\(finished.photosSealed)")) }
}

/// `--encrypt` where locking was cut short (or the journal replaced by a plain file): the plain
/// journal is sealed under the key its key file holds, after that key file's passphrase.
private func finishLocking(_ path: String) -> Never {
    do {
        let cipher = try cipherFromSecret(path)
        let done = try JournalLock.finishLocking(path: path, cipher: cipher)
        finished(String(format: tr("Locked the journal at %@ again, with the passphrase it had."), path) + "\n"
                 + String(format: tr("New recovery key (the one before it no longer opens the journal; this one is shown only now): %@"), done.recoveryKey),
                 done.backupsSealed, done.backupsRemoved, tr("Backups locked with it: %@."))
    } catch {
        failed(error)
    }
}

/// `--encrypt` on a locked journal with plain copies beside it: they are sealed with its key.
private func sealPlainCopies(_ path: String) -> Never {
    guard let cipher = cipherIfLocked(path) else { end(1) }
    do {
        let done = try JournalLock.sealPlainCopies(path: path, cipher: cipher)
        finished(String(format: tr("The journal at %@ was locked already; the copies of it left plain are locked now."), path),
                 done.sealed, done.removed, tr("Backups locked with it: %@."))
    } catch {
        failed(error)
    }
}

/// `--decrypt`: makes the locked journal plain again, after its passphrase.
func runDecrypt(_ path: String) -> Never {
    if JournalLock.isHalfLocked(path) { finishRemovingLock(path) }
    guard JournalLock.isLocked(path) else {
        failed(.other(reason: String(format: tr("The journal at %@ is not locked."), path)))
    }
    guard let cipher = cipherIfLocked(path) else { end(1) }
    do {
        let unlocked = try JournalLock.removeLock(path: path, cipher: cipher)
        forgetKeptKey(path)
        finished(String(format: tr("The journal at %@ is no longer locked: it is plain SQLite again."), path),
                 unlocked.backupsOpened, unlocked.backupsRemoved, tr("Backups made plain with it: %@."))
    } catch {
        failed(error)
    }
}

/// `--decrypt` where removing the lock was cut short (or the journal replaced by a plain file):
/// after the key file's passphrase, the plain journal stays plain and the key files go.
private func finishRemovingLock(_ path: String) -> Never {
    do {
        let cipher = try cipherFromSecret(path)
        let done = try JournalLock.finishRemovingLock(path: path, cipher: cipher)
        forgetKeptKey(path)
        finished(String(format: tr("The journal at %@ is no longer locked: it is plain SQLite again."), path),
                 done.backupsOpened, done.backupsRemoved, tr("Backups made plain with it: %@."))
    } catch {
        failed(error)
    }
}

/// The key in the journal's key file, after its passphrase or recovery key (standard input).
private func cipherFromSecret(_ path: String) throws(JournalError) -> JournalCipher {
    try JournalLock.unlock(path: path, secret: readPassphrase(prompt: tr("Passphrase or recovery key of the journal: ")))
}

/// As the Preferences switch does: a plain journal has no key to keep.
private func forgetKeptKey(_ path: String) {
    if !LockKeyring.forget(file: JournalLock.file(of: path)) {
        let warning = tr("no keyring (Secret Service) answered: a key it kept for this journal stays there until “flourish --unlock-at-login off”")
        FileHandle.standardError.write(Data("flourish: \(warning)\n".utf8))
    }
}

/// `--unlock-at-login on|off`, Preferences' "Unlock when I log in" from a terminal. On keeps the
/// locked journal's key in the desktop's keyring, after its passphrase or recovery key (asked for
/// as by every command; a wrong one changes nothing); off forgets it, no passphrase needed.
func runUnlockAtLogin(_ on: Bool, _ path: String) -> Never {
    // Off also works on a plain journal: a key left behind (a keyring out of reach when the lock
    // was turned off) still opens the journal's old locked copies.
    guard !on || JournalLock.isLocked(path) else {
        failed(.other(reason: String(format: tr("The journal at %@ is not locked."), path)))
    }
    let file = JournalLock.file(of: path)
    if on {
        guard let cipher = cipherIfLocked(path) else { end(1) }
        guard LockKeyring.keep(cipher, journalPath: path, file: file) else {
            failed(.other(reason: tr("no keyring (Secret Service) took the journal’s key; nothing was changed")))
        }
        print(String(format: tr("The key of the journal at %@ is kept in your keyring: it opens without its passphrase while you are logged in."), path))
    } else {
        // A key kept in a keyring that cannot be reached now would still open the journal later.
        guard LockKeyring.forget(file: file) else {
            failed(.other(reason: tr("no keyring (Secret Service) answered; nothing was changed")))
        }
        print(String(format: tr("The key of the journal at %@ is no longer kept in your keyring: its passphrase is asked for again."), path))
    }
    end(0)
}

/// Says what a lock command did (`line`, then its backups) and ends.
private func finished(_ line: String, _ changed: [String], _ removed: [String], _ changedFormat: String) -> Never {
    print(line)
    printBackups(sealed: changed, removed: removed, sealedFormat: changedFormat)
    end(0)
}

private func printBackups(sealed: [String], removed: [String], sealedFormat: String) {
    if !sealed.isEmpty { print(String(format: sealedFormat, "\(sealed.count)")) }
    for backup in removed {
        print(String(format: tr("Removed the backup %@: it could not be read, and no copy of the journal may stay behind as it was."), backup))
    }
}

/// A locked journal opened by a command: a copy of it left plain beside it is sealed first, and
/// said on standard error (a copy that cannot be read, removed, is said too).
func sealPlainCopies(of store: JournalStore, cipher: JournalCipher) {
    guard !JournalLock.plainCopies(path: store.path).isEmpty || !JournalLock.olderFormatCopies(path: store.path, cipher: cipher).isEmpty else {
        return
    }
    do {
        let done = try JournalLock.sealPlainCopies(path: store.path, cipher: cipher)
        // (Each message bound to a name first: xgettext does not see a tr() inside an interpolation.)
        for copy in done.sealed {
            let words = String(format: tr("%@ was a plain copy of the locked journal: it is locked now."), copy)
            FileHandle.standardError.write(Data("flourish: \(words)\n".utf8))
        }
        for copy in done.removed {
            let words = String(format: tr("Removed the backup %@: it could not be read, and no copy of the journal may stay behind as it was."), copy)
            FileHandle.standardError.write(Data("flourish: \(words)\n".utf8))
        }
    } catch {
        let words = String(format: tr("the plain copies of the locked journal could not be locked: %@"), error.errorDescription ?? "\(error)")
        FileHandle.standardError.write(Data("flourish: \(words)\n".utf8))
    }
}

/// A locked journal whose opening finished a New Key… cut short: a recovery key made anew is
/// printed (the cut-short one may never have been), on standard error, apart from the command's
/// own output.
func sayRenewedRecoveryKey(of store: JournalStore, cipher: JournalCipher) {
    do {
        let recoveryKey = try JournalLock.renewRecoveryKey(path: store.path, cipher: cipher)
        let words = String(format: tr("New Key… was cut short, and is finished now. New recovery key (the one before it no longer opens the journal; this one is shown only now): %@"), recoveryKey)
        FileHandle.standardError.write(Data("flourish: \(words)\n".utf8))
    } catch {
        let words = String(format: tr("the journal's recovery key could not be made anew: %@"), error.errorDescription ?? "\(error)")
        FileHandle.standardError.write(Data("flourish: \(words)\n".utf8))
    }
}
