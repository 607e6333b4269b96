import FlourishCore
import Foundation
import GtkKit

/// Keeps a synced journal in step while the window is open: a sync once the journal has passed
/// its health check, a few seconds after each change, every few minutes, when the network comes
/// back, and on Sync Now. One at a time, never on the GTK thread; the window hears how it stands
/// (`status`).
@MainActor
final class SyncController {
    enum Status: Equatable {
        case off
        /// Set up, not synced yet in this run.
        case waiting
        case syncing
        case synced(Date)
        /// The place cannot be reached now: not an error, it syncs when it can.
        case offline
        /// The key is in no keyring, or the server refused the password kept: the passphrase (and
        /// for a server the password) is needed; the Sync window asks.
        case needsPassphrase
        case problem(String)
    }

    private(set) var status: Status { didSet { if status != oldValue { for observer in observers { observer() } } } }
    private var observers: [@MainActor () -> Void] = []
    let store: JournalStore
    private let model: JournalModel
    private var sync: JournalSync?
    private var isRunning = false
    private var runAgain = false
    private var pendingChange = false
    /// Counts setups and turnings off: work that started before one is not applied after it.
    private var generation = 0
    /// The place, as the person knows it, while sync is on (read once, then kept).
    private(set) var placeName: String?
    /// How far the sync in progress is, in files, when it has several.
    private(set) var progress: (done: Int, total: Int)?
    /// The server said it was busy: the sync in progress tries again when this passes.
    private(set) var busyUntil: Date?
    /// How many busy waits were heard: each counts down on its own until the next.
    private var busyWaits = 0
    /// How far the photos being fetched or sent are ("photo 12 of 340").
    private(set) var photoProgress: (done: Int, total: Int)?
    /// The passphrase is asked for because the journal's key was changed on another computer.
    private(set) var keyWasChanged = false

    /// How long after a change its sync starts: a few edits in a row go in one batch.
    static var afterChangeMilliseconds: UInt32 = 5_000
    /// How often a sync runs while the window is open, for the other machines' changes.
    static var everyMilliseconds: UInt32 = 300_000

    init(store: JournalStore, model: JournalModel) {
        self.store = store
        self.model = model
        // Read once, before the journal takes writes: nothing else reads the store on this thread.
        placeName = (try? store.syncState())?.place
        status = placeName == nil ? .off : .waiting
        schedulePeriodic()
        NetworkMonitor.watch { [weak self] available in self?.networkChanged(available) }
    }

    /// The network came back: what waited for it goes now, not at the next timer.
    private func networkChanged(_ available: Bool) {
        guard available, isOn, status != .needsPassphrase, status != .waiting else { return }
        syncNow()
    }

    func observe(_ observer: @escaping @MainActor () -> Void) { observers.append(observer) }

    var isOn: Bool { status != .off }

    /// After the health check: the first sync (then one every few minutes, see `init`).
    func start() {
        guard isOn else { return }
        syncNow()
    }

    /// The journal is damaged: it is never written, so sync waits until it is recovered.
    func journalDamaged() {
        guard isOn else { return }
        generation += 1
        status = .problem(tr("The journal is damaged, so it does not sync. Recover it first."))
    }

    private func schedulePeriodic() {
        MainLoop.after(milliseconds: Self.everyMilliseconds) { [weak self] in
            guard let self else { return }
            if isOn { syncNow() }
            schedulePeriodic()
        }
    }

    /// Something in the journal changed here: it is sent a few seconds later.
    func journalChanged() {
        guard isOn, !pendingChange else { return }
        pendingChange = true
        // With FLOURISH_TRACE=1 or =sync: a change waits to be sent, and (`markIfIdle`) all is sent.
        Trace.sync("sync pending")
        MainLoop.after(milliseconds: Self.afterChangeMilliseconds) { [weak self] in
            guard let self else { return }
            pendingChange = false
            syncNow()
        }
    }

    func syncNow() {
        guard isOn else { return }
        guard !isRunning else {
            runAgain = true
            return
        }
        guard let sync else {
            // Waiting for the person's passphrase: asking the keyring again would not find it.
            if status != .needsPassphrase { open() }
            return
        }
        isRunning = true
        status = .syncing
        let started = generation
        model.sync(sync, progress: { [weak self] done, total in
            guard let self, started == generation, status == .syncing else { return }
            progress = (done, total)
            for observer in observers { observer() }
        }, photos: { [weak self] done, total in
            guard let self, started == generation, status == .syncing else { return }
            // Once the last is done, the files' count says the rest.
            photoProgress = done < total ? (done, total) : nil
            for observer in observers { observer() }
        }, busy: { [weak self] seconds in
            self?.heardBusy(seconds, started)
        }) { [weak self] result in
            guard let self else { return }
            isRunning = false
            progress = nil
            photoProgress = nil
            busyUntil = nil
            guard started == generation else { return }
            switch result {
            case .success(let report):
                // Files refused, skipped or missing at the place are said until a sync is whole.
                status = report.problem.map { .problem($0) } ?? .synced(Date())
            case .failure(let error): show(error)
            }
            if runAgain {
                runAgain = false
                syncNow()
            }
            markIfIdle()
        }
    }

