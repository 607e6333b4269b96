import Foundation

/// The journal's tags as the screens see them: the list every form's toggles show, kept current
/// after each change, and the changes themselves, each a store intent on the model's queue.
extension JournalModel {
    /// The names of `ids`, in the tags' own order (by name).
    public func tagNames(_ ids: Set<Int64>) -> [String] {
        ids.isEmpty ? [] : tags.filter { ids.contains($0.id) }.map(\.name)
    }

    /// Calls `observer` each time `tags` changes (the forms' toggles, the search's tag filter).
    public func observeTags(_ observer: @escaping @MainActor () -> Void) {
        tagObservers.append(observer)
    }

    /// Reads the tags (names only: nothing is counted) in the background; tried again shortly
    /// if the journal cannot be read just now, so the forms never stay without their toggles.
    public func loadTags() {
        let store = self.store
        work.async {
            let tags = Result { () throws(JournalError) in try store.tags(counted: false) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    switch tags {
                    case .success(let tags): self.tagsChanged(to: tags)
                    case .failure:
                        DispatchQueue.main.asyncAfter(deadline: .now() + Self.tagRetrySeconds) {
                            MainActor.assumeIsolated { self.loadTags() }
                        }
                    }
                }
            }
        }
    }

    /// How long after a failed read of the tags it is tried again.
    public nonisolated static let tagRetrySeconds = 2.0

    /// The tag `id` is now: itself, the tag it was merged into (however many merges ago), or
    /// nil once deleted.
    public func currentTag(_ id: Int64) -> Int64? {
        let id = mergeTarget(id)
        return tags.contains { $0.id == id } ? id : nil
    }

    /// The tag `id` went into by merges in this session (itself if none).
    func mergeTarget(_ id: Int64) -> Int64 {
        var id = id
        var seen: Set<Int64> = []
        while let target = mergedTags[id], seen.insert(id).inserted { id = target }
        return id
    }

    /// `ids` as the tags they are now (see `currentTag`).
    public func currentTags(_ ids: Set<Int64>) -> Set<Int64> {
        Set(ids.compactMap(currentTag))
    }

    /// The tags with how many entries carry each, for the Tags window.
    public func countedTags(completion: @escaping @MainActor (Result<[Tag], JournalError>) -> Void) {
        let store = self.store
        work.async {
            let result = Result { () throws(JournalError) in try store.tags(counted: true) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    public func createTag(named name: String, completion: @escaping @MainActor (Result<Tag, JournalError>) -> Void) {
        runTagChange({ store throws(JournalError) in try store.createTag(named: name) }, adjust: { _ in }, completion: completion)
    }

    public func renameTag(id: Int64, to name: String, completion: @escaping @MainActor (Result<Void, JournalError>) -> Void) {
        runTagChange({ store throws(JournalError) in try store.renameTag(id: id, to: name) }, adjust: { _ in }, completion: completion)
    }

    /// Merges tag `id` into `target`; `completion` gets how many entries gained `target`.
    public func mergeTag(id: Int64, into target: Int64, completion: @escaping @MainActor (Result<Int, JournalError>) -> Void) {
        runTagChange({ store throws(JournalError) in try store.mergeTag(id: id, into: target) }, adjust: { entry in
            guard entry.tagIDs.contains(id) else { return }
            entry.tagIDs.remove(id)
            entry.tagIDs.insert(target)
        }, merged: (id, target), completion: completion)
    }

    /// Deletes tag `id`; `completion` gets how many entries carried it.
    public func deleteTag(id: Int64, completion: @escaping @MainActor (Result<Int, JournalError>) -> Void) {
        runTagChange({ store throws(JournalError) in try store.deleteTag(id: id) }, adjust: { entry in
            entry.tagIDs.remove(id)
        }, completion: completion)
    }

    /// Runs `change`, then reads the tags again, in the background. On success the entries in
    /// memory are brought in line with the file by `adjust` (so no row shows a tag that is gone),
    /// `tags` is the new list, and every observer and the delegate hear of it before `completion`.
    /// A change that was made is reported made even if the tags cannot be read again just then
    /// (they are read again shortly): a retry would make it twice.
    private func runTagChange<T: Sendable>(_ change: @escaping @Sendable (any JournalStoring) throws(JournalError) -> T,
                                           adjust: @escaping @MainActor (inout Entry) -> Void,
                                           merged: (Int64, Int64)? = nil,
                                           completion: @escaping @MainActor (Result<T, JournalError>) -> Void) {
        let store = self.store
        work.async {
            let result = Result { () throws(JournalError) in try change(store) }
            let tags = result.isSuccess ? (try? store.tags(counted: false)) : nil
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    switch result {
                    case .success(let value):
                        for id in self.cache.keys { adjust(&self.cache[id]!) }
                        if let (from, to) = merged { self.mergedTags[from] = to }
                        if let tags { self.tagsChanged(to: tags) } else { self.loadTags() }
                        completion(.success(value))
                    case .failure(let error):
                        if case .damagedJournal = error { self.checkHealth() }
                        completion(.failure(error))
                    }
                }
            }
        }
    }

    /// The journal's tags are now `tags`: every observer and the delegate hear of it.
    private func tagsChanged(to tags: [Tag]) {
        self.tags = tags
        for observer in tagObservers { observer() }
        delegate?.journalModel(self, didChange: .tagsChanged)
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { true } else { false }
    }
}
