import Foundation

/// Saving, editing, deleting and restoring: each a store intent run on the model's background
/// queue, followed on the same queue by a read of where the entry now stands, so the list hears
/// exactly which row appeared, changed, moved or went.
extension JournalModel {
    /// Saves in the background, dated `entry.date` or now. On success the entry is in the list at
    /// its place (the delegate hears `.inserted`) before `completion` runs; on failure nothing
    /// changes but `completion`.
    public func save(_ entry: NewEntry, completion: @escaping @MainActor (Result<Entry, JournalError>) -> Void) {
        let createdAt = entry.date ?? clock()
        write({ store throws(JournalError) in
            let saved = try store.save(entry, createdAt: createdAt)
            return (saved, try store.position(of: saved.id))
        }, apply: { saved, position in
            self.remember([saved])
            self.place(saved.id, at: position, announce: JournalChange.inserted)
        }, completion: { completion($0.map(\.0)) })
    }

    /// Edits the entry with `id`. On success its row shows the new contents, or moves to its new
    /// place when the date changed, before `completion` runs.
    public func update(id: Int64, with entry: NewEntry, completion: @escaping @MainActor (Result<Entry, JournalError>) -> Void) {
        let updatedAt = clock()
        write({ store throws(JournalError) in
            let updated = try store.update(id: id, with: entry, updatedAt: updatedAt)
            return (updated, try store.position(of: id))
        }, apply: { updated, position in self.edited(updated, position: position) }, completion: { completion($0.map(\.0)) })
    }

    /// The earlier versions sync kept of `entry` that say something else than it does now.
    public func earlierVersions(of entry: Entry, completion: @escaping @MainActor ([EarlierVersion]) -> Void) {
        let store = self.store
        work.async {
            let versions = (try? store.earlierVersions(of: entry.uuid)) ?? []
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    let names = self.tagNames(entry.tagIDs)
                    let values = Dictionary(uniqueKeysWithValues: entry.measures.compactMap { id, value in self.measure(id).map { ($0.uuid, value) } })
                    completion(versions.filter { !$0.isSame(as: entry, tags: names, measures: values) })
                }
            }
        }
    }

    /// Takes `version` back as the entry's (an edit, so it travels); the version it replaces
    /// is kept. The list follows as for any edit.
    public func useEarlierVersion(_ version: EarlierVersion, forEntry id: Int64,
                                  completion: @escaping @MainActor (Result<Entry, JournalError>) -> Void) {
        let updatedAt = clock()
        write({ store throws(JournalError) in
            let updated = try store.useEarlierVersion(version, forEntry: id, updatedAt: updatedAt)
            return (updated, try store.position(of: id))
        }, apply: { updated, position in
            self.edited(updated, position: position)
            // A tag the version brought back may be new here.
            self.loadTags()
        }, completion: { completion($0.map(\.0)) })
    }

    /// An edited entry's row shows its new contents, or moves to its new place.
    private func edited(_ updated: Entry, position: Int?) {
        let id = updated.id
        remember([updated])
        guard let from = ids.firstIndex(of: id) else {
            return place(id, at: position, announce: JournalChange.inserted)
        }
        guard let position else { return }
        let to = min(position, ids.count - 1)
        if from == to {
            delegate?.journalModel(self, didChange: .updated(id: id, index: from))
        } else {
            ids.remove(at: from)
            ids.insert(id, at: to)
            delegate?.journalModel(self, didChange: .moved(id: id, from: from, to: to))
        }
    }

    /// Deletes the entry with `id`; `completion` gets what was removed, for undo.
    public func delete(id: Int64, completion: @escaping @MainActor (Result<DeletedEntry, JournalError>) -> Void) {
        write({ store throws(JournalError) in
            (try store.delete(id: id), nil as Int?)
        }, apply: { _, _ in
            self.forget(id)
            guard let index = self.ids.firstIndex(of: id) else { return }
            self.ids.remove(at: index)
            self.delegate?.journalModel(self, didChange: .removed(index: index))
        }, completion: { completion($0.map(\.0)) })
    }

    /// Puts a deleted entry back where it was.
    public func restore(_ deleted: DeletedEntry, completion: @escaping @MainActor (Result<Entry, JournalError>) -> Void) {
        // A tag merged away since the deletion comes back as the tag it went into.
        var mapped = deleted
        mapped.tagIDs = Set(deleted.tagIDs.map(mergeTarget))
        let restoring = mapped
        write({ store throws(JournalError) in
            let restored = try store.restore(restoring)
            return (restored, try store.position(of: restored.id))
        }, apply: { restored, position in
            self.remember([restored])
            self.place(restored.id, at: position, announce: JournalChange.restored)
        }, completion: { completion($0.map(\.0)) })
    }

    // MARK: - Plumbing

    /// Puts `id` into the list at `position` and tells the delegate with `announce`.
    private func place(_ id: Int64, at position: Int?, announce: (Int) -> JournalChange) {
        guard let position, !ids.contains(id) else { return }
        let index = min(position, ids.count)
        ids.insert(id, at: index)
        delegate?.journalModel(self, didChange: announce(index))
    }

    /// Runs `change` on the background queue; back on the GTK thread, `apply`s a success to the
    /// list (once the ids are loaded: before that, the load will list it) and then calls `completion`.
    private func write<T: Sendable>(_ change: @escaping @Sendable (any JournalStoring) throws(JournalError) -> (T, Int?),
                                    apply: @escaping @MainActor (T, Int?) -> Void,
                                    completion: @escaping @MainActor (Result<(T, Int?), JournalError>) -> Void) {
        let store = self.store
        work.async {
            let result = Result { () throws(JournalError) in try change(store) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    if case .success(let (value, position)) = result, self.isLoaded { apply(value, position) }
                    // The write ran the health check itself: let the window hear its verdict.
                    if case .failure(.damagedJournal) = result { self.checkHealth() }
                    completion(result)
                }
            }
        }
    }
}
