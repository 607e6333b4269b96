import FlourishCore
import Foundation
import GtkKit

/// What the main window's Preferences can ask of the lock: each runs on the application, which
/// owns the journal (turning the lock on or off closes the journal and opens it again).
struct LockActions {
    /// Whether the journal is locked (has a passphrase).
    let isOn: @MainActor () -> Bool
    let turnOn: @MainActor (_ passphrase: Passphrase, _ done: @escaping @MainActor (JournalError?) -> Void) -> Void
    let turnOff: @MainActor (_ passphrase: Passphrase, _ done: @escaping @MainActor (JournalError?) -> Void) -> Void
    let changePassphrase: @MainActor (_ current: Passphrase, _ new: Passphrase, _ done: @escaping @MainActor (JournalError?) -> Void) -> Void
    /// New Key…: the journal closes, is sealed under a new key and opens again, its new recovery
    /// key shown over it.
    let newKey: @MainActor (_ current: Passphrase, _ new: Passphrase, _ done: @escaping @MainActor (JournalError?) -> Void) -> Void
    /// "Unlock when I log in": whether the key is kept in the keyring, and keeping or forgetting it
    /// (the answer is false when no Secret Service took it).
    let unlocksAtLogin: @MainActor () -> Bool
    let setUnlocksAtLogin: @MainActor (_ on: Bool, _ done: @escaping @MainActor (Bool) -> Void) -> Void
}

/// What a change of the lock leaves: the key the journal opens with again (nil: plain), and the
/// recovery key to show over its window, when one was made.
private typealias Rebuilt = (JournalCipher?, (key: String, occasion: RecoveryKeyWindow.Occasion)?)

/// A value handed from the background to the GTK thread once.
private final class Handed<Value>: @unchecked Sendable {
    var value: Value?
}