    /// With FLOURISH_TRACE=1 or =sync, "sync idle" once no sync runs and no change waits for one: what
    /// the journeys wait for before they count what was sent.
    private func markIfIdle() {
        if !isRunning && !pendingChange && !runAgain { Trace.sync("sync idle") }
    }

    /// The sync (or opening) started at `started` waits `seconds` for a busy server: said in the
    /// window, counting down, until the wait is over.
    private func heardBusy(_ seconds: Int, _ started: Int) {
        guard started == generation, status == .syncing else { return }
        busyUntil = Date(timeIntervalSinceNow: TimeInterval(seconds))
        busyWaits += 1
        tickBusy(started, wait: busyWaits)
    }

    /// Says the wait `wait` again each second, its seconds counting down, and once more when it
    /// is over ("Syncing…" again). A later wait, or the sync's end, stops it.
    private func tickBusy(_ started: Int, wait: Int) {
        for observer in observers { observer() }
        guard let busyUntil, busyUntil > Date() else { return }
        let left = busyUntil.timeIntervalSinceNow
        let next = left - left.rounded(.down)
        MainLoop.after(milliseconds: UInt32(((next > 0.01 ? next : 1) * 1_000).rounded(.up))) { [weak self] in
            guard let self, started == generation, status == .syncing, wait == busyWaits else { return }
            tickBusy(started, wait: wait)
        }
    }

