import FlourishApp
import FlourishCore
import Foundation

// The command line's sync: --sync-setup TARGET (a folder or a WebDAV address), --sync,
// --sync-off, --sync-passphrase and --sync-new-key. Secrets come from the desktop's keyring, or else from standard input (a terminal
// is asked without echo), never from the arguments, where any other user of the machine could
// read them.

enum SyncCommand {
    case setup(String), sync, off, changePassphrase, newKey
}

/// A sync command that failed: one line saying what is wrong, exit status 1.
func failedSync(_ error: SyncError) -> Never {
    FileHandle.standardError.write(Data("flourish: \(error.errorDescription ?? "\(error)")\n".utf8))
    end(1)
}

/// The place TARGET names: a folder (made absolute), or a WebDAV address, whose password is
/// `kept` or else read first (before the passphrase).
func syncPlace(_ target: String, kept: String? = nil) -> (place: SyncPlace, password: String?) {
    if SyncTarget.isWebDAV(target) {
        do {
            let shown = try WebDAVPlace(address: target, password: "").displayName
            let password = kept ?? readSecret(prompt: String(format: tr("Password for %@: "), shown))
            let place = try WebDAVPlace(address: target, password: password)
            place.hearBusy { seconds in FileHandle.standardError.write(Data("flourish: \(SyncError.busyWait(seconds: seconds))\n".utf8)) }
            return (place, password)
        } catch {
            failedSync(error)
        }
    }
    let absolute = target.hasPrefix("/") ? target
        : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(target)
    return (FolderPlace(path: absolute), nil)
}

/// One secret: from a terminal, asked for without echo; otherwise the next line of standard input.
func readSecret(prompt: String) -> String {
    guard isatty(STDIN_FILENO) == 1 else {
        guard let line = readLine(strippingNewline: true) else {
            // Said plainly: the lock's commands read their passphrase here too, not only sync's.
            let reason = tr("standard input ended before the passphrase")
            FileHandle.standardError.write(Data("flourish: \(reason)\n".utf8))
            end(1)
        }
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }
    FileHandle.standardError.write(Data(prompt.utf8))
    var settings = termios()
    tcgetattr(STDIN_FILENO, &settings)
    var quiet = settings
    quiet.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
    defer {
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        FileHandle.standardError.write(Data("\n".utf8))
    }
    return readLine(strippingNewline: true) ?? ""
}

/// A new passphrase: asked twice on a terminal, read once from anything else.
func readNewPassphrase(_ intro: String = tr("A new synced journal. Its passphrase cannot be recovered if you forget it: keep it somewhere safe.")) -> String {
    FileHandle.standardError.write(Data((intro + "\n").utf8))
    let passphrase = readSecret(prompt: tr("New sync passphrase: "))
    guard passphrase.count >= JournalSync.shortestPassphrase else {
        failedSync(.other(reason: String(format: tr("a sync passphrase has at least %@ characters; nothing was changed"), "\(JournalSync.shortestPassphrase)")))
    }
    if isatty(STDIN_FILENO) == 1, readSecret(prompt: tr("The same passphrase again: ")) != passphrase {
        failedSync(.other(reason: tr("the two passphrases differ; nothing was changed")))
    }
    return passphrase
}

/// Says what the sync did, closes the journal (its -wal merged back, as on every clean exit)
/// and exits.
func finishSync(_ report: SyncReport, _ store: JournalStore) -> Never {
    store.close()
    print(String(format: tr("Synced: %@."), report.summary))
    // Files refused, skipped or missing at the place: said, and the exit status says it too.
    if let problem = report.problem {
        FileHandle.standardError.write(Data("flourish: \(problem)\n".utf8))
        end(1)
    }
    end(0)
}

func runSyncSetup(_ store: JournalStore, target: String) -> Never {
    let (place, password) = syncPlace(target)
    do {
        let joining = try JournalSync.holdsJournal(place)
        let passphrase = joining ? readSecret(prompt: tr("Sync passphrase: ")) : readNewPassphrase()
        let (sync, setup) = try JournalSync.setUp(store, at: place, passphrase: passphrase)
        switch setup {
        case .started: print(String(format: tr("Started a new synced journal at %@."), place.displayName))
        case .joined: print(String(format: tr("Joined the synced journal at %@."), place.displayName))
        }
        let kept = SyncKeyring.keep(key: sync.journalKey, password: password, for: store)
        let report = try sync.sync()
        // Said once the sync went well: a failure is one line alone.
        if report.problem == nil { sayWhereSecretsAre(kept) }
        finishSync(report, store)
    } catch {
        failedSync(error)
    }
}

