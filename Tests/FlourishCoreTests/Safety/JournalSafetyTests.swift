import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// A file that is not a healthy Flourish journal is never written: not its bytes, not its side
/// files, not its mode. Each test compares every file in the folder, byte for byte and mode,
/// before and after.
final class JournalSafetyTests: XCTestCase {
    let folder = TemporaryFolder()

    private func newEntry(_ title: String) -> NewEntry {
        try! EntryDraft(title: title, mood: .okay).validated().get()
    }

    /// A folder of its own for each file under test, so the snapshot sees only its files.
    private func place(_ name: String) -> String {
        let sub = folder.file(UUID().uuidString)
        try! FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        return (sub as NSString).appendingPathComponent(name)
    }

    private func folderOf(_ path: String) -> String { (path as NSString).deletingLastPathComponent }

    // MARK: - Damaged

    func testADamagedJournalOpensReadOnlyAndIsNeverWritten() throws {
        let path = place("journal.sqlite")
        try DamagedJournals.journal(at: path, count: 300)
        try DamagedJournals.zeroMiddleLeafPage(of: path)
        chmod(path, 0o644)
        let before = try DamagedJournals.snapshot(of: folderOf(path))

        let store = try JournalStore(path: path)
        guard case .damaged(let report) = store.check() else { return XCTFail("the check did not find the damage") }
        XCTAssertFalse(report.isEmpty)
        XCTAssertThrowsError(try store.save(newEntry("into the damage"), createdAt: Date())) { error in
            XCTAssertEqual(error as? JournalError, .damagedJournal(path: path))
            XCTAssertTrue((error as? JournalError)?.errorDescription?.contains(path) ?? false, "the message names the file")
        }
        // What can be read still is.
        let ids = try store.entryIDs()
        XCTAssertEqual(ids.count, 300, "the ids come from the date index, which is whole")
        let batch = try store.read(ids: ids)
        XCTAssertGreaterThan(batch.entries.count, 200, "every entry off the damaged page reads")
        XCTAssertFalse(batch.unreadable.isEmpty)
        XCTAssertEqual(batch.entries.count + batch.unreadable.count, 300)
        XCTAssertEqual(Set(batch.unreadable.map(\.reason)), ["It is in a damaged part of the journal file."])
        store.close()
        XCTAssertEqual(try DamagedJournals.snapshot(of: folderOf(path)), before, "bytes, side files and mode as they were")
    }

    func testAHealthyJournalPassesTheCheckAndTakesSaves() throws {
        let path = place("journal.sqlite")
        try DamagedJournals.journal(at: path, count: 30)
        let store = try JournalStore(path: path)
        XCTAssertEqual(store.check(), .healthy)
        XCTAssertEqual(try store.save(newEntry("after the check"), createdAt: Date()).title, "after the check")
        XCTAssertEqual(try store.count(), 31)
    }

    func testASaveBeforeTheCheckRunsItFirst() throws {
        let path = place("journal.sqlite")
        try DamagedJournals.journal(at: path, count: 30)
        let store = try JournalStore(path: path)
        XCTAssertNil(store.checkedHealth)
        _ = try store.save(newEntry("first write"), createdAt: Date())
        XCTAssertEqual(store.checkedHealth, .healthy)
    }

    // MARK: - Not ours