    /// Opens sync with the key and password this machine keeps, then syncs.
    private func open() {
        isRunning = true
        status = .syncing
        let store = store
        let started = generation
        let busy: @Sendable (Int) -> Void = { [weak self] seconds in
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.heardBusy(seconds, started) } }
        }
        model.inBackground({ () throws(SyncError) -> JournalSync? in try SyncKeyring.openSync(for: store, busy: busy) }) { [weak self] result in
            guard let self else { return }
            isRunning = false
            busyUntil = nil
            // Set up, unlocked or turned off meanwhile: that decided it.
            guard started == generation, sync == nil else { return }
            switch result {
            case .success(let opened?):
                sync = opened
                syncNow()
            case .success(nil): status = .needsPassphrase
            case .failure(let error): show(error)
            }
            markIfIdle()
        }
    }

    /// Opens sync with the passphrase (and password) typed in the Sync window, keeps the key in
    /// the keyring when there is one, then syncs.
    func unlock(passphrase: String, password: String?, completion: @escaping @MainActor (SyncError?) -> Void) {
        let store = store
        model.inBackground({ () throws(SyncError) -> JournalSync in
            guard let state = try? store.syncState() else { throw .notSetUp }
            let password = password ?? SyncKeyring.password(for: store)
            let opened = try JournalSync.open(store, at: try SyncTarget.place(state.place, password: password), passphrase: passphrase)
            SyncKeyring.keep(key: opened.journalKey, password: password, for: store)
            return opened
        }) { [weak self] result in self?.adopt(result, completion) }
    }

    /// Takes the sync a setup or an unlock opened, and syncs with it; or says why there is none.
    private func adopt(_ result: Result<JournalSync, SyncError>, _ completion: @MainActor (SyncError?) -> Void) {
        switch result {
        case .success(let opened):
            generation += 1
            keyWasChanged = false
            sync = opened
            placeName = opened.place.displayName
            status = .waiting
            completion(nil)
            syncNow()
        case .failure(let error):
            completion(error)
        }
    }

    /// Sets sync up at `target` (a folder's path or a WebDAV address): joins the journal there
    /// with `passphrase`, or starts one, which wants `passphrase` typed twice the same. Nothing
    /// changes when it is refused.
    func setUp(target: String, password: String?, passphrase: String, again: String,
               completion: @escaping @MainActor (SyncError?) -> Void) {
        let store = store
        model.inBackground({ () throws(SyncError) -> JournalSync in
            let place = try SyncTarget.place(target, password: password)
            if try !JournalSync.holdsJournal(place) {
                guard passphrase.count >= JournalSync.shortestPassphrase else {
                    throw .other(reason: String(format: tr("a new passphrase has at least %@ characters"), "\(JournalSync.shortestPassphrase)"))
                }
                guard passphrase == again else { throw .other(reason: tr("the two passphrases differ")) }
            }
            let (sync, _) = try JournalSync.setUp(store, at: place, passphrase: passphrase)
            SyncKeyring.keep(key: sync.journalKey, password: password, for: store)
            return sync
        }) { [weak self] result in self?.adopt(result, completion) }
    }

    /// Wraps the journal key under a new passphrase (see `JournalSync.changePassphrase`), or,
    /// with `shutOut`, gives the journal a new key and shuts the other computers out (see
    /// `JournalSync.shutOutOthers`), whose key this computer then keeps. Not while a sync runs:
    /// the one after it waits for this instead.
    func changeKey(shutOut: Bool, current: String, new: String, again: String,
                   completion: @escaping @MainActor (SyncError?) -> Void) {
        guard let sync, !isRunning else {
            return completion(.other(reason: tr("sync is busy or locked; try again once it says Synced")))
        }
        guard new == again else { return completion(.other(reason: tr("the two passphrases differ"))) }
        isRunning = true
        let before = status
        status = .syncing
        let store = store
        let password = SyncKeyring.password(for: store)
        model.inBackground({ () throws(SyncError) -> JournalSync in
            guard shutOut else {
                try sync.changePassphrase(current: current, new: new)
                return sync
            }
            let next = try sync.shutOutOthers(current: current, new: new)
            SyncKeyring.keep(key: next.journalKey, password: password, for: store)
            return next
        }) { [weak self] result in
            guard let self else { return }
            isRunning = false
            switch result {
            case .success(let next):
                self.sync = next
                status = .synced(Date())
                // Shutting out syncs first: what it brought is read again.
                if shutOut { model.reloadFromDisk() }
                completion(nil)
                // What this computer changed meanwhile.
                syncNow()
            case .failure(.keyChanged):
                show(.keyChanged)
                completion(.keyChanged)
            case .failure(let error):
                // A refused change (a wrong passphrase, the place out of reach) leaves sync as
                // it stood: the key window says what went wrong.
                status = before
                completion(error)
            }
            if runAgain {
                runAgain = false
                syncNow()
            }
            markIfIdle()
        }
    }

    /// Turns sync off here: the place and the key are forgotten, the journal stays.
    func turnOff(completion: @escaping @MainActor (SyncError?) -> Void) {
        // From now on nothing started before applies, and nothing new starts.
        generation += 1
        sync = nil
        runAgain = false
        let store = store
        model.inBackground({ () throws(SyncError) in
            do throws(JournalError) {
                try store.stopSync()
            } catch {
                throw .other(reason: error.errorDescription ?? "\(error)")
            }
            SyncKeyring.forget(for: store)
        }) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result { return completion(error) }
            generation += 1
            sync = nil
            placeName = nil
            status = .off
            completion(nil)
        }
    }

    private func show(_ error: SyncError) {
        switch error {
        case .unreachable:
            status = .offline
        case .wrongPassphrase:
            // The key kept here does not open the journal: the passphrase does.
            sync = nil
            status = .needsPassphrase
        case .keyChanged:
            // Shut out by another computer: the new passphrase lets it back in.
            sync = nil
            keyWasChanged = true
            status = .needsPassphrase
        case .wrongPassword:
            // The password kept no longer works (changed, or an app password revoked): the Sync
            // window asks for it, with the passphrase.
            sync = nil
            status = .needsPassphrase
        case .notSetUp:
            status = .off
        default:
            status = .problem(error.errorDescription ?? "\(error)")
        }
    }

    /// How it stands, in a few words for the header bar, and in a sentence for the Sync window.
    var shortText: String {
        switch status {
        case .off: ""
        case .waiting, .syncing: tr("Syncing…")
        case .synced: tr("Synced")
        case .offline: tr("Offline")
        case .needsPassphrase, .problem: tr("Sync problem")
        }
    }

    var sentence: String {
        switch status {
        case .off: tr("Sync is off: this journal is only on this computer.")
        case .syncing:
            if let busyUntil, busyUntil > Date() {
                SyncError.busyWait(seconds: Int(busyUntil.timeIntervalSinceNow.rounded(.up)))
            } else if let photoProgress, photoProgress.total > 0 {
                String(format: tr("Syncing… photo %@ of %@."), "\(photoProgress.done)", "\(photoProgress.total)")
            } else if let progress, progress.total > 1 {
                String(format: tr("Syncing… %@ of %@ files."), "\(progress.done)", "\(progress.total)")
            } else {
                tr("Syncing…")
            }
        case .waiting: tr("Syncing…")
        case .synced(let when):
            String(format: tr("Synced at %@."), DateFormatter.localizedString(from: when, dateStyle: .none, timeStyle: .short))
        case .offline: tr("Offline: the place cannot be reached now. Your journal is kept here and syncs when it can.")
        case .needsPassphrase where keyWasChanged: SyncError.keyChanged.errorDescription ?? ""
        case .needsPassphrase: tr("Type the sync passphrase (and, for a server, its password) to go on syncing.")
        case .problem(let words): words
        }
    }
}
