import FlourishCore
import FlourishTestSupport
import Foundation
import PropertyBased
import Testing

/// What a locked journal keeps is what a plain one keeps: any text, saved through the encrypting
/// VFS, reads back the same after the journal is closed and opened again with its key.
@Suite struct LockedTextRoundTripTests {
    /// A new journal, locked: every case saves into it and reopens it.
    static func lockedJournal(in folder: TemporaryFolder) throws -> (path: String, cipher: JournalCipher) {
        let path = folder.file("journal.sqlite")
        try JournalStore(path: path).close()
        return (path, try JournalLock.lock(path: path, passphrase: "property passphrase", cost: .interactive).cipher)
    }

    /// Saves through the store, closes it, opens the file again with the key and reads the entry back.
    static func roundTrip(title: String, body: String, path: String, cipher: JournalCipher) throws -> Entry? {
        guard case .success(let entry) = EntryDraft(title: title, body: body, mood: .okay).validated() else { return nil }
        let store = try JournalStore(path: path, cipher: cipher)
        let saved = try store.save(entry, createdAt: Date(timeIntervalSince1970: 0))
        store.close()
        let reopened = try JournalStore(path: path, cipher: cipher)
        defer { reopened.close() }
        return try reopened.entries(ids: [saved.id]).first
    }

    @Test("any text round-trips through a locked journal")
    func anyTextRoundTripsLocked() async throws {
        let folder = TemporaryFolder()
        let (path, cipher) = try Self.lockedJournal(in: folder)
        await propertyCheck(count: 200, input: TextRoundTripTests.anyText, TextRoundTripTests.anyText) { title, body in
            let want = TextRoundTripTests.expected(title: title, body: body)
            guard !want.title.isEmpty || !want.body.isEmpty else { return } // the form refuses no words
            let read = try #require(try Self.roundTrip(title: title, body: body, path: path, cipher: cipher))
            #expect(Array(read.title.utf8) == Array(want.title.utf8))
            #expect(Array(read.body.utf8) == Array(want.body.utf8))
        }
        #expect(JournalLock.isLocked(path), "still sealed after every save")
    }
}
