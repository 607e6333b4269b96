@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// New Key…, for a passphrase that may have leaked: the journal, its backup, its recovered copy
/// and every photo file are sealed anew under a new key, with a new passphrase and recovery key.
/// Whoever holds the old passphrase, recovery key, key or photo keys (from a copy of the key file
/// and the journal taken before) opens none of them; everything reads back whole with the new
/// ones. Cut short at any step, the next opening with the new passphrase finishes it.
final class NewKeyTests: XCTestCase {
    private let folder = TemporaryFolder()
    private let passphrase = "the passphrase that leaked"
    private let newPassphrase = "a passphrase nobody has seen"

    override func tearDown() {
        JournalLock.afterNewKeyStep = nil
        super.tearDown()
    }

    /// A locked journal in `name`'s folder: three entries, two photos kept while it was plain (one
    /// with a thumbnail) and one while locked (under a key made then), a backup and a recovered copy.
    private struct Locked {
        let path: String
        let backup: String
        let recovered: String
        let cipher: JournalCipher
        let recoveryKey: String
        let photos: [(EntryPhoto, Data)]
        let thumbnail: Data
        let photoKeys: [[UInt8]]
        var files: [String] { [path, backup, recovered] }
    }

    private func lockedJournal(in name: String) throws -> Locked {
        let path = folder.file("\(name)/journal.sqlite")
        try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
        let pictures = [PhotoStoreTests.picture(31), PhotoStoreTests.picture(32), PhotoStoreTests.picture(33)]
        let thumbnail = Data("a small picture of the first photo".utf8)
        var photos: [(EntryPhoto, Data)] = []
        let plain = try JournalStore(path: path)
        for (index, picture) in pictures.prefix(2).enumerated() {
            let photo = try plain.addPhoto(picture, fileName: "photo-\(index).jpg")
            photos.append((photo, picture))
            _ = try plain.save(try EntryDraft(title: "Plain \(index)", body: "Kept before the lock", mood: .reallyGood, photos: [photo]).validated().get())
        }
        try plain.keepThumbnail(thumbnail, of: photos[0].0)
        try JournalBackups(journal: path).backUpIfDue(from: plain)
        plain.close()
        let locked = try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive)
        let store = try JournalStore(path: path, cipher: locked.cipher)
        let photo = try store.addPhoto(pictures[2], fileName: "locked.jpg")
        photos.append((photo, pictures[2]))
        _ = try store.save(try EntryDraft(title: "Locked", body: "Kept while locked", mood: .okay, photos: [photo]).validated().get())
        let photoKeys = try store.reading { db in try Data.fetchAll(db, sql: "SELECT key FROM photo_key ORDER BY id") }.map { Array($0) }
        store.close()
        XCTAssertEqual(photoKeys.count, 2, "one key made plain, one made locked")
        let recovered = folder.file("\(name)/journal-recovered-2026-12-06.sqlite")
        _ = try JournalRescue.recover(from: path, to: recovered, cipher: locked.cipher)
        let backups = try FileManager.default.contentsOfDirectory(atPath: folder.file("\(name)/backups")).filter { $0.hasSuffix(".sqlite") }
        XCTAssertEqual(backups.count, 1)
        return Locked(path: path, backup: folder.file("\(name)/backups/\(backups[0])"), recovered: recovered, cipher: locked.cipher,
                      recoveryKey: locked.recoveryKey, photos: photos, thumbnail: thumbnail, photoKeys: photoKeys)
    }

    /// Every file of the journal's photo folder, photos and thumbnails, with its bytes.
    private func photoFiles(of path: String) throws -> [(name: String, bytes: Data)] {
        let photoFolder = PhotoFolder(journal: path)
        return try FileManager.default.contentsOfDirectory(atPath: photoFolder.path).sorted().map { name in
            (name, try XCTUnwrap(FileManager.default.contents(atPath: photoFolder.file(name))))
        }
    }

    private func titles(_ store: JournalStore) throws -> [String] {
        try store.entries(ids: store.entryIDs()).map(\.title).sorted()
    }

    /// What every New Key… ends with, cut short and finished or not.
    private func checkSealedAnew(_ journal: Locked, under cipher: JournalCipher, file: StaticString = #filePath, line: UInt = #line) throws {
        for sealed in journal.files {
            XCTAssertNil(journal.cipher.format(of: sealed), "the old key opens \(sealed)", file: file, line: line)
            XCTAssertEqual(cipher.format(of: sealed), JournalCipher.format, "the new key opens \(sealed)", file: file, line: line)
        }
        let journalFiles = try photoFiles(of: journal.path)
        XCTAssertEqual(journalFiles.count, 4, "three photos and a thumbnail", file: file, line: line)
        // The recovered journal keeps copies of its photos in a folder of its own.
        let recoveredFiles = try photoFiles(of: journal.recovered)
        XCTAssertEqual(recoveredFiles.count, 4, "the recovered journal's photos and thumbnail", file: file, line: line)
        for (name, bytes) in journalFiles + recoveredFiles {
            for key in journal.photoKeys {
                XCTAssertNil(PhotoSeal.open(bytes, key: key, name: name), "an old photo key opens \(name)", file: file, line: line)
            }
        }
        let keyFile = try String(contentsOfFile: journal.path + ".key", encoding: .utf8)
        XCTAssertFalse(keyFile.contains("pending"), "the old keys are let go", file: file, line: line)
        XCTAssertFalse(JournalLock.isNewKeyPending(journal.path), file: file, line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: JournalLock.keyFile(of: JournalLock.backupKeyFileStand(of: journal.path))),
                       FileManager.default.contents(atPath: journal.path + ".key"), "the backups' copy of the key file too", file: file, line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: journal.recovered + ".key"), FileManager.default.contents(atPath: journal.path + ".key"),
                       "and the recovered copy's", file: file, line: line)

        let store = try JournalStore(path: journal.path, cipher: cipher)
        XCTAssertEqual(store.check(), .healthy, file: file, line: line)
        XCTAssertEqual(try titles(store), ["Locked", "Plain 0", "Plain 1"], file: file, line: line)
        for (photo, picture) in journal.photos {
            XCTAssertEqual(try store.photo(photo), picture, "\(photo.fileName) reads back whole", file: file, line: line)
        }
        XCTAssertEqual(try store.thumbnail(of: journal.photos[0].0), journal.thumbnail, file: file, line: line)
        let newKeys = try store.reading { db in try Data.fetchAll(db, sql: "SELECT key FROM photo_key ORDER BY id") }.map { Array($0) }
        XCTAssertEqual(newKeys.count, journal.photoKeys.count, "the same rows, their keys replaced", file: file, line: line)
        XCTAssertTrue(Set(newKeys.map { Data($0) }).isDisjoint(with: journal.photoKeys.map { Data($0) }), file: file, line: line)
        store.close()
        for copy in [journal.backup, journal.recovered] {
            let opened = try JournalStore(path: copy, cipher: cipher)
            let copyKeys = try opened.reading { db in try Data.fetchAll(db, sql: "SELECT key FROM photo_key ORDER BY id") }.map { Array($0) }
            XCTAssertTrue(Set(copyKeys.map { Data($0) }).isSubset(of: newKeys.map { Data($0) }), "\(copy)'s photo keys are the new ones",
                          file: file, line: line)
            XCTAssertFalse(try titles(opened).isEmpty, file: file, line: line)
            if copy == journal.recovered {
                for (photo, picture) in journal.photos {
                    XCTAssertEqual(try opened.photo(photo), picture, "the recovered \(photo.fileName) reads back whole", file: file, line: line)
                }
            }
            opened.close()
        }
    }

    func testANewKeySealsEverythingAnewAndTheOldSecretsOpenNothing() throws {
        let journal = try lockedJournal(in: "whole")
        let oldKeyFile = try XCTUnwrap(FileManager.default.contents(atPath: journal.path + ".key"))
        let renewed = try JournalLock.newKey(path: journal.path, cipher: journal.cipher, passphrase: newPassphrase, cost: .interactive)
        XCTAssertNil(renewed.unfinished)
        XCTAssertEqual(renewed.finished?.backupsSealed.sorted(), [journal.backup, journal.recovered].sorted())
        XCTAssertEqual(renewed.finished?.backupsRemoved, [])
        XCTAssertEqual(renewed.finished?.photosSealed, 8, "four files in the journal's folder, four in the recovered one's")
        XCTAssertNotEqual(renewed.cipher.keyID, journal.cipher.keyID)
        XCTAssertNotEqual(FileManager.default.contents(atPath: journal.path + ".key"), oldKeyFile)

        for old in [passphrase, journal.recoveryKey] {
            XCTAssertThrowsError(try JournalLock.unlock(path: journal.path, secret: old)) { XCTAssertEqual($0 as? JournalError, .wrongPassphrase) }
        }
        XCTAssertEqual(try JournalLock.unlock(path: journal.path, secret: newPassphrase).keyID, renewed.cipher.keyID)
        XCTAssertEqual(try JournalLock.unlock(path: journal.path, secret: renewed.recoveryKey).keyID, renewed.cipher.keyID)
        try checkSealedAnew(journal, under: renewed.cipher)

        // A photo kept from now on is sealed with one of the new keys, never an old one.
        let store = try JournalStore(path: journal.path, cipher: renewed.cipher)
        let later = try store.addPhoto(PhotoStoreTests.picture(34), fileName: "later.jpg")
        store.close()
        let sealed = try XCTUnwrap(FileManager.default.contents(atPath: PhotoFolder(journal: journal.path).file(later.id)))
        for key in journal.photoKeys { XCTAssertNil(PhotoSeal.open(sealed, key: key, name: later.id)) }
    }

    /// Cut short after each step (the key file written; the journal sealed anew; its copies;
    /// one photo file of four), the old passphrase already opens nothing, `--check` says what is
    /// left, and the next opening with the new passphrase finishes it.
    func testANewKeyCutShortAtEachStepIsFinishedAtTheNextOpening() throws {
        for stop in ["key file", "journal", "backups", "photo"] {
            let journal = try lockedJournal(in: stop.replacingOccurrences(of: " ", with: "-"))
            JournalLock.afterNewKeyStep = { step throws(JournalError) in if step == stop { throw .other(reason: "cut short at \(step)") } }
            let renewed = try JournalLock.newKey(path: journal.path, cipher: journal.cipher, passphrase: newPassphrase, cost: .interactive)
            JournalLock.afterNewKeyStep = nil
            XCTAssertEqual(renewed.unfinished, .other(reason: "cut short at \(stop)"), stop)
            XCTAssertTrue(JournalLock.isNewKeyPending(journal.path), stop)
            let keyFile = try XCTUnwrap(FileManager.default.contents(atPath: journal.path + ".key"))
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: keyFile) as? [String: Any])
            XCTAssertEqual(json["version"] as? Int, 2, "an earlier Flourish refuses it as a newer one's (\(stop))")
            try journal.cipher.withKey { key in
                XCTAssertFalse(String(decoding: keyFile, as: UTF8.self).contains(Data(key).base64EncodedString()), "the old key is sealed in it")
            }
            XCTAssertThrowsError(try JournalLock.unlock(path: journal.path, secret: passphrase), stop)

            let cipher = try JournalLock.unlock(path: journal.path, secret: newPassphrase)
            let verdict = JournalRescue.check(path: journal.path, cipher: cipher)
            XCTAssertTrue(verdict.healthy, "\(stop): \(verdict.lines)")
            XCTAssertTrue(verdict.lines.contains { $0.hasPrefix("New Key… was cut short") }, "\(stop): \(verdict.lines)")

            if stop == "backups" {
                // As `--lock-new-key` run again does it: finished, with a recovery key made anew.
                let done = try JournalLock.finishNewKey(path: journal.path, cipher: cipher)
                XCTAssertEqual(try JournalLock.unlock(path: journal.path, secret: done.recoveryKey).keyID, cipher.keyID)
                XCTAssertThrowsError(try JournalLock.unlock(path: journal.path, secret: renewed.recoveryKey), "the one never shown goes")
            } else {
                // As the window's (or any command's) opening does it, saying so once: the window
                // then shows a recovery key made anew.
                let store = try JournalStore(path: journal.path, cipher: cipher)
                XCTAssertTrue(store.finishedNewKey, stop)
                store.close()
                let again = try JournalStore(path: journal.path, cipher: cipher)
                XCTAssertFalse(again.finishedNewKey, stop)
                again.close()
            }
            try checkSealedAnew(journal, under: cipher)
        }
    }

    /// A New Key… killed as it wrote a photo anew leaves that write's temporary file (a hidden
    /// `.partial` of the photo's name): the opening that finishes it removes it. A photo being
    /// added meanwhile, whose name the folder does not hold yet, keeps its own.
    func testANewKeyKilledAsItWroteAPhotoLeavesNothingHalfWritten() throws {
        let journal = try lockedJournal(in: "killed-photo")
        JournalLock.afterNewKeyStep = { step throws(JournalError) in if step == "photo" { throw .other(reason: "cut short") } }
        _ = try JournalLock.newKey(path: journal.path, cipher: journal.cipher, passphrase: newPassphrase, cost: .interactive)
        JournalLock.afterNewKeyStep = nil
        let folder = PhotoFolder(journal: journal.path)
        let photo = journal.photos[2].0.id
        XCTAssertTrue(folder.exists(photo))
        let cutShort = folder.file(".\(photo).\(UUID().uuidString).partial")
        let beingAdded = folder.file(".\(String(repeating: "ab", count: 16)).\(UUID().uuidString).partial")
        for file in [cutShort, beingAdded] {
            XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("half a sealed photo".utf8)))
        }

        let cipher = try JournalLock.unlock(path: journal.path, secret: newPassphrase)
        let store = try JournalStore(path: journal.path, cipher: cipher)
        XCTAssertTrue(store.finishedNewKey)
        store.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: cutShort), "the rewrite's half-written file is gone")
        XCTAssertTrue(FileManager.default.fileExists(atPath: beingAdded), "another's photo being added is left to finish")
        try FileManager.default.removeItem(atPath: beingAdded)
        try checkSealedAnew(journal, under: cipher)
    }

    /// Turning the lock off (or changing the passphrase, or sealing plain copies) after a New
    /// Key… cut short finishes it first: no copy still sealed under the old key is taken for
    /// unreadable and removed, and no photo is left under a key the key file lets go.
    func testTurningTheLockOffAfterANewKeyCutShortLosesNothing() throws {
        let journal = try lockedJournal(in: "off")
        JournalLock.afterNewKeyStep = { step throws(JournalError) in if step == "journal" { throw .other(reason: "cut short") } }
        _ = try JournalLock.newKey(path: journal.path, cipher: journal.cipher, passphrase: newPassphrase, cost: .interactive)
        JournalLock.afterNewKeyStep = nil
        let cipher = try JournalLock.unlock(path: journal.path, secret: newPassphrase)
        let unlocked = try JournalLock.removeLock(path: journal.path, cipher: cipher)
        XCTAssertEqual(unlocked.backupsRemoved, [])
        XCTAssertEqual(unlocked.backupsOpened.sorted(), [journal.backup, journal.recovered].sorted())
        for copy in journal.files { XCTAssertTrue(JournalFile.hasSQLiteHeader(copy), "\(copy) is plain") }
        let store = try JournalStore(path: journal.path)
        XCTAssertEqual(try titles(store), ["Locked", "Plain 0", "Plain 1"])
        for (photo, picture) in journal.photos { XCTAssertEqual(try store.photo(photo), picture) }
        store.close()
    }

    /// A damaged journal is refused before anything changes: once the new key file is in, only a
    /// journal sealed anew would open, and a damaged one cannot be.
    func testANewKeyRefusesADamagedJournalAndChangesNothing() throws {
        let journal = try lockedJournal(in: "damaged")
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: journal.path))
        try handle.seek(toOffset: UInt64(JournalCipher.pageSize * 3 + 100))
        handle.write(Data([0x42, 0x42, 0x42]))
        try handle.close()
        let keyFile = FileManager.default.contents(atPath: journal.path + ".key")
        XCTAssertThrowsError(try JournalLock.newKey(path: journal.path, cipher: journal.cipher, passphrase: newPassphrase, cost: .interactive)) {
            XCTAssertEqual($0 as? JournalError, .damagedJournal(path: journal.path))
        }
        XCTAssertEqual(FileManager.default.contents(atPath: journal.path + ".key"), keyFile)
        XCTAssertEqual(try JournalLock.unlock(path: journal.path, secret: passphrase).keyID, journal.cipher.keyID)
    }

    func testANewKeyRefusesAJournalOpenElsewhereAndChangesNothing() throws {
        let journal = try lockedJournal(in: "busy")
        let keyFile = FileManager.default.contents(atPath: journal.path + ".key")
        let journalBytes = FileManager.default.contents(atPath: journal.path)
        let elsewhere = try JournalStore(path: journal.path, cipher: journal.cipher)
        _ = try elsewhere.save(try EntryDraft(title: "Open elsewhere", mood: .reallyGood).validated().get())
        XCTAssertThrowsError(try JournalLock.newKey(path: journal.path, cipher: journal.cipher, passphrase: newPassphrase, cost: .interactive)) {
            XCTAssertEqual($0 as? JournalError, .busy)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: journal.path + ".key"), keyFile)
        XCTAssertEqual(FileManager.default.contents(atPath: journal.path), journalBytes)
        elsewhere.close()
        XCTAssertEqual(try JournalLock.unlock(path: journal.path, secret: passphrase).keyID, journal.cipher.keyID)
    }
}
