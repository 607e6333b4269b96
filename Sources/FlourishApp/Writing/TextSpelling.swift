import FlourishCore
import Foundation
import GtkKit

/// Spelling in one text field (the body or the title): misspelled words get the error underline
/// as the person types, and the context menu (right click, the Menu key, Shift+F10) offers, for
/// the word at the cursor, what it might have been, Add to Dictionary and Ignore, and a Language
/// submenu. A one-line field, whose right click leaves the cursor where it was, offers them for
/// its first misspelled word when the cursor is in none.
///
/// Typing never waits for it: after a keystroke only the paragraph it changed is checked again
/// (each word looked up once, then remembered); a whole text (an entry opened, a paste) is
/// checked in slices when GTK is idle, between frames.
@MainActor
final class TextSpelling {
    /// Words checked per idle slice: about a millisecond of Enchant at worst.
    static let sliceWords = 200

    private let view: any SpellableText
    private let isOneLine: Bool
    private let session: SpellingSession
    private let alerts: Alerts
    let menu: ExtraMenu
    private var characters = 0
    /// The whole text's check, a slice at a time.
    private let pass = IdleSlices()

    init(_ view: any SpellableText, oneLine: Bool = false, session: SpellingSession, alerts: Alerts) {
        self.view = view
        isOneLine = oneLine
        self.session = session
        self.alerts = alerts
        menu = view.makeExtraMenu(prefix: "spelling")
        session.listen(self) { [weak self] in self?.checkAll() }
        view.onChanged { [weak self] in self?.changed() }
        menu.willShow = { [weak self] in self?.updateMenu() }
        pass.slice = { [weak self] start in self?.slice(from: start) }
    }

    /// Whether the whole text has been checked since it last changed wholesale.
    var isSettled: Bool { session.isLoaded && !pass.isRunning }

    private func changed() {
        let count = view.characterCount
        let delta = abs(count - characters)
        characters = count
        // The dictionary is loaded (off the GTK thread) once there is text to check: never for
        // start-up's first frame, and not at all by a start that writes nothing.
        guard session.isLoaded else {
            if count > 0 { session.load() }
            return
        }
        guard session.isChecked else { return }
        // More than a few characters at once is a text put in (an entry opened, a paste, a
        // reset): all of it again. A keystroke: the words around it, now, even while such a
        // pass goes on.
        if delta > 2 {
            checkAll()
        } else {
            check(around: view.cursorOffset, reach: Self.keystrokeReach)
        }
    }

    /// How far either side of a keystroke is checked again, in characters: the word typed and
    /// its neighbours (joined or split by a space), never a whole long paragraph per key.
    static let keystrokeReach = 64

    /// Checks the whole text again, a slice at a time.
    func checkAll() {
        pass.cancel()
        guard session.isLoaded else { return }
        characters = view.characterCount
        guard session.isChecked else {
            view.underlineMisspelled([], within: 0..<characters)
            return
        }
        pass.start()
    }

    /// About `sliceWords` words from `start`, cut between words; where the next slice starts.
    private func slice(from start: Int) -> Int? {
        let total = view.characterCount
        let text = view.text(in: start..<min(total, start + Self.sliceWords * 8))
        // The slice starts between words (where the last ended): only its end is cut.
        let cut = SpelledWords.wholeWords(in: text, from: 0, total: total - start)
        var range = (start + cut.lowerBound)..<(start + cut.upperBound)
        // A single word longer than the slice: to its end.
        if range.isEmpty, start < total { range = start..<min(total, start + Self.sliceWords * 8) }
        check(range)
        return range.upperBound < total ? range.upperBound : nil
    }

    /// Checks the whole words within `reach` characters of `offset`.
    private func check(around offset: Int, reach: Int) {
        let total = view.characterCount
        let start = max(0, offset - reach)
        check(SpelledWords.wholeWords(in: view.text(in: start..<min(total, offset + reach)), from: start, total: total))
    }

