@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// A key file beside a journal that is not locked: a lock or its removal cut short, or a locked
/// journal someone replaced with a plain file. Never opened in the clear; settled only by the
/// person, with the passphrase.
final class HalfLockedTests: XCTestCase {
    private let folder = TemporaryFolder()
    private lazy var path = folder.file("journal.sqlite")
    private lazy var backup = folder.file("backups/journal-2026-11-19.sqlite")
    private let passphrase = "the passphrase of the key file"

    private func entry(_ title: String) -> NewEntry {
        try! EntryDraft(title: title, mood: .okay).validated().get()
    }

    private func bytes(_ file: String) -> Data? { FileManager.default.contents(atPath: file) }

    /// A plain journal of three entries and a backup of it; returns the plain bytes of both.
    private func plainJournal() throws -> (journal: Data, backup: Data) {
        let store = try JournalStore(path: path)
        for title in ["One", "Two", "Three"] { try store.save(entry(title)) }
        try JournalBackups(journal: path).backUpIfDue(from: store)
        store.close()
        let backups = try FileManager.default.contentsOfDirectory(atPath: folder.file("backups")).filter { $0.hasSuffix(".sqlite") }
        try FileManager.default.moveItem(atPath: folder.file("backups/\(try XCTUnwrap(backups.first))"), toPath: backup)
        return (try XCTUnwrap(bytes(path)), try XCTUnwrap(bytes(backup)))
    }

    private func titles(_ store: JournalStore) throws -> [String] {
        try store.entries(ids: store.entryIDs()).map(\.title).sorted()
    }

