@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Backups share the journal's photo files rather than copying them, and photos nothing names
/// any more (no entry, kept draft, earlier version or backup) are let go at start-up.
final class PhotoUpkeepTests: XCTestCase {
    let folder = TemporaryFolder()

    private func day(_ offset: Int) -> Date { Date(timeIntervalSince1970: 1_767_268_800 + Double(offset) * 86_400) }

    private func entry(_ title: String, photos: [EntryPhoto]) throws -> NewEntry {
        try EntryDraft(title: title, mood: .okay, photos: photos).validated().get()
    }

    private func size(of path: String) -> Int64 {
        guard let names = FileManager.default.enumerator(atPath: path) else { return 0 }
        return names.compactMap { $0 as? String }.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: (path as NSString).appendingPathComponent(name))[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    /// Files' times set back, as if written `seconds` ago.
    private func age(_ folder: PhotoFolder, by seconds: TimeInterval) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: folder.file(name))
        }
    }

    func testElevenBackupsOfAJournalWithPhotosKeepEachPhotoOnce() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        let megabyte = 1_000_000
        let photos = try (1...4).map { try store.addPhoto(PhotoStoreTests.picture($0, size: megabyte), fileName: "IMG_\($0).jpg") }
        for (index, photo) in photos.enumerated() { _ = try store.save(entry("Day \(index)", photos: [photo])) }
        let backups = JournalBackups(journal: path)
        for offset in 0..<40 {
            _ = try store.save(entry("Later \(offset)", photos: [photos[offset % 4]]))
            try backups.keepUp(store, now: day(offset))
        }
        XCTAssertEqual(backups.list().count, 11, "seven daily and four weekly")
        let photoBytes = size(of: store.photoFolder.path)
        let backupBytes = size(of: backups.folder)
        print("photos: \(photoBytes) bytes in the photo folder; \(backups.list().count) backups: \(backupBytes) bytes")
        XCTAssertGreaterThan(photoBytes, Int64(4 * megabyte))
        XCTAssertLessThan(photoBytes, Int64(4 * megabyte) + 10_000, "each photo once")
        for backup in backups.list() {
            XCTAssertLessThan(size(of: backup.path), Int64(megabyte), "a backup names the photos; it does not hold them")
        }
        for backup in backups.list() {
            XCTAssertEqual(try JournalBackups.photoNames(inBackup: backup.path, cipher: nil), Set(photos.map(\.id)))
        }
    }

    func testPhotosNothingNamesAreLetGoAndTheRestKept() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        let carried = try store.addPhoto(PhotoStoreTests.picture(1), fileName: "carried.jpg")
        let drafted = try store.addPhoto(PhotoStoreTests.picture(3), fileName: "drafted.jpg")
        let backedUp = try store.addPhoto(PhotoStoreTests.picture(4), fileName: "backed-up.jpg")
        _ = try store.save(entry("Carried", photos: [carried]))
        let gone = try store.save(entry("Deleted after its backup", photos: [backedUp]))
        try store.keepDraft(EntryDraft(title: "Not saved yet", photos: [drafted]))
        let backups = JournalBackups(journal: path)
        try backups.write(from: store, to: (backups.folder as NSString).appendingPathComponent("journal-2026-01-01.sqlite"))
        _ = try store.delete(id: gone.id)
        // Added after the backup, and never saved on an entry.
        let dropped = try store.addPhoto(PhotoStoreTests.picture(2), fileName: "dropped.jpg")
        try store.keepThumbnail(PhotoStoreTests.picture(40, size: 100), of: dropped)
        let photos = store.photoFolder

        // Within the hour, nothing: another Flourish may be about to save an entry naming them.
        XCTAssertEqual(try store.forgetUnusedPhotos(), 0)
        XCTAssertEqual(backups.removeUnusedPhotoFiles(of: store), 0)

        let later = Date().addingTimeInterval(2 * 3_600)
        try age(photos, by: 2 * 3_600)
        XCTAssertEqual(try store.forgetUnusedPhotos(now: later), 2, "the dropped photo and the deleted entry's")
        XCTAssertEqual(backups.removeUnusedPhotoFiles(of: store, now: Date()), 1)
        XCTAssertEqual(Set(photos.names()), [carried.id, drafted.id, backedUp.id], "the backup still names one")
        XCTAssertFalse(photos.exists(dropped.id + ".thumb"), "its thumbnail goes with it")
        XCTAssertEqual(try store.photo(carried), PhotoStoreTests.picture(1))

        // A backup that cannot be read may name any photo: nothing goes.
        try Data("not a journal".utf8).write(to: URL(fileURLWithPath: (backups.folder as NSString).appendingPathComponent("journal-2026-01-02.sqlite")))
        try FileManager.default.removeItem(atPath: (backups.folder as NSString).appendingPathComponent("journal-2026-01-01.sqlite"))
        XCTAssertEqual(backups.removeUnusedPhotoFiles(of: store), 0)
        XCTAssertTrue(photos.exists(backedUp.id))
        try FileManager.default.removeItem(atPath: (backups.folder as NSString).appendingPathComponent("journal-2026-01-02.sqlite"))
        XCTAssertEqual(backups.removeUnusedPhotoFiles(of: store), 1, "no backup names it any more")
        XCTAssertEqual(Set(photos.names()), [carried.id, drafted.id])
    }

    func testAWriteKilledBeforeItsRenameLeavesNothingUnderThePhotosName() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        let photo = try store.addPhoto(PhotoStoreTests.picture(1), fileName: "a.jpg")
        let leftover = store.photoFolder.file(".\(photo.id).1234.partial")
        try Data("half a photo".utf8).write(to: URL(fileURLWithPath: leftover))
        XCTAssertEqual(store.photoFolder.names(), [photo.id], "a half-written file is no photo")
        try age(store.photoFolder, by: 2 * 3_600)
        JournalBackups(journal: path).removeUnusedPhotoFiles(of: store)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover))
        XCTAssertEqual(try store.photo(photo), PhotoStoreTests.picture(1))
    }

    func testTheJournalARestoreSetAsideKeepsItsPhotos() throws {
        let path = folder.file("journal.sqlite")
        var store = try JournalStore(path: path)
        _ = try store.save(entry("Before any photo", photos: []))
        let backups = JournalBackups(journal: path)
        let old = try XCTUnwrap(try backups.backUpIfDue(from: store, now: day(0)))
        let later = try store.addPhoto(PhotoStoreTests.picture(9), fileName: "later.jpg")
        _ = try store.save(entry("With a photo", photos: [later]))
        store.close()
        let setAside = try XCTUnwrap(try JournalRescue.restore(backup: old, to: path))
        XCTAssertTrue(setAside.contains("before-restore"))
        store = try JournalStore(path: path)
        try age(store.photoFolder, by: 2 * 3_600)
        try backups.keepUp(store, now: Date())
        XCTAssertTrue(store.photoFolder.exists(later.id), "the journal set aside by the restore still names it")
        XCTAssertEqual(try JournalBackups.photoNames(inBackup: setAside, cipher: nil), [later.id])
    }

    func testARecoveredJournalKeepsItsEntriesPhotosSharingTheirFiles() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        let photos = try (1...2).map { try store.addPhoto(PhotoStoreTests.picture(20 + $0), fileName: "IMG_\($0).jpg") }
        let saved = try store.save(entry("Two photos", photos: photos))
        store.close()
        let output = folder.file("journal-recovered.sqlite")
        let recovery = try JournalRescue.recover(from: path, to: output)
        XCTAssertEqual(recovery.recovered, 1)
        let recovered = try JournalStore(path: output)
        let entry = try XCTUnwrap(try recovered.entries(ids: [saved.id]).first)
        XCTAssertEqual(entry.photos, photos)
        XCTAssertEqual(try entry.photos.map { try recovered.photo($0) }, [PhotoStoreTests.picture(21), PhotoStoreTests.picture(22)])
        let original = try FileManager.default.attributesOfItem(atPath: PhotoFolder(journal: path).file(photos[0].id))
        let shared = try FileManager.default.attributesOfItem(atPath: recovered.photoFolder.file(photos[0].id))
        XCTAssertEqual(original[.systemFileNumber] as? Int, shared[.systemFileNumber] as? Int, "one file on disk, named in both folders")
    }
}
