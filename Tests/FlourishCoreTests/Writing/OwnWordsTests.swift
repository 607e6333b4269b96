@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// The words a person adds to the dictionary and the journal's spelling language: kept in the
/// journal, so sealed with a locked one; and the words spelling checks.
final class OwnWordsTests: XCTestCase {
    private let folder = TemporaryFolder()
    private lazy var path = folder.file("journal.sqlite")

    func testWordsAndTheLanguageAreKeptInTheJournal() throws {
        let store = try JournalStore(path: path)
        XCTAssertEqual(store.ownWords(), [])
        XCTAssertNil(store.spellingLanguage())
        try store.addOwnWord("Gretchenberg")
        try store.addOwnWord("  Aoife ")
        try store.addOwnWord("Gretchenberg")
        try store.addOwnWord("")
        try store.addOwnWord(String(repeating: "a", count: 101))
        try store.setSpellingLanguage("fr_FR")
        store.close()
        let again = try JournalStore(path: path)
        defer { again.close() }
        XCTAssertEqual(again.ownWords(), ["Aoife", "Gretchenberg"], "each once, trimmed; none empty or too long")
        XCTAssertEqual(again.spellingLanguage(), "fr_FR")
        try again.setSpellingLanguage(nil)
        XCTAssertNil(again.spellingLanguage(), "back to the desktop's")
    }

    func testALockedJournalKeepsItsWordsSealed() throws {
        try JournalStore(path: path).close()
        let passphrase = "correct horse battery staple"
        _ = try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive)
        let store = try JournalStore(path: path, cipher: try JournalLock.unlock(path: path, secret: passphrase))
        try store.addOwnWord("Quillabamba")
        try store.setSpellingLanguage("qu_PE")
        XCTAssertEqual(store.ownWords(), ["Quillabamba"])
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: folder.file(name)))
            XCTAssertNil(data.range(of: Data("Quillabamba".utf8)), "the word in the clear in \(name)")
            XCTAssertNil(data.range(of: Data("qu_PE".utf8)), "the language in the clear in \(name)")
        }
        store.close()
    }

    func testTheWordsSpellingChecksAreLettersNotNumbersOrAddresses() {
        let text = "Todey’s well-known café, 2nd floor; see https://example.org or me@example.org. A x naïve"
        XCTAssertEqual(SpelledWords.words(in: text).map(\.text), ["Todey’s", "well-known", "café", "floor", "see", "or", "naïve"])
        let word = SpelledWords.words(in: "ab café", from: 10)[1]
        XCTAssertEqual([word.start, word.end], [13, 17], "by Unicode scalars, from the offset given")
        XCTAssertEqual(SpelledWords.words(in: "e\u{301}te\u{301}").map(\.text), ["e\u{301}te\u{301}"], "combining accents stay in the word")
    }

    func testAKeystrokeIsCheckedAgainWithinWholeWordsAroundIt() {
        // A window "lo wor" of "hello world" from 3: cut to the whole words inside it.
        XCTAssertEqual(SpelledWords.wholeWords(in: "lo wor", from: 3, total: 11), 5..<6)
        XCTAssertEqual(SpelledWords.wholeWords(in: "hello wor", from: 0, total: 11), 0..<6, "the start is the text's own")
        XCTAssertEqual(SpelledWords.wholeWords(in: "lo world", from: 3, total: 11), 5..<11, "the end is the text's own")
    }

    func testRecoveringAJournalKeepsItsWordsAndLanguage() throws {
        let store = try JournalStore(path: path)
        try store.save(NewEntry(title: "Sea", body: "Gretchenberg", mood: .okay))
        try store.addOwnWord("Gretchenberg")
        try store.setSpellingLanguage("fr_FR")
        try store.setSpellingChecked(false)
        store.close()
        let recovered = folder.file("recovered.sqlite")
        _ = try JournalRescue.recover(from: path, to: recovered)
        let again = try JournalStore(path: recovered)
        defer { again.close() }
        XCTAssertEqual(again.ownWords(), ["Gretchenberg"])
        XCTAssertEqual(again.spellingLanguage(), "fr_FR")
        XCTAssertFalse(again.isSpellingChecked())
    }

    func testAWordIsMeasuredAsTheTableMeasuresIt() throws {
        let store = try JournalStore(path: path)
        defer { store.close() }
        // 60 letters each with a combining accent: 60 characters, 120 Unicode scalars.
        try store.addOwnWord(String(repeating: "e\u{301}", count: 60))
        XCTAssertEqual(store.ownWords(), [], "too long for the table, left out rather than refused")
    }
}

