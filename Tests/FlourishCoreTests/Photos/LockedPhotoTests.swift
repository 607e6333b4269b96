@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Photos are exactly as private as the journal: the key that opens them is kept in the journal,
/// sealed with it once it is locked; a locked journal seals new photos with a key it made locked.
/// Locking or unlocking rewrites no photo.
final class LockedPhotoTests: XCTestCase {
    let folder = TemporaryFolder()

    private func entry(_ title: String, photos: [EntryPhoto]) throws -> NewEntry {
        try EntryDraft(title: title, mood: .okay, photos: photos).validated().get()
    }

    private func keys(_ store: JournalStore) throws -> [(id: Int64, key: Data, madeLocked: Bool)] {
        try store.reading { db in
            try Row.fetchAll(db, sql: "SELECT id, key, made_locked FROM photo_key ORDER BY id").map { ($0["id"], $0["key"], $0["made_locked"]) }
        }
    }

    /// Every file under the test's folder, each read whole.
    private func everyFile() throws -> [(String, Data)] {
        let root = folder.path
        return try (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []).compactMap { name in
            let path = (root as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
            return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }

    func testALockedJournalsPhotosOpenOnlyWithItsKeyAndNewOnesGetAKeyMadeLocked() throws {
        let path = folder.file("journal.sqlite")
        var store = try JournalStore(path: path)
        let before = try store.addPhoto(PhotoStoreTests.picture(1), fileName: "before.jpg")
        _ = try store.save(entry("Before the lock", photos: [before]))
        let sealedBefore = try XCTUnwrap(try store.photoFolder.read(before.id))
        try JournalBackups(journal: path).write(from: store, to: (JournalBackups(journal: path).folder as NSString)
            .appendingPathComponent("journal-2026-01-01.sqlite"))
        store.close()

        let locked = try JournalLock.lock(path: path, passphrase: "correct horse battery staple", cost: .interactive)
        store = try JournalStore(path: path, cipher: locked.cipher)
        XCTAssertEqual(try store.photoFolder.read(before.id), sealedBefore, "the lock rewrote no photo")
        XCTAssertEqual(try store.photo(before), PhotoStoreTests.picture(1))

        let after = try store.addPhoto(PhotoStoreTests.picture(2), fileName: "after.jpg")
        _ = try store.save(entry("After the lock", photos: [after]))
        let keys = try keys(store)
        XCTAssertEqual(keys.map(\.madeLocked), [false, true], "a key made while the journal was plain is not used once it is locked")
        XCTAssertEqual(try store.photo(after), PhotoStoreTests.picture(2))
        _ = try store.addPhoto(PhotoStoreTests.picture(3), fileName: "again.jpg")
        XCTAssertEqual(try self.keys(store).count, 2, "the locked key serves every photo after")

        // A stolen disk: the key of what was added while locked is nowhere in the clear, and
        // neither is anything of the photos.
        try JournalBackups(journal: path).write(from: store, to: (JournalBackups(journal: path).folder as NSString)
            .appendingPathComponent("journal-2026-01-02.sqlite"))
        store.close()
        let lockedKey = try XCTUnwrap(keys.last?.key)
        for (file, data) in try everyFile() {
            XCTAssertNil(data.range(of: lockedKey), "\(file) holds the photos' key in the clear")
            XCTAssertNil(data.range(of: Data("FLOURISH-EXIF-MARKER".utf8)), "\(file) shows a photo's EXIF")
        }

        // Its backups, sealed, still name their photos, so upkeep keeps them.
        store = try JournalStore(path: path, cipher: locked.cipher)
        let backups = JournalBackups(journal: path)
        for backup in backups.list() {
            XCTAssertTrue(try JournalBackups.photoNames(inBackup: backup.path, cipher: locked.cipher).contains(before.id))
        }
        XCTAssertThrowsError(try JournalBackups.photoNames(inBackup: backups.list()[0].path, cipher: nil), "sealed")
        store.close()

        // Unlocked again, everything opens as it was.
        _ = try JournalLock.removeLock(path: path, cipher: locked.cipher)
        store = try JournalStore(path: path)
        XCTAssertEqual(try store.photo(before), PhotoStoreTests.picture(1))
        XCTAssertEqual(try store.photo(after), PhotoStoreTests.picture(2))
        XCTAssertEqual(try self.keys(store).map(\.madeLocked), [false, false], "its keys are in the clear now, the locked one too")
        store.close()

        // Locked again: the key made during the first lock was on the disk in the clear since,
        // so new photos get a new one, made now.
        let relocked = try JournalLock.lock(path: path, passphrase: "a second passphrase", cost: .interactive)
        store = try JournalStore(path: path, cipher: relocked.cipher)
        let third = try store.addPhoto(PhotoStoreTests.picture(4), fileName: "third.jpg")
        XCTAssertEqual(try self.keys(store).map(\.madeLocked), [false, false, true])
        XCTAssertNotEqual(try self.keys(store).last?.key, lockedKey)
        XCTAssertEqual(try store.photo(third), PhotoStoreTests.picture(4))
        XCTAssertEqual(try store.photo(after), PhotoStoreTests.picture(2), "older photos open with their own keys")
        store.close()
    }
}
