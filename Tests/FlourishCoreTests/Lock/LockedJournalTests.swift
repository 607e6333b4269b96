@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// A locked journal on disk: every file Flourish writes for it reads as noise, it opens only with
/// its passphrase or recovery key, and a changed page is damage, never a crash.
final class LockedJournalTests: XCTestCase {
    private let folder = TemporaryFolder()
    private lazy var path = folder.file("journal.sqlite")
    static let passphrase = "correct horse battery staple"
    /// What no file of a locked journal may contain.
    static let secrets = ["Lighthouse walk", "salt wind over the harbour", "kitchen-garden", "SQLite format 3"]

    private func entry(_ title: String, body: String, tags: Set<Int64> = []) -> NewEntry {
        try! EntryDraft(title: title, body: body, mood: .reallyGood, tagIDs: tags).validated().get()
    }

    /// A plain journal with entries whose words `secrets` names, and a backup of it.
    private func plainJournal() throws {
        let store = try JournalStore(path: path)
        let tag = try store.createTag(named: "kitchen-garden")
        try store.save(entry("Lighthouse walk", body: String(repeating: "salt wind over the harbour ", count: 400), tags: [tag.id]))
        for day in 0..<300 {
            try store.save(entry("Day \(day)", body: "An ordinary day, number \(day)."), createdAt: Date(timeIntervalSince1970: Double(day) * 86_400))
        }
        try JournalBackups(journal: path).backUpIfDue(from: store)
        store.close()
    }

    /// Every file under the journal's folder, with what it contains that it must not.
    private func plainTextFound() throws -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let name = enumerator?.nextObject() as? String {
            let file = folder.file(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue,
                  let data = FileManager.default.contents(atPath: file) else { continue }
            for secret in Self.secrets where data.range(of: Data(secret.utf8)) != nil { found.append("\(name): \(secret)") }
        }
        return found
    }

    func testLockingLeavesNothingOfTheJournalInTheClearAndItOpensOnlyWithItsKey() throws {
        try plainJournal()
        // A journal Recover… wrote beside it earlier: a copy of the journal Flourish made too.
        let recovered = folder.file("journal-recovered-2026-01-01.sqlite")
        _ = try JournalRescue.recover(from: path, to: recovered)
        XCTAssertFalse(try plainTextFound().isEmpty, "the plain journal and its backup hold the words")
        let locked = try JournalLock.lock(path: path, passphrase: Self.passphrase, cost: .interactive)
        XCTAssertEqual(locked.backupsSealed.count, 2, "the backup and the recovered journal")
        XCTAssertEqual(try plainTextFound(), [])
        let recoveredStore = try JournalStore(path: recovered, cipher: try JournalLock.unlock(path: recovered, secret: Self.passphrase))
        XCTAssertEqual(try recoveredStore.count(), 301, "the recovered journal opens on its own, with its own key file")
        recoveredStore.close()
        XCTAssertTrue(JournalLock.isLocked(path))
        XCTAssertThrowsError(try JournalStore(path: path)) { XCTAssertEqual($0 as? JournalError, .locked(path: self.path)) }
        XCTAssertThrowsError(try JournalLock.unlock(path: path, secret: "wrong horse")) {
            XCTAssertEqual($0 as? JournalError, .wrongPassphrase)
        }

        // Saves after the lock, with the log still open: the log is sealed too.
        let cipher = try JournalLock.unlock(path: path, secret: Self.passphrase)
        let store = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(store.check(), .healthy)
        let tag = try XCTUnwrap(try store.tags().first)
        try store.save(entry("Lighthouse walk", body: "salt wind over the harbour, again", tags: [tag.id]))
        XCTAssertGreaterThan(JournalFile.size(of: path + "-wal"), 0)
        XCTAssertEqual(try plainTextFound(), [], "the log, the index and the backup hold only sealed pages")
        XCTAssertEqual(try store.matches(JournalQuery(text: "harbour")).count, 2, "the search index works sealed")
        XCTAssertEqual(try store.count(), 302)
        store.close()

        // The recovery key opens it in place of the passphrase, typed in any case and spacing.
        let recovery = locked.recoveryKey.lowercased().replacingOccurrences(of: "-", with: " ")
        let byRecovery = try JournalStore(path: path, cipher: try JournalLock.unlock(path: path, secret: recovery))
        XCTAssertEqual(try byRecovery.count(), 302)
        byRecovery.close()
    }

