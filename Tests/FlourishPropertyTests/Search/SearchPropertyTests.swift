import FlourishCore
import FlourishTestSupport
import Foundation
import PropertyBased
import Testing

/// Whatever is typed into the search, it answers (never an error), and every word of an entry
/// finds that entry, through the real store's index on a real file.
@Suite struct SearchPropertyTests {
    @Test("any words typed are searched, never refused")
    func anyWordsAreSearched() async throws {
        let folder = TemporaryFolder()
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        defer { store.close() }
        _ = try store.save(try EntryDraft(title: "Café 𞤀𞤣𞤤𞤢𞤥 x\u{200D}y", body: "ab·cd walk", mood: .okay).validated().get())
        await propertyCheck(count: 300, input: TextRoundTripTests.anyText) { text in
            _ = try store.matches(JournalQuery(text: text))
            _ = try store.search(JournalQuery(text: text, moods: [.okay]))
        }
    }

    @Test("each word of an entry finds it, and so does the start of each word")
    func eachWordFindsItsEntry() async throws {
        let folder = TemporaryFolder()
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        defer { store.close() }
        let words = Gen<Character>.oneOf(
            Gen.character(in: "a"..."z"), Gen.character(in: "à"..."ÿ"), Gen.character(in: "α"..."ρ"),
            Gen.character(in: "а"..."я"), Gen.character(in: "一"..."龥")
        ).string(of: 1...12)
        await propertyCheck(count: 100, input: words, words) { first, second in
            let entry = try store.save(try EntryDraft(title: first, body: "\(second), then more.", mood: .meh).validated().get())
            for query in [first, second, String(first.prefix(1)), "\(first.uppercased()) \(second)"] {
                #expect(try store.matches(JournalQuery(text: query)).contains(entry.id), "“\(query)” finds “\(first)” / “\(second)”")
            }
        }
    }
}

extension SearchPropertyTests {
    /// Each text is found, with "cafe", in an entry titled "Café " + text, and in no other;
    /// none is refused (combining marks SQLite's tokenizer takes for separators, joiners, a
    /// script added to Unicode in 2016).
    @Test("marks and letters the index's tokenizer splits at are searched, not refused", arguments: [
        "a\u{305}b", "Ca\u{310}fe", "x\u{200D}y", "naïve a\u{301}b", "\u{305}", "𞤀𞤣𞤤𞤢𞤥",
    ])
    func tokenizerEdges(text: String) throws {
        let folder = TemporaryFolder()
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        defer { store.close() }
        let entry = try store.save(try EntryDraft(title: "Café \(text)", mood: .okay).validated().get())
        _ = try store.save(try EntryDraft(title: "Another day", mood: .okay).validated().get())
        #expect(try store.matches(JournalQuery(text: "cafe " + text)) == [entry.id])
        #expect(try store.search(JournalQuery(text: "cafe " + text, moods: [.okay])) == [entry.id])
    }
}
