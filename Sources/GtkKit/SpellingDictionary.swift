import CEnchant
import Dispatch
import Foundation

/// One of the computer's dictionaries, through Enchant: whether a word is spelled right, and
/// what it might have been. Words a person adds are given to it for the session only
/// (`accept`): Enchant writes nothing of them to its own word lists.
///
/// Loading a dictionary takes 50 to 100 ms (hunspell reads and expands its word list), so it is
/// done on a queue of its own; the dictionary loaded is then used on the GTK thread only. Each
/// has a broker of its own (Enchant shares a language's dictionary within a broker): words one
/// journal's spelling accepts are never another's.
public final class SpellingDictionary: @unchecked Sendable {
    /// The tag of the dictionary used ("en_US").
    public let language: String
    private let broker: OpaquePointer
    private let dictionary: OpaquePointer

    private init(language: String, broker: OpaquePointer, dictionary: OpaquePointer) {
        self.language = language
        self.broker = broker
        self.dictionary = dictionary
    }

    deinit {
        nonisolated(unsafe) let (broker, dictionary) = (broker, dictionary)
        Self.queue.async {
            enchant_broker_free_dict(broker, dictionary)
            enchant_broker_free(broker)
        }
    }

    /// What a load found: the dictionary for the language asked (or the closest installed:
    /// "en" for "en_IE"), nil when none is, and every language installed ("en_US", "fr_FR").
    public struct Loaded: @unchecked Sendable {
        public let dictionary: SpellingDictionary?
        public let installed: [String]
    }

    /// Loads the dictionary for `language` ("en_US", "fr_FR.UTF-8") off the GTK thread, then
    /// `done` on it.
    public static func load(language: String, _ done: @escaping @MainActor (Loaded) -> Void) {
        queue.async {
            let loaded = loadOnQueue(language: language)
            DispatchQueue.main.async { MainActor.assumeIsolated { done(loaded) } }
        }
    }

    /// The same, waiting for it (tests).
    public static func loadNow(language: String) -> Loaded {
        queue.sync { loadOnQueue(language: language) }
    }

    /// Waits for every load and every letting go already asked (a dictionary's deinit frees its
    /// broker on the queue). Called as the process ends, after the last dictionary is let go:
    /// freeing a broker unloads Enchant's provider libraries (dlclose), and one that ran beside
    /// the process's own exit crashed it in `__cxa_finalize`, the two threads finalising at once.
    public static func finishPendingWork() {
        queue.sync {}
    }

    private static func loadOnQueue(language: String) -> Loaded {
        guard let broker = enchant_broker_init() else { return Loaded(dictionary: nil, installed: []) }
        let installed = installedLanguages(broker)
        let tag = String(language.split(separator: ".").first ?? Substring(language))
        for candidate in [tag, String(tag.prefix { $0 != "_" && $0 != "-" })] where enchant_broker_dict_exists(broker, candidate) != 0 {
            if let found = enchant_broker_request_dict(broker, candidate) {
                return Loaded(dictionary: SpellingDictionary(language: candidate, broker: broker, dictionary: found), installed: installed)
            }
        }
        enchant_broker_free(broker)
        return Loaded(dictionary: nil, installed: installed)
    }

    public func isSpelledRight(_ word: String) -> Bool {
        enchant_dict_check(dictionary, word, -1) == 0
    }

    /// What the word might have been, the likeliest first (at most `limit`).
    public func suggestions(for word: String, limit: Int = 6) -> [String] {
        var count = 0
        guard let list = enchant_dict_suggest(dictionary, word, -1, &count) else { return [] }
        defer { enchant_dict_free_string_list(dictionary, list) }
        return (0..<min(count, limit)).compactMap { list[$0].map { String(cString: $0) } }
    }

    /// Takes the word as spelled right until the dictionary is let go; written nowhere.
    public func accept(_ word: String) {
        enchant_dict_add_to_session(dictionary, word, -1)
    }

    /// The desktop's language as a dictionary's tag: LC_ALL, LC_MESSAGES, then LANG
    /// ("fr_FR.UTF-8" → "fr_FR"); en_US when none names one.
    public static var desktopLanguage: String {
        let environment = ProcessInfo.processInfo.environment
        let locale = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty && $0 != "C" && $0 != "POSIX" && !$0.hasPrefix("C.") } ?? "en_US"
        return String(locale.split(separator: ".").first ?? "en_US")
    }

    private static func installedLanguages(_ broker: OpaquePointer) -> [String] {
        final class Found { var tags: Set<String> = [] }
        let found = Found()
        enchant_broker_list_dicts(broker, { tag, _, _, _, data in
            guard let tag, let data else { return }
            Unmanaged<Found>.fromOpaque(data).takeUnretainedValue().tags.insert(String(cString: tag))
        }, Unmanaged.passUnretained(found).toOpaque())
        return found.tags.sorted()
    }

    private static let queue = DispatchQueue(label: "flourish.spelling", qos: .userInitiated)
}