    func testAFlippedByteInAPageIsDamageNeverACrashAndTheFileIsLeftAsItWas() throws {
        try plainJournal()
        let locked = try JournalLock.lock(path: path, passphrase: Self.passphrase, cost: .interactive)
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
        // A byte in the middle of the fourth page's ciphertext.
        bytes[3 * 4096 + 1000] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        let refusedBefore = JournalCipher.refusedPages
        let store = try JournalStore(path: path, cipher: locked.cipher)
        guard case .damaged = store.check() else { return XCTFail("a changed page must read as damage") }
        XCTAssertGreaterThan(JournalCipher.refusedPages, refusedBefore, "the page's tag refused it")
        XCTAssertThrowsError(try store.save(entry("More", body: "text")))
        store.close()
        XCTAssertEqual(FileManager.default.contents(atPath: path), bytes, "a damaged journal is never written")
        XCTAssertFalse(JournalRescue.check(path: path, cipher: locked.cipher).healthy)
    }

    func testAPageMovedToAnotherPlaceIsRefused() throws {
        try plainJournal()
        let locked = try JournalLock.lock(path: path, passphrase: Self.passphrase, cost: .interactive)
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
        // Pages 3 and 4 swapped whole: each is sealed, but under the other's number.
        let third = bytes[2 * 4096..<3 * 4096], fourth = bytes[3 * 4096..<4 * 4096]
        bytes.replaceSubrange(2 * 4096..<4 * 4096, with: fourth + third)
        try bytes.write(to: URL(fileURLWithPath: path))
        let store = try JournalStore(path: path, cipher: locked.cipher)
        guard case .damaged = store.check() else { return XCTFail("a moved page must read as damage") }
        store.close()
    }

    func testLockingAndUnlockingForGoodGivesBackTheSameJournal() throws {
        try plainJournal()
        // Compacting a journal orders its schema afresh: compared with SQLite's own compacted copy.
        let compacted = folder.file("compacted.sqlite")
        try DatabaseQueue(path: path).inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [compacted]) }
        let before = try sqliteDump(compacted)
        XCTAssertTrue(before.contains("Lighthouse walk"))
        let locked = try JournalLock.lock(path: path, passphrase: Self.passphrase, cost: .interactive)
        let unlocked = try JournalLock.removeLock(path: path, cipher: locked.cipher)
        XCTAssertEqual(unlocked.backupsOpened.count, 1)
        XCTAssertFalse(JournalLock.isLocked(path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: JournalLock.keyFile(of: path)))
        XCTAssertEqual(try sqliteDump(path), before)
        XCTAssertTrue(JournalFile.hasSQLiteHeader(path))
    }

    func testChangingThePassphraseKeepsTheKeyAndTheRecoveryKey() throws {
        try plainJournal()
        let locked = try JournalLock.lock(path: path, passphrase: Self.passphrase, cost: .interactive)
        let journalBytes = FileManager.default.contents(atPath: path)
        try JournalLock.changePassphrase(path: path, cipher: locked.cipher, to: "a new passphrase", cost: .interactive)
        XCTAssertEqual(FileManager.default.contents(atPath: path), journalBytes, "only the key file changes")
        XCTAssertThrowsError(try JournalLock.unlock(path: path, secret: Self.passphrase))
        XCTAssertEqual(try JournalLock.unlock(path: path, secret: "a new passphrase").keyID, locked.cipher.keyID)
        XCTAssertEqual(try JournalLock.unlock(path: path, secret: locked.recoveryKey).keyID, locked.cipher.keyID)
        // The backups' copy of the key file follows.
        let backupKey = JournalLock.keyFile(of: JournalLock.backupKeyFileStand(of: path))
        XCTAssertEqual(FileManager.default.contents(atPath: backupKey), FileManager.default.contents(atPath: JournalLock.keyFile(of: path)))
    }

    func testAKeyFileThatWasChangedOpensNothing() throws {
        try plainJournal()
        _ = try JournalLock.lock(path: path, passphrase: Self.passphrase, cost: .interactive)
        let keyFile = JournalLock.keyFile(of: path)
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: keyFile))) as? [String: Any])
        var wrapping = try XCTUnwrap(json["passphrase"] as? [String: Any])
        var sealed = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(wrapping["key"] as? String)))
        sealed[30] ^= 0x80
        wrapping["key"] = sealed.base64EncodedString()
        json["passphrase"] = wrapping
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: keyFile))
        XCTAssertThrowsError(try JournalLock.unlock(path: path, secret: Self.passphrase)) {
            XCTAssertEqual($0 as? JournalError, .wrongPassphrase)
        }
    }
}

/// The journal as SQLite's own shell dumps it: schema and every row, as text.
func sqliteDump(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = ["-readonly", path, ".dump"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)
    return String(decoding: data, as: UTF8.self)
}