extension FlourishApplication {
    /// A locked journal whose key the keyring keeps opens without asking; otherwise, or when the
    /// keyring is locked or has none, the unlock page.
    func unlockFromKeyring() {
        guard !askingKeyring else { return }
        askingKeyring = true
        application.hold()
        let path = journalPath
        DispatchQueue.global(qos: .userInitiated).async {
            let kept = LockKeyring.cipher(for: path, file: JournalLock.file(of: path))
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.askingKeyring = false
                    if let kept {
                        self.cipher = kept
                        self.activate()
                    } else {
                        self.showUnlock()
                        // A key in a keyring still locked now syncs the journal once it opens.
                        self.lockedSync.start()
                    }
                    self.application.release()
                }
            }
        }
    }

    /// The unlock page: the window a locked journal shows until its passphrase opens it.
    func showUnlock() {
        if let unlockWindow { return unlockWindow.present() }
        let made = UnlockWindow(application: application, journalPath: journalPath)
        made.onUnlocked = { [unowned self, unowned made] cipher in
            self.cipher = cipher
            lockedByPerson = false
            unlockWindow = nil
            made.window.destroy()
            activate()
        }
        made.onClosed = { [unowned self] in unlockWindow = nil }
        unlockWindow = made
        made.present()
        // FLOURISH_TRACE=1: the unlock page's start-up, timed by its frames as the main window's is.
        Trace.once("unlock page presented")
        Trace.frames(of: made.window)
    }

    /// Lock, as the person asks for it (the main menu, Ctrl+L): a journal without a passphrase
    /// cannot lock, so Preferences opens at the switch that gives it one.
    func lockAsked() {
        guard cipher == nil else { return lock() }
        mainWindow?.showPreferences()
        _ = mainWindow?.preferencesWindow?.lockSwitch.grabFocus()
    }

    /// Lock (the main menu, Ctrl+L, the screen locking): the window closes at once, the form's
    /// words are kept inside the journal, the journal is closed and its key wiped, and the unlock
    /// page takes the window's place. Only a journal with a passphrase can be locked. With "Unlock
    /// when I log in" on, it keeps syncing meanwhile (`LockedSync`).
    func lock() {
        guard cipher != nil, let mainWindow, !mainWindow.isClosed else { return }
        lockedByPerson = true
        // Kept for as long as the journal is being closed: the unlock page comes up meanwhile.
        application.hold()
        let drafts = mainWindow.closeForLock()
        showUnlock()
        // Once GTK has finished with the window's widgets, their controllers go.
        MainLoop.after(milliseconds: 0) { [unowned self] in
            // Once closed, and while still locked, the journal syncs on in the background if
            // the keyring keeps its key.
            windowClosed(keeping: drafts, finish: { [unowned self] in if cipher == nil { lockedSync.start() } })
            application.release()
        }
    }

    func lockActions(for window: MainWindow) -> LockActions {
        LockActions(
            isOn: { [unowned self] in cipher != nil },
            turnOn: { [unowned self] passphrase, done in
                let path = journalPath
                rebuild(done: done) { () throws(JournalError) in
                    let locked = try JournalLock.lock(path: path, passphrase: passphrase)
                    return (locked.cipher, (locked.recoveryKey, .locked))
                }
            },
            turnOff: { [unowned self] passphrase, done in
                let path = journalPath
                rebuild(done: done) { () throws(JournalError) in
                    let cipher = try JournalLock.unlock(path: path, secret: passphrase)
                    _ = try JournalLock.removeLock(path: path, cipher: cipher)
                    LockKeyring.forget(file: JournalLock.file(of: path))
                    return (nil, nil)
                }
            },
            changePassphrase: { [unowned self] current, new, done in
                let path = journalPath
                DispatchQueue.global(qos: .userInitiated).async {
                    let outcome = Result { () throws(JournalError) in
                        let cipher = try JournalLock.unlock(path: path, secret: current)
                        try JournalLock.changePassphrase(path: path, cipher: cipher, to: new)
                    }
                    DispatchQueue.main.async {
                        MainActor.assumeIsolated {
                            if case .failure(let error) = outcome { done(error) } else { done(nil) }
                        }
                    }
                }
            },
            newKey: { [unowned self] current, new, done in
                let path = journalPath
                rebuild(done: done) { () throws(JournalError) in
                    let cipher = try JournalLock.unlock(path: path, secret: current)
                    let renewed = try JournalLock.newKey(path: path, cipher: cipher, passphrase: new)
                    // Last, once every file opens with it: until then the keyring's key still
                    // opened the journal. (Not done, the next opening finishes it, after the
                    // passphrase, and shows a recovery key made anew.)
                    if renewed.unfinished == nil {
                        LockKeyring.replaceKept(by: renewed.cipher, journalPath: path, file: JournalLock.file(of: path))
                    }
                    return (renewed.cipher, (renewed.recoveryKey, .newKey))
                }
            },
            unlocksAtLogin: { [unowned self] in unlocksAtLogin },
            setUnlocksAtLogin: { [unowned self] on, done in
                guard let cipher else { return done(false) }
                let path = journalPath
                DispatchQueue.global(qos: .userInitiated).async {
                    let file = JournalLock.file(of: path)
                    let kept: Bool
                    if on {
                        kept = LockKeyring.keep(cipher, journalPath: path, file: file)
                    } else {
                        LockKeyring.forget(file: file)
                        kept = false
                    }
                    DispatchQueue.main.async {
                        MainActor.assumeIsolated {
                            self.unlocksAtLogin = kept
                            done(kept == on)
                        }
                    }
                }
            })
    }

    /// Turning the lock on or off: the window and the journal close (the form's words kept), the
    /// journal is converted off the GTK thread, and it opens again, locked or plain; a failure
    /// changes nothing and is said in the window that opens again. The recovery key (turning
    /// it on) is shown over that window.
    private func rebuild(done: @escaping @MainActor (JournalError?) -> Void,
                         _ convert: @escaping @Sendable () throws(JournalError) -> Rebuilt) {
        guard let mainWindow, !mainWindow.isClosed else { return }
        let previous = cipher
        let outcome = Handed<Result<Rebuilt, JournalError>>()
        // The window asking goes with the main window: its answer is said in the new one. The
        // windows go once the button's click is over, their controllers after GTK is done.
        done(nil)
        application.hold()
        MainLoop.after(milliseconds: 0) { [unowned self] in
            let drafts = mainWindow.closeForLock()
            MainLoop.after(milliseconds: 0) { [unowned self] in closeAndConvert(keeping: drafts, previous: previous, outcome: outcome, convert) }
        }
    }

    private func closeAndConvert(keeping drafts: KeptDrafts, previous: JournalCipher?,
                                 outcome: Handed<Result<Rebuilt, JournalError>>,
                                 _ convert: @escaping @Sendable () throws(JournalError) -> Rebuilt) {
        // The key stays for the journal to open again as it was, should the change fail.
        windowClosed(keeping: drafts, wipeKey: false, then: {
            outcome.value = Result { () throws(JournalError) in try convert() }
        }, finish: { [unowned self] in
            switch outcome.value {
            case .success(let (cipher, recoveryKey))?:
                self.cipher = cipher
                whenOpened = { [unowned self] window in
                    if let recoveryKey { window.showRecoveryKey(recoveryKey.key, occasion: recoveryKey.occasion) }
                }
            case .failure(let error)?:
                self.cipher = previous
                whenOpened = { window in
                    window.alerts.showMessage(title: tr("Error"), message: error.errorDescription ?? "")
                }
            case nil:
                self.cipher = previous
            }
            activate()
            application.release()
        })
    }
}
