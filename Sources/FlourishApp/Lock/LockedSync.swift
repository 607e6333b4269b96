import FlourishCore
import Foundation
import GtkKit

/// Sync for a locked journal whose key the keyring keeps ("Unlock when I log in"): while the
/// unlock page shows, the journal still syncs in the background, once as it locks (what the
/// window had not sent yet) and then as often as the window's sync would. Each run takes the key
/// from the keyring, opens the journal on a connection of its own, syncs, closes it and wipes
/// the key; nothing of it reaches the screen, so the unlock page shows no more than before.
/// Without a kept key, or with the keyring locked (it is never asked to unlock), nothing runs:
/// sync waits for the passphrase and catches up once the window is back.
@MainActor
final class LockedSync {
    /// What one run came to (for the tests; the unlock page says nothing of it).
    enum Outcome: Equatable, Sendable {
        /// No key in the keyring, or one that no longer opens the journal.
        case noKey
        /// The journal does not sync.
        case off
        /// The sync key is in no keyring: the Sync window asks for the passphrase, once unlocked.
        case needsPassphrase
        case synced(SyncReport)
        case failed(String)
    }

    private let journalPath: String
    /// Counts starts and stops: a timer of an earlier lock does nothing.
    private var generation = 0
    private(set) var isRunning = false
    /// Held by each run until its journal is closed (the application waits for it at quit).
    private let running: DispatchGroup
    /// Told after each run, on the GTK thread.
    var onRun: (Outcome) -> Void = { _ in }

    init(journalPath: String, running: DispatchGroup) {
        self.journalPath = journalPath
        self.running = running
    }

    /// The journal has just locked (or started on its unlock page): a sync now, then one every
    /// `SyncController.everyMilliseconds` until `stop`.
    func start() {
        generation += 1
        runThenWait(generation)
    }

    /// Unlocked (the window's own sync takes over) or quitting. A run in flight ends on its own:
    /// it goes through the sync queue, so the window's first sync waits for it.
    func stop() { generation += 1 }

    private func runThenWait(_ started: Int) {
        guard started == generation else { return }
        if !isRunning {
            isRunning = true
            running.enter()
            let path = journalPath, running = running
            JournalModel.inBackground({ () throws(SyncError) -> Outcome in
                defer { running.leave() } // here, not on the GTK thread: at quit that thread waits for it
                return Self.syncOnce(journalPath: path)
            }) { [weak self] result in
                self?.isRunning = false
                guard case .success(let outcome) = result else { return }
                // Nothing on screen says it: a sync that fails behind the unlock page is said on
                // stderr, as a failed backup is (the reason only: no key, no password, no entry).
                if case .failed(let reason) = outcome {
                    FileHandle.standardError.write(Data("flourish: \(reason)\n".utf8))
                }
                self?.onRun(outcome)
            }
        }
        MainLoop.after(milliseconds: SyncController.everyMilliseconds) { [weak self] in self?.runThenWait(started) }
    }

    /// One sync of the locked journal at `journalPath` with the keys the keyring keeps, off the
    /// GTK thread. The journal's key is wiped before this returns, whatever happened. A locked
    /// keyring is left locked: no prompt comes up behind the person's back every few minutes.
    nonisolated static func syncOnce(journalPath: String) -> Outcome {
        guard let cipher = LockKeyring.cipher(for: journalPath, file: JournalLock.file(of: journalPath), unlocking: false) else {
            return .noKey
        }
        defer { cipher.wipe() }
        let store: JournalStore
        do {
            store = try JournalStore(path: journalPath, cipher: cipher)
        } catch {
            return .failed(error.errorDescription ?? "\(error)")
        }
        defer { store.close() }
        // A damaged journal is never written: it waits for Recover…, as the window's sync does.
        guard store.check() == .healthy else { return .failed(tr("The journal is damaged, so it does not sync. Recover it first.")) }
        do {
            guard let sync = try SyncKeyring.openSync(for: store, unlocking: false) else { return .needsPassphrase }
            return .synced(try sync.sync())
        } catch .notSetUp {
            return .off
        } catch {
            return .failed(error.errorDescription ?? "\(error)")
        }
    }
}
