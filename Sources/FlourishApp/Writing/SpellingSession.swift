import FlourishCore
import Foundation
import GtkKit

/// A journal's spelling, shared by every field that checks it (New Entry's and the Edit page's):
/// its dictionary, loaded once off the GTK thread the first time a field needs it (never for
/// the first frame), the words the person added, kept in the journal and given to the
/// dictionary for the session only, and what each word was found to be.
@MainActor
final class SpellingSession {
    /// The journal's language, or the desktop's; nil until loaded.
    private(set) var dictionary: SpellingDictionary?
    /// Every dictionary installed ("en_US", "fr_FR"); empty until loaded, or when none is.
    private(set) var installed: [String] = []
    /// The language the journal keeps (nil: the desktop's).
    private(set) var chosenLanguage: String?
    /// Whether the journal's spelling is checked (the person can turn it off, per journal).
    private(set) var isChecked = true
    private(set) var isLoaded = false
    private var isLoading = false
    private var ownWords: Set<String> = []
    /// Words seen, spelled right or not: checking a word costs Enchant 20 to 50 µs, looking it
    /// up here well under one, and most words of a journal come again and again.
    private var known: [String: Bool] = [:]
    private let model: JournalModel
    private var listeners: [ObjectIdentifier: @MainActor () -> Void] = [:]

    private init(model: JournalModel) { self.model = model }

    /// The session of `model`'s journal, made the first time it is asked for.
    static func of(_ model: JournalModel) -> SpellingSession {
        sessions.removeAll { $0.session == nil }
        if let found = sessions.first(where: { $0.session?.model === model })?.session { return found }
        let session = SpellingSession(model: model)
        sessions.append(Weak(session: session))
        return session
    }

    private struct Weak { weak var session: SpellingSession? }
    private static var sessions: [Weak] = []

    /// `changed` is called whenever what is misspelled may have changed (loaded, a word added,
    /// another language): its owner checks its text again.
    func listen(_ owner: AnyObject, changed: @escaping @MainActor () -> Void) {
        listeners[ObjectIdentifier(owner)] = changed
    }

    /// Loads the journal's words and dictionary, once; listeners hear when it is done.
    func load() {
        guard !isLoaded, !isLoading else { return }
        isLoading = true
        model.readSpelling { [weak self] checked, words, language in
            guard let self else { return }
            ownWords = Set(words)
            chosenLanguage = language
            isChecked = checked
            if checked {
                open(language ?? SpellingDictionary.desktopLanguage)
            } else {
                isLoading = false
                isLoaded = true
                tellListeners()
            }
        }
    }

    /// Opens `language`'s dictionary; when it is not installed (a journal synced from a computer
    /// that has it), the desktop's, else the first installed.
    private func open(_ language: String, tried: [String] = []) {
        SpellingDictionary.load(language: language) { [weak self] loaded in
            guard let self else { return }
            let tried = tried + [language]
            if loaded.dictionary == nil,
               let next = ([SpellingDictionary.desktopLanguage] + loaded.installed).first(where: { !tried.contains($0) }) {
                return open(next, tried: tried)
            }
            dictionary = loaded.dictionary
            installed = loaded.installed
            for word in ownWords { loaded.dictionary?.accept(word) }
            known.removeAll()
            isLoading = false
            isLoaded = true
            tellListeners()
        }
    }

    /// Whether `word` is misspelled: never before the dictionary is loaded, nor without one, nor
    /// with spelling turned off.
    func isMisspelled(_ word: String) -> Bool {
        guard isChecked, let dictionary else { return false }
        if let right = known[word] { return !right }
        let right = dictionary.isSpelledRight(word)
        known[word] = right
        return !right
    }

    func suggestions(for word: String) -> [String] { dictionary?.suggestions(for: word) ?? [] }

    /// Adds the word to the journal's own (kept in it, sealed with it) and takes it as right.
    func add(_ word: String, failed: @escaping @MainActor (JournalError) -> Void) {
        ownWords.insert(word)
        model.addOwnWord(word, failed: failed)
        ignore(word)
    }

    /// Takes the word as right until Flourish quits; kept nowhere.
    func ignore(_ word: String) {
        dictionary?.accept(word)
        known[word] = true
        tellListeners()
    }

    /// Checks the journal in `language` from now on, and keeps the choice in it.
    func choose(_ language: String, failed: @escaping @MainActor (JournalError) -> Void) {
        guard language != dictionary?.language else { return }
        chosenLanguage = language
        model.setSpellingLanguage(language, failed: failed)
        isLoading = true
        open(language)
    }

    /// Turns the journal's spelling on or off, and keeps the choice in it.
    func setChecked(_ checked: Bool, failed: @escaping @MainActor (JournalError) -> Void) {
        model.setSpellingChecked(checked, failed: failed)
        guard checked != isChecked else { return }
        isChecked = checked
        if checked {
            isLoading = true
            open(chosenLanguage ?? SpellingDictionary.desktopLanguage)
        } else {
            dictionary = nil
            known.removeAll()
            tellListeners()
        }
    }

    private func tellListeners() {
        for changed in listeners.values { changed() }
    }
}