    func testAnotherProgramsDatabaseWithAPendingWALIsLeftExactlyAsItWas() throws {
        let source = place("other.sqlite")
        let other = try DatabaseQueue(path: source)
        try other.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        try other.write { db in
            try db.execute(sql: "CREATE TABLE contacts (name TEXT)")
            try db.execute(sql: "INSERT INTO contacts VALUES ('Ada'), ('Grace')")
        }
        // Copied while the program has it open: the -wal holds its tables, not yet merged.
        let path = place("other.sqlite")
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: source + suffix, toPath: path + suffix) }
        try other.close()
        XCTAssertGreaterThan(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int), 0)
        let before = try DamagedJournals.snapshot(of: folderOf(path))

        XCTAssertThrowsError(try JournalStore(path: path)) { error in
            XCTAssertEqual(error as? JournalError, .notAJournal(path: path))
        }
        XCTAssertEqual(try DamagedJournals.snapshot(of: folderOf(path)), before)
    }

    func testAnotherProgramsDatabaseWithAHotJournalIsLeftExactlyAsItWas() throws {
        let source = place("other.sqlite")
        let other = try DatabaseQueue(path: source)
        try other.write { db in
            try db.execute(sql: "CREATE TABLE notes (body TEXT)")
            for index in 0..<200 { try db.execute(sql: "INSERT INTO notes VALUES (?)", arguments: [String(repeating: "n\(index)", count: 300)]) }
        }
        // Mid-transaction, with a tiny cache so changed pages reach the file: a copy taken now
        // has a hot rollback journal that SQLite would roll back on opening.
        let path = place("other.sqlite")
        try other.inDatabase { db in
            try db.execute(sql: "PRAGMA cache_size = 1")
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "UPDATE notes SET body = 'changed'")
            for suffix in ["", "-journal"] { try FileManager.default.copyItem(atPath: source + suffix, toPath: path + suffix) }
            try db.execute(sql: "ROLLBACK")
        }
        try other.close()
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-journal"))
        let before = try DamagedJournals.snapshot(of: folderOf(path))

        XCTAssertThrowsError(try JournalStore(path: path)) { error in
            XCTAssertEqual(error as? JournalError, .notAJournal(path: path))
        }
        XCTAssertEqual(try DamagedJournals.snapshot(of: folderOf(path)), before)
    }

    func testNewerAndForeignAndNonDatabaseFilesKeepEveryByte() throws {
        let newer = place("journal.sqlite")
        try JournalStore(path: newer).close()
        let queue = try DatabaseQueue(path: newer)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')") }
        try queue.close()
        let notes = place("notes.txt")
        try Data("not a journal\n".utf8).write(to: URL(fileURLWithPath: notes))
        chmod(notes, 0o644)
        for (path, expected) in [(newer, JournalError.newerVersion(path: newer)), (notes, .damaged(path: notes))] {
            let before = try DamagedJournals.snapshot(of: folderOf(path))
            XCTAssertThrowsError(try JournalStore(path: path)) { error in XCTAssertEqual(error as? JournalError, expected) }
            XCTAssertEqual(try DamagedJournals.snapshot(of: folderOf(path)), before, path)
        }
    }

    // MARK: - Ours, after a crash

    func testOurJournalWithSavesStillInTheWALOpensWithThem() throws {
        let source = place("journal.sqlite")
        let store = try JournalStore(path: source)
        let saved = try (0..<5).map { try store.save(newEntry("kept \($0)"), createdAt: Date(timeIntervalSince1970: Double($0))) }
        // A copy while the store is open: as a SIGKILL leaves it, the saves only in the -wal.
        let path = place("journal.sqlite")
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: source + suffix, toPath: path + suffix) }
        store.close()
        let reopened = try JournalStore(path: path)
        XCTAssertEqual(try reopened.entries(ids: try reopened.entryIDs()).sorted { $0.id < $1.id }, saved)
        XCTAssertEqual(reopened.check(), .healthy)
        _ = try reopened.save(newEntry("after the crash"), createdAt: Date())
        XCTAssertEqual(try reopened.count(), 6)
    }

    func testAJournalWhoseMakingWasCutShortIsMadeAgain() throws {
        // What a kill leaves between GRDB creating its bookkeeping table and the first migration.
        let path = place("journal.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        try queue.close()
        let store = try JournalStore(path: path)
        XCTAssertEqual(try store.save(newEntry("first"), createdAt: Date()).title, "first")
    }

    // MARK: - Private

    func testAnEmptyFileAndADanglingLinkBecomePrivateJournalsFromTheFirstByte() throws {
        let empty = place("journal.sqlite")
        FileManager.default.createFile(atPath: empty, contents: Data())
        chmod(empty, 0o644)
        let link = place("link.sqlite")
        let target = folderOf(link) + "/target.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.sqlite")
        for (path, file) in [(empty, empty), (link, target)] {
            let store = try JournalStore(path: path)
            _ = try store.save(newEntry("private"), createdAt: Date())
            for suffix in ["", "-wal", "-shm"] {
                XCTAssertEqual(try permissions(of: file + suffix), 0o600, file + suffix)
            }
            XCTAssertEqual(try store.count(), 1)
        }
    }
}
