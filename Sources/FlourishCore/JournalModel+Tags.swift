import Foundation

/// The journal's tags as the screens see them: the list every form's toggles show, kept current
/// after each change, and the changes themselves, each a store intent on the model's queue.
extension JournalModel {
    /// The tag's name, or nil for an id no longer in the journal.
    public func tagName(_ id: Int64) -> String? { tags.first { $0.id == id }?.name }

    /// The names of `ids`, in the tags' own order (by name).
    public func tagNames(_ ids: Set<Int64>) -> [String] {
        ids.isEmpty ? [] : tags.filter { ids.contains($0.id) }.map(\.name)
    }

    /// Calls `observer` each time `tags` changes (the forms' toggles, the search's tag filter).
    public func observeTags(_ observer: @escaping @MainActor () -> Void) {
        tagObservers.append(observer)
    }

    /// Reads the tags (names only: nothing is counted) in the background.
    public func loadTags() {
        runTagChange({ _ throws(JournalError) in () }, adjust: { _ in }, completion: { _ in })
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
        }, completion: completion)
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
    private func runTagChange<T: Sendable>(_ change: @escaping @Sendable (any JournalStoring) throws(JournalError) -> T,
                                           adjust: @escaping @MainActor (inout Entry) -> Void,
                                           completion: @escaping @MainActor (Result<T, JournalError>) -> Void) {
        let store = self.store
        work.async {
            let result = Result { () throws(JournalError) in
                let value = try change(store)
                return (value, try store.tags(counted: false))
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    switch result {
                    case .success(let (value, tags)):
                        for id in self.cache.keys { adjust(&self.cache[id]!) }
                        self.tags = tags
                        for observer in self.tagObservers { observer() }
                        self.delegate?.journalModel(self, didChange: .tagsChanged)
                        completion(.success(value))
                    case .failure(let error):
                        if case .damagedJournal = error { self.checkHealth() }
                        completion(.failure(error))
                    }
                }
            }
        }
    }
}
