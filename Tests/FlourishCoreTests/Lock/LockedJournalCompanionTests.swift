@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// What goes with a locked journal: the form's words kept inside it, the one hint kept beside it
/// for the reminder, the keyring's copy of its key, and a store that refuses use once closed.
final class LockedJournalCompanionTests: XCTestCase {
    private let folder = TemporaryFolder()
    private lazy var path = folder.file("journal.sqlite")

    private func lockedStore() throws -> (JournalStore, JournalCipher) {
        let plain = try JournalStore(path: path)
        try plain.save(try EntryDraft(title: "Harbour light", body: "Gulls", mood: .okay).validated().get(),
                       createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        plain.close()
        let locked = try JournalLock.lock(path: path, passphrase: "a long passphrase", cost: .interactive)
        return (try JournalStore(path: path, cipher: locked.cipher), locked.cipher)
    }

    func testTheFormsWordsAreKeptSealedInsideTheJournalAndComeBackOnce() throws {
        let (store, cipher) = try lockedStore()
        let draft = EntryDraft(title: "Half a thought", body: "written before the lock", mood: .meh,
                               date: Date(timeIntervalSince1970: 1_700_100_000), tagIDs: [3, 7])
        try store.keepDraft(draft)
        store.close()
        for file in [path, path + "-wal"] {
            let bytes = FileManager.default.contents(atPath: file) ?? Data()
            XCTAssertNil(bytes.range(of: Data("Half a thought".utf8)), "\(file) holds the kept words in the clear")
        }
        let reopened = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(reopened.keptDraft(), draft)
        // An edit not saved yet is kept beside the form's words, with the entry it is of.
        let edit = EntryDraft(title: "Harbour light, edited", body: "Gulls and terns", mood: .theBest, tagIDs: [2])
        try reopened.keep(KeptDrafts(newEntry: draft, edit: (1, edit)))
        XCTAssertEqual(reopened.keptDrafts(), KeptDrafts(newEntry: draft, edit: (1, edit)))
        try reopened.keep(KeptDrafts(edit: (1, edit)))
        XCTAssertNil(reopened.keptDraft(), "what is kept replaces what was")
        try reopened.forgetKeptDraft()
        XCTAssertTrue(reopened.keptDrafts().isEmpty)
        reopened.close()
    }

    func testOnlyTheNewestEntrysTimeIsKeptBesideALockedJournalAndTheReminderReadsIt() throws {
        let (store, _) = try lockedStore()
        let newest = NewestDay.file(of: path)
        XCTAssertEqual(try String(contentsOfFile: newest, encoding: .utf8), "1700000000.000\n")
        let today = Date()
        try store.save(try EntryDraft(title: "Today", body: "Rain", mood: .okay).validated().get(), createdAt: today)
        let kept = try XCTUnwrap(NewestDay.read(journal: path))
        XCTAssertEqual(kept.timeIntervalSince1970, today.timeIntervalSince1970, accuracy: 0.001)
        XCTAssertEqual(JournalDay.hasEntry(journal: path, on: today, calendar: .current), true)
        XCTAssertEqual(JournalDay.hasEntry(journal: path, on: today.addingTimeInterval(86_400 * 2), calendar: .current), false)
        // Its whole content: one number.
        let text = try String(contentsOfFile: newest, encoding: .utf8)
        XCTAssertNotNil(Double(text.trimmingCharacters(in: .newlines)), "nothing but a time: \(text)")
        store.close()
    }

    /// The hint follows every write the journal commits (a save, a deletion), and none it does not.
    func testTheHintFollowsEachCommittedWriteOnly() throws {
        let (store, _) = try lockedStore()
        let before = Date(timeIntervalSince1970: 1_700_000_000)
        let today = Date()
        let saved = try store.save(try EntryDraft(title: "Today", body: "Rain", mood: .okay).validated().get(), createdAt: today)
        XCTAssertEqual(try XCTUnwrap(NewestDay.read(journal: path)).timeIntervalSince1970, today.timeIntervalSince1970, accuracy: 0.001)
        _ = try store.delete(id: saved.id)
        XCTAssertEqual(NewestDay.read(journal: path), before, "the newest entry gone, the one before it")

        struct Refused: Error {}
        XCTAssertThrowsError(try store.writing { db in
            try db.execute(sql: "UPDATE entry SET created_at = ?", arguments: [today])
            throw Refused()
        })
        XCTAssertEqual(NewestDay.read(journal: path), before, "a write rolled back leaves the hint as it was")
        XCTAssertEqual(try store.reading { db in try Date.fetchAll(db, sql: "SELECT created_at FROM entry") }, [before])
        store.close()
    }

    func testAKeyKeptForTheKeyringOpensOnlyItsOwnJournal() throws {
        let (store, cipher) = try lockedStore()
        store.close()
        let kept = cipher.withExportedKey { $0 }
        XCTAssertEqual(kept, Array(cipher.withKey { Data($0).base64EncodedString() }.utf8),
                       "the text keyrings kept before: base64 of the key")
        XCTAssertEqual(JournalLock.unlock(path: path, keptKey: kept)?.keyID, cipher.keyID)
        let other = try XCTUnwrap(JournalCipher.random())
        XCTAssertNil(JournalLock.unlock(path: path, keptKey: other.withExportedKey { $0 }), "another journal's key is refused")
        XCTAssertNil(JournalLock.unlock(path: path, keptKey: Array("not a key".utf8)))
    }

    func testAClosedStoreRefusesEveryUseInsteadOfReachingAClosedConnection() throws {
        let (store, _) = try lockedStore()
        XCTAssertEqual(try store.count(), 1)
        store.close()
        XCTAssertThrowsError(try store.count()) { XCTAssertEqual($0 as? JournalError, .closed) }
        XCTAssertThrowsError(try store.read(ids: [1])) { XCTAssertEqual($0 as? JournalError, .closed) }
        XCTAssertThrowsError(try store.save(try EntryDraft(title: "late", mood: .okay).validated().get())) {
            XCTAssertEqual($0 as? JournalError, .closed)
        }
        XCTAssertNil(store.dataVersion())
    }

    func testAWipedKeyOpensNothingMoreAndItsHolderLettingGoSparesANewerKey() throws {
        var (store, cipher): (JournalStore?, JournalCipher?) = try lockedStore()
        XCTAssertEqual(try store?.count(), 1)
        cipher?.wipe()
        XCTAssertEqual(try store?.count(), 1, "the open connection keeps its own copy until it closes")
        store?.close()
        store = nil
        XCTAssertThrowsError(try JournalStore(path: path, cipher: cipher), "nothing opens with a wiped key")
        var copy = [UInt8](repeating: 0, count: JournalCipher.keyLength)
        XCTAssertEqual(cipher?.withKey { $0 }, copy, "and nothing reads it")
        copy = []
        let newer = try JournalLock.unlock(path: path, secret: "a long passphrase")
        cipher = nil // the wiped key's holder lets go after a newer key took a slot
        let reopened = try JournalStore(path: path, cipher: newer)
        XCTAssertEqual(try reopened.count(), 1, "the newer key is untouched")
        reopened.close()
    }
}
