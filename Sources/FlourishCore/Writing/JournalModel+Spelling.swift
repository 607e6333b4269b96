import Foundation

/// Spelling's words and language, read and kept off the GTK thread as every store call is.
extension JournalModel {
    /// Whether the journal's spelling is checked, the words added and its language, then `done`
    /// on the main thread.
    public func readSpelling(_ done: @escaping @MainActor (_ checked: Bool, _ words: [String], _ language: String?) -> Void) {
        let store = self.store
        work.async {
            let checked = store.isSpellingChecked(), words = store.ownWords(), language = store.spellingLanguage()
            DispatchQueue.main.async { MainActor.assumeIsolated { done(checked, words, language) } }
        }
    }

    /// Keeps whether the journal's spelling is checked.
    public func setSpellingChecked(_ checked: Bool, failed: @escaping @MainActor (JournalError) -> Void) {
        write(failed) { store throws(JournalError) in try store.setSpellingChecked(checked) }
    }

    /// Keeps a word the person added; `failed` hears why it could not be.
    public func addOwnWord(_ word: String, failed: @escaping @MainActor (JournalError) -> Void) {
        write(failed) { store throws(JournalError) in try store.addOwnWord(word) }
    }

    /// Keeps the journal's spelling language (nil: the desktop's).
    public func setSpellingLanguage(_ language: String?, failed: @escaping @MainActor (JournalError) -> Void) {
        write(failed) { store throws(JournalError) in try store.setSpellingLanguage(language) }
    }

    private func write(_ failed: @escaping @MainActor (JournalError) -> Void,
                       _ change: @escaping @Sendable (any JournalStoring) throws(JournalError) -> Void) {
        let store = self.store
        work.async {
            do throws(JournalError) {
                try change(store)
            } catch {
                DispatchQueue.main.async { MainActor.assumeIsolated { failed(error) } }
            }
        }
    }
}