    /// Underlines the misspelled words of `range` and takes the underline off the rest of it.
    private func check(_ range: Range<Int>) {
        let words = SpelledWords.words(in: view.text(in: range), from: range.lowerBound)
        let wrong = words.filter { session.isMisspelled($0.text) }.map { $0.start..<$0.end }
        view.underlineMisspelled(wrong, within: range)
    }

    /// The word the cursor is in or at the end of, if any.
    private func wordAtCursor() -> SpelledWords.Word? {
        let cursor = view.cursorOffset, total = view.characterCount
        let start = max(0, cursor - Self.keystrokeReach)
        let range = SpelledWords.wholeWords(in: view.text(in: start..<min(total, cursor + Self.keystrokeReach)), from: start, total: total)
        return SpelledWords.words(in: view.text(in: range), from: range.lowerBound).first { $0.start <= cursor && cursor <= $0.end }
    }

    /// The word the menu is about: the one at the cursor when it is misspelled; in a one-line
    /// field, else its first misspelled word.
    private func misspelledWordForMenu() -> SpelledWords.Word? {
        if let word = wordAtCursor(), session.isMisspelled(word.text) { return word }
        guard isOneLine else { return nil }
        let total = view.characterCount
        return SpelledWords.words(in: view.text(in: 0..<total)).first { session.isMisspelled($0.text) }
    }

    /// The context menu's items, for the word at the cursor: made as the menu opens.
    func updateMenu() {
        guard session.isLoaded else {
            menu.show([])
            return
        }
        let checking = ExtraMenu.Item(tr("Check _Spelling"), isChecked: session.isChecked) { [weak self] in self?.toggleChecking() }
        guard session.isChecked else {
            menu.show([[checking]])
            return
        }
        guard session.dictionary != nil else {
            menu.show([[ExtraMenu.Item(tr("No spelling dictionary is installed (such as hunspell-en-us)"), isEnabled: false), checking]])
            return
        }
        var sections: [[ExtraMenu.Item]] = []
        if let word = misspelledWordForMenu() {
            let suggestions = session.suggestions(for: word.text)
            sections.append(suggestions.isEmpty
                ? [ExtraMenu.Item(tr("No suggestions"), isEnabled: false)]
                : suggestions.map { suggestion in
                    ExtraMenu.Item(suggestion) { [weak self] in self?.view.replace(word.start..<word.end, with: suggestion) }
                })
            sections.append([
                ExtraMenu.Item(String(format: tr("_Add “%@” to Dictionary"), word.text)) { [weak self] in self?.add(word.text) },
                ExtraMenu.Item(String(format: tr("_Ignore “%@”"), word.text)) { [weak self] in self?.session.ignore(word.text) },
            ])
        }
        let current = session.dictionary?.language
        let languages = session.installed.map { language in
            ExtraMenu.Item(Self.name(of: language), isChecked: language == current) { [weak self] in self?.choose(language) }
        }
        sections.append([checking, ExtraMenu.Item(tr("_Language"), submenu: languages)])
        menu.show(sections)
    }

    private func add(_ word: String) {
        session.add(word) { [weak self] error in
            self?.alerts.showError(error.errorDescription ?? tr("The word could not be kept in the journal."),
                                   retry: { self?.add(word) })
        }
    }

    private func toggleChecking() { check(spelling: !session.isChecked) }

    private func check(spelling checked: Bool) {
        session.setChecked(checked) { [weak self] error in
            self?.alerts.showError(error.errorDescription ?? tr("The choice could not be kept in the journal."),
                                   retry: { self?.check(spelling: checked) })
        }
    }

    private func choose(_ language: String) {
        session.choose(language) { [weak self] error in
            self?.alerts.showError(error.errorDescription ?? tr("The language could not be kept in the journal."),
                                   retry: { self?.choose(language) })
        }
    }

    /// "French (France)" for "fr_FR", in the person's language; the tag itself when unknown.
    static func name(of language: String) -> String {
        Locale.current.localizedString(forIdentifier: language) ?? language
    }
}