/// On standard error: whether the next syncs will need the passphrase again.
func sayWhereSecretsAre(_ kept: Bool) {
    let words = kept ? tr("The journal key is kept in your keyring: syncs on this computer do not ask for the passphrase.")
        : tr("No keyring (Secret Service) answered: each sync will ask for the passphrase again.")
    FileHandle.standardError.write(Data((words + "\n").utf8))
}

/// Sync with the key kept in the keyring; when the journal's key was changed on another
/// computer, with the new passphrase, asked for (and kept).
func openKept(_ store: JournalStore, at place: SyncPlace, key: JournalKey, password: String?) throws(SyncError) -> JournalSync {
    do {
        return try JournalSync.open(store, at: place, key: key)
    } catch .keyChanged {
        FileHandle.standardError.write(Data(((SyncError.keyChanged.errorDescription ?? "") + "\n").utf8))
        let sync = try JournalSync.open(store, at: place, passphrase: readSecret(prompt: tr("New sync passphrase: ")))
        SyncKeyring.keep(key: sync.journalKey, password: password, for: store)
        return sync
    } catch .wrongPassphrase {
        // The key kept here does not open the journal: the passphrase does.
        let sync = try JournalSync.open(store, at: place, passphrase: readSecret(prompt: tr("Sync passphrase: ")))
        SyncKeyring.keep(key: sync.journalKey, password: password, for: store)
        return sync
    }
}

func runSync(_ store: JournalStore) -> Never {
    do {
        guard let state = try? store.syncState() else { throw SyncError.notSetUp }
        let (place, password) = syncPlace(state.place, kept: SyncKeyring.password(for: store))
        let sync: JournalSync
        if let key = SyncKeyring.key(for: store) {
            sync = try openKept(store, at: place, key: key, password: password)
        } else {
            sync = try JournalSync.open(store, at: place, passphrase: readSecret(prompt: tr("Sync passphrase: ")))
            SyncKeyring.keep(key: sync.journalKey, password: password, for: store)
        }
        finishSync(try sync.sync(), store)
    } catch let error as SyncError {
        failedSync(error)
    } catch {
        failedSync(.other(reason: "\(error)"))
    }
}

/// --sync-passphrase and --sync-new-key: the current passphrase opens the journal's key, then
/// the new passphrase wraps it anew, or wraps a new key that shuts the other computers out.
func runSyncKeyChange(_ store: JournalStore, newKey: Bool) -> Never {
    do {
        guard let state = try? store.syncState() else { throw SyncError.notSetUp }
        let (place, password) = syncPlace(state.place, kept: SyncKeyring.password(for: store))
        let current = readSecret(prompt: tr("Current sync passphrase: "))
        let sync = try JournalSync.open(store, at: place, passphrase: current)
        let new = readNewPassphrase(tr("The new passphrase cannot be recovered if you forget it: keep it somewhere safe."))
        if newKey {
            let next = try sync.shutOutOthers(current: current, new: new)
            SyncKeyring.keep(key: next.journalKey, password: password, for: store)
            store.close()
            print(tr("The journal has a new key and passphrase. Other computers are shut out until the new passphrase is typed on them; what they had not sent is kept and sent then. A computer that synced before keeps what it had already read."))
        } else {
            try sync.changePassphrase(current: current, new: new)
            store.close()
            print(tr("The sync passphrase is changed. Computers that keep the journal key in their keyring go on syncing; any other, and a computer joining, needs the new passphrase."))
        }
        end(0)
    } catch let error as SyncError {
        failedSync(error)
    } catch {
        failedSync(.other(reason: "\(error)"))
    }
}

func runSyncOff(_ store: JournalStore) -> Never {
    do {
        let place = try store.syncState()?.place
        try store.stopSync()
        SyncKeyring.forget(for: store)
        store.close()
        if let place {
            print(String(format: tr("Sync is off. The journal stays on this computer; %@ is left as it is."), place))
        } else {
            print(tr("Sync was not on. Nothing changed."))
        }
        end(0)
    } catch {
        failed(error)
    }
}
