import Foundation

/// Sync from the window, off the GTK thread.
extension JournalModel {
    /// Runs on a queue of its own: a sync waits on the network, and a save must not wait for it
    /// (the store keeps their writes apart).
    private nonisolated static let syncQueue = DispatchQueue(label: "journal sync", qos: .utility)

    /// Runs `work` (a setup, an opening, a sync) in the background and hands its result back on
    /// the main queue.
    public func inBackground<T: Sendable>(_ work: @escaping @Sendable () throws(SyncError) -> T,
                                          completion: @escaping @MainActor (Result<T, SyncError>) -> Void) {
        Self.inBackground(work, completion: completion)
    }

    /// The same, with no window's model: a locked journal syncing in the background goes
    /// through the same queue, so it never runs beside the window's sync of the same journal.
    public nonisolated static func inBackground<T: Sendable>(_ work: @escaping @Sendable () throws(SyncError) -> T,
                                                             completion: @escaping @MainActor (Result<T, SyncError>) -> Void) {
        syncQueue.async {
            let result = Result { () throws(SyncError) in try work() }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    /// Waits for the sync work in flight (the app is quitting: the journal closes after it).
    public nonisolated func finishSyncWork() {
        Self.finishSyncWork()
    }

    /// The same, with no model: before a journal opens, a sync of it still running ends.
    public nonisolated static func finishSyncWork() {
        // A sync waiting for a busy server gives up at once rather than keep the journal open.
        BusyWaits.endAll()
        syncQueue.sync {}
    }

    /// One sync; when it brought anything from another machine, the journal is read again (as
    /// when another program writes to it).
    /// `photos` hears (photos done, photos in all) as photos are fetched or sent; `busy` the
    /// seconds of each wait for a busy server.
    public func sync(_ sync: JournalSync, progress: @escaping @MainActor (Int, Int) -> Void = { _, _ in },
                     photos: @escaping @MainActor (Int, Int) -> Void = { _, _ in },
                     busy: @escaping @MainActor (Int) -> Void = { _ in },
                     completion: @escaping @MainActor (Result<SyncReport, SyncError>) -> Void) {
        inBackground({ () throws(SyncError) in
            sync.photoProgress = { done, total in DispatchQueue.main.async { MainActor.assumeIsolated { photos(done, total) } } }
            sync.place.hearBusy { seconds in DispatchQueue.main.async { MainActor.assumeIsolated { busy(seconds) } } }
            return try sync.sync { done, total in
                // In order, before the completion: both go through the main queue.
                DispatchQueue.main.async { MainActor.assumeIsolated { progress(done, total) } }
            }
        }) { result in
            if case .success(let report) = result, report.received > 0 { self.reloadFromDisk() }
            completion(result)
        }
    }
}
