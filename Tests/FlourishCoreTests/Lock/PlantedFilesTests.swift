@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Someone who can write to a locked journal's folder, without its passphrase, plants files
/// beside it. Nothing they plant may become part of the journal.
final class PlantedFilesTests: XCTestCase {
    private let folder = TemporaryFolder()
    private lazy var path = folder.file("journal.sqlite")
    private lazy var planted = path + "-journal"
    private let passphrase = "a passphrase nobody else knows"

    private func entry(_ title: String) -> NewEntry {
        try! EntryDraft(title: title, body: "Words of \(title).", mood: .okay).validated().get()
    }

    /// The person's locked journal: 60 entries, closed. Returns its key.
    private func lockedJournal() throws -> JournalCipher {
        let store = try JournalStore(path: path)
        for day in 0..<60 {
            try store.save(entry("Day \(day)"), createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(day) * 86_400))
        }
        store.close()
        _ = try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive)
        return try JournalLock.unlock(path: path, secret: passphrase)
    }

    /// What the attacker plants: a hot rollback journal, as SQLite writes one, holding every page
    /// of a Flourish journal of their own made with the same page size and the same 40 reserved
    /// bytes. Played back into the locked journal, its pages would be sealed under the real key.
    private func plantRollbackJournal() throws {
        let made = folder.file("theirs-made.sqlite"), theirs = folder.file("theirs.sqlite")
        let store = try JournalStore(path: made)
        try store.save(entry("Planted"))
        store.close()
        let source = try DatabaseQueue(path: made)
        try source.inDatabase { db in
            try JournalCipher.requestReserve(JournalCipher.reserve, db)
            try db.execute(sql: "VACUUM INTO ?", arguments: [theirs])
        }
        try source.close()
        let pages = try XCTUnwrap(FileManager.default.contents(atPath: theirs))
        let size = 4096, count = pages.count / size
        XCTAssertEqual(pages[20], UInt8(JournalCipher.reserve), "their pages leave the 40 bytes a sealed page needs")
        var journal = Data([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]) // the rollback journal's magic
        let checksumStart: UInt32 = 0x5eed
        for field in [UInt32(count), checksumStart, UInt32(count), 512, UInt32(size)] { journal.append(bigEndian(field)) }
        journal.append(Data(count: 512 - journal.count))
        for page in 0..<count {
            let bytes = pages.subdata(in: page * size..<(page + 1) * size)
            // SQLite's record checksum: the start value plus every 200th byte from the end.
            var checksum = checksumStart
            var index = size - 200
            while index > 0 {
                checksum = checksum &+ UInt32(bytes[index])
                index -= 200
            }
            journal.append(bigEndian(UInt32(page + 1)))
            journal.append(bytes)
            journal.append(bigEndian(checksum))
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: planted, contents: journal))
    }

    private func bigEndian(_ value: UInt32) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }

    private func titles(_ store: JournalStore) throws -> [String] {
        try store.entries(ids: store.entryIDs()).map(\.title)
    }

    /// The encrypting VFS itself, with nothing set aside first: SQLite finds the hot journal and
    /// plays it back, and the VFS refuses to hand it a page.
    func testTheCipherNeverPlaysBackARollbackJournalItDidNotSeal() throws {
        let cipher = try lockedJournal()
        try plantRollbackJournal()
        XCTAssertThrowsError(try {
            let queue = try DatabaseQueue(path: JournalFile.location(path, cipher: cipher), configuration: JournalFile.configuration(cipher))
            defer { try? queue.close() }
            return try queue.write { db in try String.fetchAll(db, sql: "SELECT title FROM entry") }
        }(), "opened for writing, SQLite would have sealed the planted pages into the journal")
        try FileManager.default.removeItem(atPath: planted)
        let store = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(store.check(), .healthy)
        XCTAssertEqual(try titles(store).count, 60)
        XCTAssertFalse(try titles(store).contains("Planted"))
        store.close()
    }

    /// As the window, `--import` and the locked sync open the journal: the planted file is moved
    /// aside unread and kept, the journal is as the person left it and takes saves, and the
    /// person is told, each opening, until they delete it.
    func testARollbackJournalPlantedBesideALockedJournalIsSetAsideUnreadAndSaid() throws {
        let cipher = try lockedJournal()
        try plantRollbackJournal()
        let plantedBytes = try XCTUnwrap(FileManager.default.contents(atPath: planted))

        // --check first: it changes nothing, reads nothing of it, and says it.
        let before = JournalRescue.check(path: path, cipher: cipher)
        XCTAssertFalse(before.healthy)
        XCTAssertTrue(before.lines.contains { $0.contains("journal.sqlite-journal") && $0.contains("never read") }, "\(before.lines)")
        XCTAssertEqual(FileManager.default.contents(atPath: planted), plantedBytes, "--check leaves every file as it was")

        let store = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(store.setAside.count, 1)
        let kept = try XCTUnwrap(store.setAside.first)
        XCTAssertEqual(kept.found, planted)
        XCTAssertFalse(FileManager.default.fileExists(atPath: planted), "out of SQLite's way")
        XCTAssertEqual(FileManager.default.contents(atPath: kept.keptAs), plantedBytes, "kept whole, to be looked at")
        XCTAssertTrue(kept.words.contains(kept.keptAs))
        _ = try store.save(entry("Day 60"))
        XCTAssertEqual(try titles(store).count, 61)
        XCTAssertFalse(try titles(store).contains("Planted"))
        store.close()

        let again = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(again.setAside, [kept], "said again at the next opening")
        again.close()
        let after = JournalRescue.check(path: path, cipher: cipher)
        XCTAssertFalse(after.healthy)
        XCTAssertTrue(after.lines.contains(kept.words), "\(after.lines)")

        try FileManager.default.removeItem(atPath: kept.keptAs)
        XCTAssertTrue(JournalRescue.check(path: path, cipher: cipher).healthy, "deleted, nothing more to say")
        let last = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(last.setAside, [])
        XCTAssertEqual(try titles(last).count, 61)
        last.close()
    }

    /// A journal named without its folder (`--database journal.sqlite`) has its folder looked at
    /// all the same: the one the name is in.
    func testARollbackJournalBesideAJournalNamedWithoutItsFolderIsSetAsideToo() throws {
        let cipher = try lockedJournal()
        try plantRollbackJournal()
        let here = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path))
        defer { FileManager.default.changeCurrentDirectoryPath(here) }
        let store = try JournalStore(path: "journal.sqlite", cipher: cipher)
        defer { store.close() }
        XCTAssertEqual(store.setAside.map(\.found), ["journal.sqlite-journal"])
        let kept = try XCTUnwrap(store.setAside.first)
        XCTAssertTrue(kept.keptAs.hasPrefix("journal.sqlite-journal.set-aside-"), kept.keptAs)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file(kept.keptAs)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: planted))
        XCTAssertFalse(try titles(store).contains("Planted"))
    }

    /// A page of an older copy of the locked journal, sealed by the same key, put back at its
    /// place: it opens (its number is the same), and SQLite's quick check of each page finds
    /// nothing wrong, but the entry's row no longer agrees with the journal's date index. The
    /// health check of a locked journal is SQLite's integrity check, which finds it.
    func testAPageOfAnOlderCopyPutBackIsDamage() throws {
        let cipher = try lockedJournal()
        let older = try XCTUnwrap(FileManager.default.contents(atPath: path))
        let store = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(store.check(), .healthy)
        let id = try XCTUnwrap(store.entryIDs().last)
        let moved = try EntryDraft(title: "Day 0", body: "Words of Day 0.", mood: .okay, date: Date(timeIntervalSince1970: 1_600_000_000)).validated().get()
        _ = try store.update(id: id, with: moved, updatedAt: Date())
        store.close()
        // The page that holds that row, from the older copy, at its place.
        let queue = try DatabaseQueue(path: JournalFile.location(path, cipher: cipher), configuration: JournalFile.configuration(cipher))
        let page = try XCTUnwrap(queue.read { db in
            try Int.fetchOne(db, sql: "SELECT pageno FROM dbstat WHERE name = 'entry' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1")
        })
        try queue.close()
        let size = 4096
        var spliced = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertNotEqual(spliced.subdata(in: (page - 1) * size..<page * size), older.subdata(in: (page - 1) * size..<page * size))
        spliced.replaceSubrange((page - 1) * size..<page * size, with: older.subdata(in: (page - 1) * size..<page * size))
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: spliced))

        let quick = try DatabaseQueue(path: JournalFile.location(path, cipher: cipher), configuration: JournalFile.configuration(cipher))
        XCTAssertEqual(try quick.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }, ["ok"], "each page on its own is whole")
        try quick.close()
        let reopened = try JournalStore(path: path, cipher: cipher)
        guard case .damaged = reopened.check() else { return XCTFail("a page put back from an older copy is damage") }
        reopened.close()
        XCTAssertFalse(JournalRescue.check(path: path, cipher: cipher).healthy, "--check says so too")
    }

    // MARK: - A planted log

    /// What the attacker plants: the write-ahead log of a journal of their own, page size 4096,
    /// holding a save (SQLite's own, whole and valid for that journal).
    private func plantLog() throws {
        let theirs = folder.file("their-log.sqlite")
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let queue = try DatabaseQueue(path: theirs, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE entry (title TEXT)")
            try db.execute(sql: "INSERT INTO entry VALUES ('Planted in the log')")
        }
        try FileManager.default.copyItem(atPath: theirs + "-wal", toPath: path + "-wal")
        try queue.close()
        XCTAssertGreaterThan(JournalFile.size(of: path + "-wal"), 32)
    }

    func testALogPlantedBesideALockedJournalIsSetAsideUnreadAndSaid() throws {
        let cipher = try lockedJournal()
        try plantLog()
        let planted = try XCTUnwrap(FileManager.default.contents(atPath: path + "-wal"))

        let verdict = JournalRescue.check(path: path, cipher: cipher)
        XCTAssertFalse(verdict.healthy, "--check: not as Flourish left it")
        XCTAssertTrue(verdict.lines.contains { $0.contains("(journal.sqlite-wal)") }, "and says which file: \(verdict.lines)")
        XCTAssertEqual(FileManager.default.contents(atPath: path + "-wal"), planted, "--check changes nothing")

        let store = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(store.setAside.map(\.found), [path + "-wal"], "set aside as the journal opens")
        let keptAs = try XCTUnwrap(store.setAside.first?.keptAs)
        XCTAssertEqual(FileManager.default.contents(atPath: keptAs), planted, "kept whole, for the person to look at")
        XCTAssertTrue(store.setAside[0].words.contains("journal.sqlite-wal"))
        XCTAssertEqual(store.check(), .healthy)
        XCTAssertEqual(try store.entryIDs().count, 60, "the journal is its own")
        store.close()
    }

    func testALogInUseIsNeverSetAside() throws {
        let cipher = try lockedJournal()
        try plantLog()
        // Another connection has the journal open (and so its log): SQLite ignores a log it cannot
        // read as the journal's, but one it uses is never moved from under it.
        let other = try DatabaseQueue(path: JournalFile.location(path, cipher: cipher), configuration: JournalFile.configuration(cipher))
        XCTAssertEqual(try other.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") }, 60)
        // A busy machine: the kernel's list of locks runs to pages, the newest first (a lock on
        // each of these files, taken after the other connection's).
        let others = (0..<300).map { number -> Int32 in
            let descriptor = open(folder.file("other-\(number)"), O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            XCTAssertEqual(flock(descriptor, LOCK_EX), 0)
            return descriptor
        }
        defer { others.forEach { close($0) } }
        let store = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(store.setAside, [], "left where it is while another connection has it open")
        store.close()
        try other.close()
        let reopened = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(reopened.setAside.count, 0, "gone with the last connection: SQLite removes a log it could not read as the journal's")
        reopened.close()
    }
}
