import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

final class JournalStoreTests: XCTestCase {
    private let folder = TemporaryFolder()

    private func entry(_ title: String, _ mood: Mood = .okay, body: String = "") -> NewEntry {
        try! EntryDraft(title: title, body: body, mood: mood).validated().get()
    }

    func testSavedEntriesRoundTripThroughAFileOnDisk() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        let created = Date(timeIntervalSince1970: 1_790_000_000.25)
        let saved = try store.save(entry("Walk", .reallyGood, body: "Sun, wind and the sea."), createdAt: created)
        XCTAssertGreaterThan(saved.id, 0)

        // A second, independent connection sees exactly what was saved.
        let reopened = try JournalStore(path: path)
        let loaded = try XCTUnwrap(reopened.entries(ids: [saved.id]).first)
        XCTAssertEqual(loaded.title, "Walk")
        XCTAssertEqual(loaded.body, "Sun, wind and the sea.")
        XCTAssertEqual(loaded.mood, .reallyGood)
        XCTAssertEqual(loaded.createdAt.timeIntervalSince1970, created.timeIntervalSince1970, accuracy: 0.001)
        XCTAssertNil(loaded.location)
    }

    func testIdsComeNewestFirst() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let old = try store.save(entry("old"), createdAt: Date(timeIntervalSince1970: 1_000))
        let new = try store.save(entry("new"), createdAt: Date(timeIntervalSince1970: 3_000))
        let middle = try store.save(entry("middle"), createdAt: Date(timeIntervalSince1970: 2_000))
        XCTAssertEqual(try store.entryIDs(), [new.id, middle.id, old.id])
        XCTAssertEqual(try store.count(), 3)
    }

    func testLocationColumnsRoundTrip() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let draft = EntryDraft(title: "Berlin", mood: .okay, location: Location(latitude: 52.52, longitude: 13.405, accuracy: 50))
        let saved = try store.save(try draft.validated().get(), createdAt: Date())
        XCTAssertEqual(try store.entries(ids: [saved.id]).first?.location,
                       Location(latitude: 52.52, longitude: 13.405, accuracy: 50))
    }

    func testDocumentedSchemaForPeopleWhoQueryTheirData() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        _ = try store.save(entry("Walk", .meh, body: "b"), createdAt: Date(timeIntervalSince1970: 0))
        let queue = try DatabaseQueue(path: path)
        let columns = try queue.read { db in try db.columns(in: "entry").map(\.name) }
        XCTAssertEqual(columns, ["id", "title", "body", "mood", "created_at", "latitude", "longitude", "accuracy",
                                 "uuid", "updated_at"])
        let row = try queue.read { db in try Row.fetchOne(db, sql: "SELECT title, body, mood, created_at FROM entry") }
        XCTAssertEqual(row?["title"], "Walk")
        XCTAssertEqual(row?["mood"], 3)
        XCTAssertEqual(row?["created_at"], "1970-01-01 00:00:00.000")
    }

    func testTheSchemaRefusesMoodsOffTheScale() throws {
        let path = folder.file("journal.sqlite")
        _ = try JournalStore(path: path)
        let queue = try DatabaseQueue(path: path)
        XCTAssertThrowsError(try queue.write { db in
            try db.execute(sql: "INSERT INTO entry (title, body, mood, created_at) VALUES ('x', '', 6, '2026-01-01')")
        })
    }

    func testJournalIsDurableWalWithFullSync() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        XCTAssertEqual(try store.pragma("journal_mode"), "wal")
        XCTAssertEqual(try store.pragma("synchronous"), "2") // FULL
    }

    func testFolderAndFileArePrivate() throws {
        let path = folder.file("data/flourish/journal.sqlite")
        let store = try JournalStore(path: path)
        _ = try store.save(entry("private"), createdAt: Date())
        XCTAssertEqual(try permissions(of: folder.file("data/flourish")), 0o700)
        XCTAssertEqual(try permissions(of: path), 0o600)
        XCTAssertEqual(try permissions(of: path + "-wal"), 0o600)
    }

    func testAnExistingWorldReadableJournalIsMadePrivateBeforeItsFirstWrite() throws {
        let path = folder.file("journal.sqlite")
        try JournalStore(path: path).close()
        chmod(path, 0o644)
        let store = try JournalStore(path: path)
        XCTAssertEqual(try permissions(of: path), 0o644, "only read so far, and not yet checked")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"), "reading makes no side files")
        _ = try store.save(entry("private"), createdAt: Date())
        XCTAssertEqual(try permissions(of: path), 0o600)
        XCTAssertEqual(try permissions(of: path + "-wal"), 0o600)
        XCTAssertEqual(try permissions(of: path + "-shm"), 0o600)
    }

    func testADamagedFileIsRefusedAndLeftUntouched() throws {
        let path = folder.file("journal.sqlite")
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try JournalStore(path: path)) { error in
            XCTAssertEqual(error as? JournalError, .damaged(path: path))
            XCTAssertTrue((error as? JournalError)?.errorDescription?.contains("left it untouched") ?? false)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), garbage)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    func testAnotherProgramsDatabaseIsRefusedAndLeftUntouched() throws {
        let path = folder.file("other.sqlite")
        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "CREATE TABLE contacts (name TEXT)") }
        try other.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try JournalStore(path: path)) { error in
            XCTAssertEqual(error as? JournalError, .notAJournal(path: path))
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testARefusedFileKeepsItsMode() throws {
        let path = folder.file("notes.txt")
        try Data("not a journal, just notes\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        XCTAssertThrowsError(try JournalStore(path: path))
        XCTAssertEqual(try permissions(of: path), 0o644)
    }

    func testAFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let path = folder.file("pipe")
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertThrowsError(try JournalStore(path: path)) { error in
            XCTAssertEqual(error as? JournalError, .notAFile(path: path))
        }
    }

    func testAFolderIsCalledAFolder() throws {
        XCTAssertThrowsError(try JournalStore(path: folder.path)) { error in
            XCTAssertEqual(error as? JournalError, .isFolder(path: folder.path))
            XCTAssertTrue((error as? JournalError)?.errorDescription?.contains("is a folder") ?? false)
        }
    }

    func testADatabaseWithoutFlourishsFirstMigrationIsNotAJournal() throws {
        // Another GRDB program's database: it has grdb_migrations, but not Flourish's.
        let path = folder.file("other-grdb.sqlite")
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            try db.execute(sql: "CREATE TABLE player (name TEXT)")
        }
        try other.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try JournalStore(path: path)) { error in
            XCTAssertEqual(error as? JournalError, .notAJournal(path: path))
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testAJournalFromANewerFlourishIsRefused() throws {
        let path = folder.file("journal.sqlite")
        _ = try JournalStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')") }
        try queue.close()
        XCTAssertThrowsError(try JournalStore(path: path)) { error in
            XCTAssertEqual(error as? JournalError, .newerVersion(path: path))
        }
    }

    func testAJournalPathThroughAFileIsAClearError() throws {
        // A path whose "folder" is a regular file cannot be created, even by root.
        let blocker = folder.file("not-a-folder")
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        XCTAssertThrowsError(try JournalStore(path: blocker + "/flourish/journal.sqlite")) { error in
            guard case .cannotCreateFolder(let path, _)? = error as? JournalError else {
                return XCTFail("expected cannotCreateFolder, got \(error)")
            }
            XCTAssertEqual(path, blocker + "/flourish")
        }
    }

    func testDefaultLocationFollowsXDG() {
        XCTAssertEqual(JournalLocation.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]),
                       "/data/flourish/journal.sqlite")
        XCTAssertEqual(JournalLocation.defaultPath(environment: ["HOME": "/home/a"]),
                       "/home/a/.local/share/flourish/journal.sqlite")
        // The XDG specification: a relative XDG_DATA_HOME is invalid and ignored.
        XCTAssertEqual(JournalLocation.defaultPath(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/a"]),
                       "/home/a/.local/share/flourish/journal.sqlite")
    }

    func testSQLiteErrorsAreWordedForPeople() {
        XCTAssertEqual(JournalError.diskFull.errorDescription,
                       "There is no space left on the disk, so the entry was not saved. Free some space and try again.")
        XCTAssertTrue(JournalError.readOnly(path: "/j").errorDescription!.contains("read-only"))
    }
}
