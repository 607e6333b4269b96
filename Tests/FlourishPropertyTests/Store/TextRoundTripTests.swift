import FlourishCore
import FlourishTestSupport
import Foundation
import PropertyBased
import Testing

/// Whatever a person types is kept exactly (after the rules of the form: the ends of a title and
/// a body are trimmed, a title is one line, and NUL characters, which no GTK field can hold, are
/// dropped), through the real store and a real file.
@Suite struct TextRoundTripTests {
    /// What the form saves for `title` and `body`: the same rules the form applies, said again
    /// here independently of it.
    static func expected(title: String, body: String) -> (title: String, body: String) {
        let title = String(title.unicodeScalars.filter { $0 != "\0" }.map(Character.init))
        let body = String(body.unicodeScalars.filter { $0 != "\0" }.map(Character.init))
        let oneLine = title.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
        return (oneLine.trimmingCharacters(in: .whitespacesAndNewlines), body.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Saves through the store, closes it, opens the file again and reads the entry back.
    static func roundTrip(title: String, body: String, in folder: TemporaryFolder) throws -> Entry? {
        let path = folder.file("journal-\(UUID().uuidString).sqlite")
        guard case .success(let entry) = EntryDraft(title: title, body: body, mood: .okay).validated() else { return nil }
        let store = try JournalStore(path: path)
        let saved = try store.save(entry, createdAt: Date(timeIntervalSince1970: 0))
        store.close()
        let reopened = try JournalStore(path: path)
        defer { reopened.close() }
        return try reopened.entries(ids: [saved.id]).first
    }

    @Test("awkward text is kept as typed", arguments: [
        ("Emoji 😀👩‍👩‍👧‍👦🏳️‍🌈", "Skin tones 👋🏽 and flags 🇫🇷🇯🇵"),
        ("עברית وعربي", "מימין לשמאל: שלום. بالعربية: مرحبا."),
        ("Combining e\u{301} a\u{300}\u{316}", "Z\u{351}\u{36B}\u{343}a\u{310}l\u{35B}g\u{344}o"),
        ("Control \u{1}\u{7}\u{1B}[31m", "Bell \u{7}, escape \u{1B}, delete \u{7F}, NUL \u{0} inside"),
        ("Line\nbreaks\r\nin a title", "Line\nbreaks\r\nin a body\u{2028}stay"),
        ("Tabs\tin a title", "\tIndented\n\tbody"),
    ])
    func awkwardText(title: String, body: String) throws {
        let folder = TemporaryFolder()
        let read = try #require(try Self.roundTrip(title: title, body: body, in: folder))
        let want = Self.expected(title: title, body: body)
        #expect(Array(read.title.utf8) == Array(want.title.utf8))
        #expect(Array(read.body.utf8) == Array(want.body.utf8))
        let oneLine = !read.title.contains { $0.isNewline }
        #expect(oneLine, "a title is one line")
    }

    @Test("a mebibyte of title and of body is kept byte for byte")
    func aMebibyte() throws {
        let folder = TemporaryFolder()
        let title = String(repeating: "Long title é😀 ", count: 1 << 16)
        let body = String(repeating: "Ein sehr langer Text, ئەمە دەقێکی درێژە. ", count: 1 << 15)
        let read = try #require(try Self.roundTrip(title: title, body: body, in: folder))
        let want = Self.expected(title: title, body: body)
        #expect(read.title.utf8.count >= 1 << 20)
        #expect(read.title == want.title)
        #expect(read.body == want.body)
    }

    /// Any text at all: scalars from every plane (controls, combining marks, right-to-left,
    /// emoji, private use), in any order.
    static let anyText = Gen<Character>.oneOf(
        Gen.character(in: "\u{0}"..."\u{7F}"),
        Gen.character(in: "\u{80}"..."\u{2FFF}"),
        Gen.character(in: "\u{3000}"..."\u{D7FF}"),
        Gen.character(in: "\u{E000}"..."\u{10FFFF}")
    ).string(of: 0...300)

    @Test("any text round-trips through the store")
    func anyTextRoundTrips() async throws {
        let folder = TemporaryFolder()
        await propertyCheck(count: 200, input: Self.anyText, Self.anyText) { title, body in
            let want = Self.expected(title: title, body: body)
            guard !want.title.isEmpty || !want.body.isEmpty else { return } // the form refuses no words
            let read = try #require(try Self.roundTrip(title: title, body: body, in: folder))
            #expect(Array(read.title.utf8) == Array(want.title.utf8))
            #expect(Array(read.body.utf8) == Array(want.body.utf8))
        }
    }
}
