@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// Spelling in the real New Entry form, with the computer's hunspell dictionaries through
/// Enchant (scripts/setup installs en_US, and French for the tests): misspelled words get the
/// error underline, the body's context menu offers suggestions, Add to Dictionary, Ignore and
/// the Language submenu, and a word added is kept in the journal and nowhere else.
final class SpellingUITests: XCTestCase {
    /// The New Entry form with its dictionary loaded (English, the tests' desktop language) and
    /// `text` in its body, checked.
    @MainActor
    private func form(with text: String, harness: Harness? = nil) throws -> (Harness, TextSpelling) {
        let harness = try harness ?? Harness()
        let fields = harness.form.fields
        let spelling = try XCTUnwrap(fields.bodySpelling)
        fields.bodyField.grabFocus()
        fields.bodyField.text = text
        harness.waitUntil("the body is checked", timeout: 10) { spelling.isSettled }
        return (harness, spelling)
    }

    /// The menu as it opens (a right click, the Menu key): filled for the word at the cursor.
    @MainActor
    private func shown(_ spelling: TextSpelling) -> ExtraMenu {
        spelling.menu.willShow()
        return spelling.menu
    }

    private func words(_ ranges: [Range<Int>], in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return ranges.map { range in
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[range])
            return String(word)
        }
    }

    func testMisspelledWordsAreUnderlinedAndAKeystrokeChecksItsWordAgain() throws {
        try MainActor.assumeIsolated {
            let (harness, _) = try form(with: "Todey we wakled to the harbor. It was cold.")
            defer { harness.close() }
            let body = harness.form.fields.bodyField
            XCTAssertEqual(words(body.misspelledRanges, in: body.text), ["Todey", "wakled"], "read from the buffer's tag")
            XCTAssertEqual(SpellingDictionary.desktopLanguage.prefix(2), "en")

            // Typed at the end, a letter at a time: the word is underlined once it is one.
            body.placeCursor(at: body.characterCount)
            for letter in " Realy" { body.insertAtCursor(String(letter)) }
            harness.waitForFrame("the keystrokes are checked")
            XCTAssertEqual(words(body.misspelledRanges, in: body.text), ["Todey", "wakled", "Realy"])
            // Mended in place ("Realy" to "Really"): the underline goes.
            body.placeCursor(at: body.characterCount - 2)
            body.insertAtCursor("l")
            XCTAssertEqual(words(body.misspelledRanges, in: body.text), ["Todey", "wakled"])
        }
    }

    func testASuggestionFromTheContextMenuReplacesTheWordAndUndoTakesItBack() throws {
        try MainActor.assumeIsolated {
            let (harness, spelling) = try form(with: "We wakled home.")
            defer { harness.close() }
            let body = harness.form.fields.bodyField
            body.placeCursor(at: 5) // in "wakled", as a right click on it puts it
            XCTAssertTrue(shown(spelling).labels.contains("walked"), "\(shown(spelling).labels)")
            XCTAssertTrue(shown(spelling).labels.contains("Add “wakled” to Dictionary"))
            XCTAssertTrue(shown(spelling).labels.contains("Ignore “wakled”"))
            XCTAssertTrue(shown(spelling).choose("walked"), "chosen through its action")
            XCTAssertEqual(body.text, "We walked home.")
            XCTAssertEqual(body.misspelledRanges, [])
            XCTAssertTrue(body.activateAction("text.undo"), "Ctrl+Z")
            XCTAssertEqual(body.text, "We wakled home.", "the replacement is one step of Undo")

            // On a word spelled right: no suggestions, only the Language submenu.
            body.placeCursor(at: 1)
            XCTAssertFalse(shown(spelling).labels.contains { $0.hasPrefix("Add ") }, "\(shown(spelling).labels)")
            XCTAssertTrue(shown(spelling).labels.contains("Language"))
        }
    }

    func testAWordAddedIsKeptInTheJournalAndNowhereElseAndIgnoreKeepsItForTheSessionOnly() throws {
        let folder = TemporaryFolder()
        let journal = folder.file("journal.sqlite")
        try MainActor.assumeIsolated {
            let (harness, spelling) = try form(with: "Gretchenberg sailed past Quillabamba.", harness: try Harness(journalPath: journal))
            let body = harness.form.fields.bodyField
            XCTAssertEqual(words(body.misspelledRanges, in: body.text), ["Gretchenberg", "Quillabamba"])
            body.placeCursor(at: 3)
            XCTAssertTrue(shown(spelling).choose("Add “Gretchenberg” to Dictionary"))
            harness.waitUntil("the text is checked again") { spelling.isSettled }
            XCTAssertEqual(words(body.misspelledRanges, in: body.text), ["Quillabamba"], "no longer underlined")
            body.placeCursor(at: 30)
            XCTAssertTrue(shown(spelling).choose("Ignore “Quillabamba”"))
            harness.waitUntil("the text is checked again") { spelling.isSettled }
            XCTAssertEqual(body.misspelledRanges, [])
            harness.waitUntil("the word is kept in the journal") { harness.journal.ownWords() == ["Gretchenberg"] }
            XCTAssertEqual(harness.journal.ownWords(), ["Gretchenberg"], "an ignored word is not kept")
            harness.close()
        }
        // Every file outside the journal (Enchant's own word lists in the config folder, the
        // preferences, caches): none holds the word.
        let home = ProcessInfo.processInfo.environment
        let roots = [home["HOME"], home["XDG_CONFIG_HOME"], home["XDG_DATA_HOME"], home["XDG_CACHE_HOME"], folder.path].compactMap { $0 }
        let journalFiles = Set(["", "-wal", "-shm"].map { journal + $0 })
        for root in roots {
            let files = FileManager.default.enumerator(atPath: root)
            while let name = files?.nextObject() as? String {
                let path = (root as NSString).appendingPathComponent(name)
                guard !journalFiles.contains(path), let data = FileManager.default.contents(atPath: path) else { continue }
                XCTAssertNil(data.range(of: Data("Gretchenberg".utf8)), "the word is in \(path)")
            }
        }
        // Flourish again, on the same journal: the word added is right, the one ignored is not.
        try MainActor.assumeIsolated {
            let (harness, _) = try form(with: "Gretchenberg sailed past Quillabamba.", harness: try Harness(journalPath: journal))
            defer { harness.close() }
            let body = harness.form.fields.bodyField
            XCTAssertEqual(words(body.misspelledRanges, in: body.text), ["Quillabamba"])
        }
    }

    func testTheLanguageSubmenuListsTheDictionariesAndKeepsTheChoiceInTheJournal() throws {
        try MainActor.assumeIsolated {
            let (harness, spelling) = try form(with: "Bonjour, nous avons marché.")
            defer { harness.close() }
            let body = harness.form.fields.bodyField
            // ("nous" is an English word too.)
            XCTAssertEqual(words(body.misspelledRanges, in: body.text), ["Bonjour", "avons", "marché"])
            let english = TextSpelling.name(of: "en_US"), french = TextSpelling.name(of: "fr_FR")
            XCTAssertTrue(shown(spelling).labels.contains(english) && shown(spelling).labels.contains(french), "\(shown(spelling).labels)")
            XCTAssertTrue(shown(spelling).isChecked(english))
            XCTAssertFalse(shown(spelling).isChecked(french))
            XCTAssertTrue(shown(spelling).choose(french))
            harness.waitUntil("checked in French", timeout: 10) { spelling.isSettled && body.misspelledRanges.isEmpty }
            XCTAssertTrue(shown(spelling).isChecked(french))
            harness.waitUntil("the choice is kept in the journal") { harness.journal.spellingLanguage() == "fr_FR" }
        }
    }

    func testTheTitleIsCheckedAndItsMenuOffersItsFirstMisspelledWord() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let fields = harness.form.fields
            let spelling = try XCTUnwrap(fields.titleSpelling)
            fields.titleField.text = "Walk by the rivr"
            harness.waitUntil("the title is checked", timeout: 10) { spelling.isSettled }
            XCTAssertEqual(fields.titleField.misspelledRanges, [12..<16], "read from the field's Pango attributes")
            fields.titleField.placeCursor(at: 0) // a right click leaves the cursor where it was
            XCTAssertTrue(shown(spelling).labels.contains("river"), "\(shown(spelling).labels)")
            XCTAssertTrue(shown(spelling).choose("river"))
            XCTAssertEqual(fields.titleField.text, "Walk by the river")
            harness.waitUntil("checked again") { spelling.isSettled }
            XCTAssertEqual(fields.titleField.misspelledRanges, [])
        }
    }

    func testAJournalsLanguageWithNoDictionaryHereFallsBackToTheDesktops() throws {
        let folder = TemporaryFolder()
        let journal = folder.file("journal.sqlite")
        let store = try JournalStore(path: journal)
        try store.setSpellingLanguage("xx_XX")
        store.close()
        try MainActor.assumeIsolated {
            let (harness, spelling) = try form(with: "Todey", harness: try Harness(journalPath: journal))
            defer { harness.close() }
            XCTAssertEqual(harness.form.fields.bodyField.misspelledRanges, [0..<5], "checked in English")
            XCTAssertTrue(shown(spelling).isChecked(TextSpelling.name(of: "en_US")))
        }
    }

    func testCheckSpellingTurnsItOffForTheJournalAndOnAgain() throws {
        let folder = TemporaryFolder()
        let journal = folder.file("journal.sqlite")
        try MainActor.assumeIsolated {
            let (harness, spelling) = try form(with: "Todey", harness: try Harness(journalPath: journal))
            defer { harness.close() }
            XCTAssertTrue(shown(spelling).isChecked("Check Spelling"))
            XCTAssertTrue(shown(spelling).choose("Check Spelling"))
            XCTAssertEqual(harness.form.fields.bodyField.misspelledRanges, [], "nothing underlined")
            XCTAssertEqual(shown(spelling).labels, ["Check Spelling"], "and nothing else offered")
            harness.waitUntil("the choice is kept in the journal") { !harness.journal.isSpellingChecked() }
        }
        try MainActor.assumeIsolated {
            let (harness, spelling) = try form(with: "Todey", harness: try Harness(journalPath: journal))
            defer { harness.close() }
            XCTAssertEqual(harness.form.fields.bodyField.misspelledRanges, [], "still off")
            XCTAssertFalse(shown(spelling).isChecked("Check Spelling"))
            XCTAssertTrue(shown(spelling).choose("Check Spelling"))
            harness.waitUntil("checked again", timeout: 10) { spelling.isSettled && !harness.form.fields.bodyField.misspelledRanges.isEmpty }
            XCTAssertEqual(harness.form.fields.bodyField.misspelledRanges, [0..<5])
            harness.waitUntil("kept") { harness.journal.isSpellingChecked() }
        }
    }
}