    func testAPlainFileInPlaceOfALockedJournalIsNeverOpenedInTheClear() throws {
        let plain = try plainJournal()
        _ = try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive)
        // Someone puts a plain journal in its place and leaves the key file.
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: plain.journal))
        XCTAssertTrue(JournalLock.isHalfLocked(path))
        XCTAssertFalse(JournalLock.isLocked(path))
        XCTAssertThrowsError(try JournalStore(path: path)) { XCTAssertEqual($0 as? JournalError, .halfLocked(path: self.path)) }
        let keyFile = bytes(path + ".key")
        XCTAssertThrowsError(try JournalLock.lock(path: path, passphrase: "someone else's", cost: .interactive),
                             "a new lock is no way to settle it") { XCTAssertEqual($0 as? JournalError, .halfLocked(path: self.path)) }
        XCTAssertEqual(bytes(path + ".key"), keyFile, "and the key file it found stays")
        XCTAssertEqual(bytes(path), plain.journal, "not a byte written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
        let verdict = JournalRescue.check(path: path)
        XCTAssertFalse(verdict.healthy)
        XCTAssertTrue(verdict.lines.contains(JournalError.halfLocked(path: path).errorDescription!), "\(verdict.lines)")

        // Nor when the journal is gone altogether: a new journal is not made in the clear beside it.
        try FileManager.default.removeItem(atPath: path)
        XCTAssertThrowsError(try JournalStore(path: path)) { XCTAssertEqual($0 as? JournalError, .halfLocked(path: self.path)) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    /// `lock` writes the key file, then swaps the sealed journal in, then seals the backups: cut
    /// short after the key file, `--encrypt` finishes it with the key file's passphrase.
    func testALockCutShortIsFinishedUnderTheSameKey() throws {
        let plain = try plainJournal()
        let locked = try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive)
        let keyFile = try XCTUnwrap(bytes(path + ".key"))
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: plain.journal))
        XCTAssertTrue(FileManager.default.createFile(atPath: backup, contents: plain.backup))
        XCTAssertThrowsError(try JournalLock.finishLocking(path: path, cipher: try JournalLock.unlock(path: path, secret: "a wrong passphrase"))) {
            XCTAssertEqual($0 as? JournalError, .wrongPassphrase)
        }

        let done = try JournalLock.finishLocking(path: path, cipher: try JournalLock.unlock(path: path, secret: passphrase))
        XCTAssertEqual(done.backupsSealed, [backup])
        XCTAssertTrue(JournalLock.isLocked(path))
        XCTAssertNotEqual(bytes(path + ".key"), keyFile, "the recovery key is made anew: the cut-short lock never showed its own")
        XCTAssertFalse(JournalFile.hasSQLiteHeader(path))
        XCTAssertFalse(JournalFile.hasSQLiteHeader(backup))
        XCTAssertEqual(try JournalLock.unlock(path: path, secret: passphrase).keyID, done.cipher.keyID, "the same key and passphrase")
        XCTAssertThrowsError(try JournalLock.unlock(path: path, secret: locked.recoveryKey), "the recovery key before it opens nothing")
        let store = try JournalStore(path: path, cipher: try JournalLock.unlock(path: path, secret: done.recoveryKey))
        XCTAssertEqual(try titles(store), ["One", "Three", "Two"])
        store.close()
        let sealedBackup = try JournalStore(path: backup, cipher: try JournalLock.unlock(path: path, secret: passphrase))
        XCTAssertEqual(try titles(sealedBackup), ["One", "Three", "Two"])
        sealedBackup.close()
    }

    /// `removeLock` swaps the plain journal in, then opens the backups, then removes the key
    /// file: cut short after the swap, `--decrypt` finishes it, a backup already plain left as it is.
    func testARemovalCutShortIsFinished() throws {
        _ = try plainJournal()
        _ = try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive)
        let keyFile = try XCTUnwrap(bytes(path + ".key"))
        let sealedBackup = try XCTUnwrap(bytes(backup))
        let cipher = try JournalLock.unlock(path: path, secret: passphrase)
        _ = try JournalLock.removeLock(path: path, cipher: cipher)
        // As it stood before the backups were opened and the key file removed.
        XCTAssertTrue(FileManager.default.createFile(atPath: path + ".key", contents: keyFile))
        XCTAssertTrue(FileManager.default.createFile(atPath: backup, contents: sealedBackup))
        XCTAssertTrue(JournalLock.isHalfLocked(path))

        let done = try JournalLock.finishRemovingLock(path: path, cipher: try JournalLock.unlock(path: path, secret: passphrase))
        XCTAssertEqual(done.backupsOpened, [backup])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".key"))
        XCTAssertFalse(JournalLock.isHalfLocked(path))
        XCTAssertTrue(JournalFile.hasSQLiteHeader(backup))
        let store = try JournalStore(path: path)
        XCTAssertEqual(try titles(store), ["One", "Three", "Two"])
        store.close()
    }

    /// Locking seals the backups before it swaps the journal in: cut short between the two, the
    /// backups are sealed and the journal plain beside its key file. `--encrypt` finishes it and
    /// leaves the sealed backup as it is.
    func testALockCutShortAfterTheBackupsLeavesThemAsTheyAre() throws {
        let plain = try plainJournal()
        _ = try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive)
        let sealedBackup = try XCTUnwrap(bytes(backup))
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: plain.journal))
        let done = try JournalLock.finishLocking(path: path, cipher: try JournalLock.unlock(path: path, secret: passphrase))
        XCTAssertEqual(done.backupsSealed, [backup])
        XCTAssertEqual(bytes(backup), sealedBackup, "sealed already: not written again")
        XCTAssertTrue(JournalLock.isLocked(path))
    }

    /// A plain copy of a locked journal (put back among its backups, or beside it as a recovered
    /// journal) is sealed at the journal's next opening; none is left plain.
    func testPlainCopiesOfALockedJournalAreSealed() throws {
        let plain = try plainJournal()
        _ = try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive)
        let cipher = try JournalLock.unlock(path: path, secret: passphrase)
        XCTAssertEqual(JournalLock.plainCopies(path: path), [])
        XCTAssertEqual(try JournalLock.sealPlainCopies(path: path, cipher: cipher).sealed, [])
        let putBack = folder.file("backups/journal-2026-11-18.sqlite"), recovered = folder.file("journal-recovered-2026-11-18.sqlite")
        for copy in [putBack, recovered] { XCTAssertTrue(FileManager.default.createFile(atPath: copy, contents: plain.backup)) }
        XCTAssertEqual(JournalLock.plainCopies(path: path), [putBack, recovered])
        let done = try JournalLock.sealPlainCopies(path: path, cipher: cipher)
        XCTAssertEqual(done.sealed, [putBack, recovered])
        XCTAssertEqual(JournalLock.plainCopies(path: path), [])
        for copy in [putBack, recovered] {
            XCTAssertNil(bytes(copy)?.range(of: Data("SQLite format 3".utf8)), copy)
            let store = try JournalStore(path: copy, cipher: cipher)
            XCTAssertEqual(try titles(store), ["One", "Three", "Two"])
            store.close()
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: recovered + ".key"), "a recovered journal opens on its own")
    }

    /// A lock that fails (not a crash) after its key file and some backups were written changes
    /// nothing: the backups are plain again, the key files gone, the journal opens as it was.
    func testALockThatFailsBeforeTheSwapChangesNothing() throws {
        let plain = try plainJournal()
        // The backups' copy of the key file cannot be written: a folder is in its place.
        let stand = folder.file("backups/journal.sqlite.key")
        try FileManager.default.createDirectory(atPath: stand, withIntermediateDirectories: false)
        XCTAssertThrowsError(try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive))
        XCTAssertFalse(JournalLock.isHalfLocked(path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".key"))
        XCTAssertEqual(bytes(path), plain.journal)
        XCTAssertTrue(JournalFile.hasSQLiteHeader(backup), "the backup sealed on the way is plain again")
        let store = try JournalStore(path: path)
        XCTAssertEqual(try titles(store), ["One", "Three", "Two"])
        store.close()
        let copy = try JournalStore(path: backup)
        XCTAssertEqual(try titles(copy), ["One", "Three", "Two"])
        copy.close()
    }

    /// Sealing the plain copies of a locked journal judges only the plain ones: a copy sealed by
    /// another key, or one that is not a database at all, is left exactly as it is.
    func testSealingPlainCopiesLeavesEveryOtherCopyAlone() throws {
        _ = try plainJournal()
        _ = try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive)
        let cipher = try JournalLock.unlock(path: path, secret: passphrase)
        // Another journal, locked under its own key, its file put among the backups.
        let other = folder.file("other/journal.sqlite")
        let otherStore = try JournalStore(path: other)
        try otherStore.save(entry("Elsewhere"))
        otherStore.close()
        _ = try JournalLock.lock(path: other, passphrase: "another passphrase", cost: .interactive)
        let foreign = folder.file("backups/journal-2026-11-10.sqlite"), junk = folder.file("backups/journal-2026-11-11.sqlite")
        try FileManager.default.copyItem(atPath: other, toPath: foreign)
        XCTAssertTrue(FileManager.default.createFile(atPath: junk, contents: Data(repeating: 7, count: 5000)))
        let before = [bytes(foreign), bytes(junk)]
        let done = try JournalLock.sealPlainCopies(path: path, cipher: cipher)
        XCTAssertEqual(done.sealed, [])
        XCTAssertEqual(done.removed, [])
        XCTAssertEqual([bytes(foreign), bytes(junk)], before)
    }
}
