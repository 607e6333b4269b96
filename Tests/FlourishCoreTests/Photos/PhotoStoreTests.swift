@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Photos kept by the store: whole, sealed on disk, carried by entries through edits, deletes
/// and Undo, and refused when they are not pictures or not what was kept.
final class PhotoStoreTests: XCTestCase {
    let folder = TemporaryFolder()

    /// The start of a JPEG with an EXIF block naming a text no file written may show, then
    /// `size` bytes that are the photo's own.
    /// `framed` false: as the journals under Tests/Fixtures were given them, before imports
    /// read a picture's size (the EXIF text straight after the first bytes, no frame header).
    static func picture(_ seed: Int, size: Int = 20_000, framed: Bool = true) -> Data {
        var generator = SeededBytes(seed: UInt64(seed))
        if !framed {
            return Data([0xFF, 0xD8, 0xFF, 0xE1]) + Data("Exif\0\0FLOURISH-EXIF-MARKER \(seed)".utf8)
                + Data((0..<size).map { _ in generator.next() })
        }
        // A JPEG's first bytes, an EXIF block, and a frame header saying 640 × 480, as a camera
        // writes them: an import keeps a picture only where its header gives its size.
        let exif = Data("Exif\0\0FLOURISH-EXIF-MARKER \(seed)".utf8)
        let frame = Data([0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        return Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)]) + exif + frame
            + Data((0..<size).map { _ in generator.next() })
    }

    private func entry(_ title: String, photos: [EntryPhoto]?) throws -> NewEntry {
        try EntryDraft(title: title, mood: .reallyGood, photos: photos).validated().get()
    }

    /// Every byte under the journal's folder: the journal, its side files, photos, backups.
    private func everythingWritten() throws -> [(String, Data)] {
        let root = URL(fileURLWithPath: folder.path)
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true } ?? []
        return try files.map { ($0.path, try Data(contentsOf: $0)) }
    }

    func testAPhotoIsKeptByteForByteAndNothingOfItShowsOnDisk() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let bytes = Self.picture(1)
        let photo = try store.addPhoto(bytes, fileName: "IMG_2041.jpg")
        XCTAssertEqual(photo.fileName, "IMG_2041.jpg")
        XCTAssertTrue(PhotoName.isValid(photo.id))
        XCTAssertEqual(try store.photo(photo), bytes, "the original, byte for byte")
        XCTAssertEqual(try store.format(of: photo), .jpeg)
        let file = try XCTUnwrap(try store.photoFolder.read(photo.id))
        XCTAssertEqual(file.count, bytes.count + 4 + 24 + 16, "sealed whole: magic, nonce, tag; never recompressed")
        XCTAssertEqual(try permissions(of: store.photoFolder.file(photo.id)), 0o600)
        XCTAssertEqual(try permissions(of: store.photoFolder.path), 0o700)
        for (path, data) in try everythingWritten() where !path.hasSuffix(".sqlite") {
            XCTAssertNil(data.range(of: Data("FLOURISH-EXIF-MARKER".utf8)), "\(path) shows the EXIF text")
            XCTAssertNil(data.range(of: bytes.dropFirst(40).prefix(64)), "\(path) shows the photo's bytes")
            XCTAssertFalse(data.starts(with: [0xFF, 0xD8, 0xFF]), "\(path) is a JPEG in the clear")
        }
    }

    func testTheSamePictureAddedTwiceIsKeptOnce() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let first = try store.addPhoto(Self.picture(2), fileName: "a.jpg")
        let again = try store.addPhoto(Self.picture(2), fileName: "copy of a.jpg")
        let other = try store.addPhoto(Self.picture(3), fileName: "b.jpg")
        XCTAssertEqual(first.id, again.id)
        XCTAssertNotEqual(first.id, other.id)
        XCTAssertEqual(again.fileName, "copy of a.jpg", "each entry keeps the name it was given")
        XCTAssertEqual(Set(store.photoFolder.names()), [first.id, other.id])
    }

    func testWhatIsNotAPictureIsRefusedWithItsName() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        XCTAssertThrowsError(try store.addPhoto(Data("just some words".utf8), fileName: "notes.jpg")) { error in
            XCTAssertEqual(error as? JournalError, .notAPicture(name: "notes.jpg"))
            XCTAssertTrue((error as? JournalError)?.errorDescription?.contains("notes.jpg") == true)
        }
        XCTAssertEqual(store.photoFolder.names(), [], "nothing kept")
        for (bytes, format) in [(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1]), PhotoFormat.png),
                                (Data("RIFF\0\0\0\0WEBPVP8 ".utf8), .webp), (Data("\0\0\0\u{18}ftypheic\0\0\0\0".utf8), .heic)] {
            XCTAssertEqual(PhotoFormat.of(bytes), format)
        }
        XCTAssertEqual(try store.addPhoto(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1]), fileName: "scan").fileName, "scan.png",
                       "a name without an ending gets its kind's")
    }

    func testAnEntryCarriesItsPhotosInOrderThroughEditsDeleteAndUndo() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        let photos = try (1...3).map { try store.addPhoto(Self.picture(10 + $0), fileName: "IMG_\($0).jpg") }
        let saved = try store.save(entry("Beach day", photos: [photos[2], photos[0], photos[1]]))
        XCTAssertEqual(saved.photos, [photos[2], photos[0], photos[1]], "in the order chosen")

        let unchanged = try store.update(id: saved.id, with: entry("Beach day, edited", photos: nil), updatedAt: Date())
        XCTAssertEqual(unchanged.photos, saved.photos, "an edit that says nothing of photos leaves them")
        let fewer = try store.update(id: saved.id, with: entry("Beach day", photos: [photos[0]]), updatedAt: Date())
        XCTAssertEqual(fewer.photos, [photos[0]])

        let deleted = try store.delete(id: saved.id)
        XCTAssertEqual(try store.reading { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entry_photo") }, 0)
        let back = try store.restore(deleted)
        XCTAssertEqual(back.photos, [photos[0]], "Undo brings the photos back with the entry")
        XCTAssertEqual(try store.entries(ids: [saved.id]).first?.photos, [photos[0]])
        XCTAssertEqual(try store.photo(photos[0]), Self.picture(11))
        store.close()
        let reopened = try JournalStore(path: path)
        XCTAssertEqual(try reopened.entries(ids: [saved.id]).first?.photos, [photos[0]])
    }

    func testAnEntryCannotNameAPhotoTheJournalDoesNotKeep() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let stranger = EntryPhoto(id: String(repeating: "ab", count: 16), fileName: "elsewhere.jpg")
        XCTAssertThrowsError(try store.save(entry("Nothing here", photos: [stranger])))
        XCTAssertEqual(try store.count(), 0, "the save failed whole")
    }

    func testAPhotoChangedCutOrGoneIsRefusedWithItsName() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let photo = try store.addPhoto(Self.picture(4), fileName: "IMG_4.jpg")
        let file = store.photoFolder.file(photo.id)
        var sealed = try Data(contentsOf: URL(fileURLWithPath: file))
        sealed[sealed.count / 2] ^= 0x01
        try sealed.write(to: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try store.photo(photo)) { XCTAssertEqual($0 as? JournalError, .photoDamaged(name: "IMG_4.jpg")) }
        try sealed.prefix(sealed.count / 2).write(to: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try store.photo(photo)) { XCTAssertEqual($0 as? JournalError, .photoDamaged(name: "IMG_4.jpg")) }
        // Another photo's file put in its place.
        let other = try store.addPhoto(Self.picture(5), fileName: "IMG_5.jpg")
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.copyItem(atPath: store.photoFolder.file(other.id), toPath: file)
        XCTAssertThrowsError(try store.photo(photo)) { XCTAssertEqual($0 as? JournalError, .photoDamaged(name: "IMG_4.jpg")) }
        try FileManager.default.removeItem(atPath: file)
        XCTAssertThrowsError(try store.photo(photo)) { XCTAssertEqual($0 as? JournalError, .photoMissing(name: "IMG_4.jpg")) }
    }

    func testAThumbnailIsKeptOnceAndSealed() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let photo = try store.addPhoto(Self.picture(6), fileName: "IMG_6.jpg")
        XCTAssertNil(try store.thumbnail(of: photo), "none made yet")
        let small = Self.picture(60, size: 3_000)
        try store.keepThumbnail(small, of: photo)
        XCTAssertEqual(try store.thumbnail(of: photo), small)
        let thumbnailFile = try Data(contentsOf: URL(fileURLWithPath: store.photoFolder.file(photo.id + ".thumb")))
        XCTAssertNil(thumbnailFile.range(of: Data("FLOURISH-EXIF-MARKER".utf8)))
    }

    func testAKeptDraftKeepsItsPhotos() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let photo = try store.addPhoto(Self.picture(7), fileName: "a/b\nc.jpg")
        XCTAssertEqual(photo.fileName, "b c.jpg", "a name is a name, not a path or two lines")
        let saved = try store.save(entry("Edited later", photos: [photo]))
        let draft = EntryDraft(title: "Half", mood: .meh, photos: [photo])
        let edit = EntryDraft(title: "Edited later", mood: .reallyGood, photos: [])
        try store.keep(KeptDrafts(newEntry: draft, edit: (saved.id, edit)))
        let kept = store.keptDrafts()
        XCTAssertEqual(kept.newEntry?.photos, [photo])
        XCTAssertNil(kept.edit?.draft.photos, "an edit that kept no photos leaves the entry's as they are")
    }

    /// Photos fetched by sync are written first and kept a batch at a time: until kept, none is
    /// under its name or in the journal (a crash then leaves only temporary files, removed
    /// later); a batch one of whose files cannot be flushed is kept not at all.
    func testFetchedPhotosAreOnTheDiskBeforeTheJournalNamesThemAndABrokenBatchIsKeptNotAtAll() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let staged = try (1...3).map { try store.stageFetchedPhoto(Self.picture(200 + $0), place: String(repeating: "\($0)", count: 32)) }
        func rows() throws -> Int { try store.reading { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0 } }
        XCTAssertEqual(store.photoFolder.names(), [], "not under their names yet")
        XCTAssertEqual(try rows(), 0)

        // One of the batch's files gone before it was flushed: nothing of the batch is kept.
        unlink(try XCTUnwrap(staged[1].photo.file).partial)
        XCTAssertThrowsError(try store.keepFetchedPhotos(staged))
        XCTAssertEqual(store.photoFolder.names(), [])
        XCTAssertEqual(try rows(), 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.photoFolder.path), [], "its other files removed")

        let again = try (1...3).map { try store.stageFetchedPhoto(Self.picture(200 + $0), place: String(repeating: "\($0)", count: 32)) }
        try store.keepFetchedPhotos(again)
        XCTAssertEqual(Set(store.photoFolder.names()), Set(again.map(\.photo.name)))
        XCTAssertEqual(try rows(), 3)
        XCTAssertEqual(try store.localPhoto(atPlace: String(repeating: "2", count: 32)), again[1].photo.name)
        XCTAssertEqual(try store.photo(EntryPhoto(id: again[2].photo.name, fileName: "c.jpg")), Self.picture(203))
    }

    private func permissions(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

/// A small, seeded generator: photos' bytes that differ from one seed to the next.
struct SeededBytes {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    mutating func next() -> UInt8 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state >> 32)
    }
}
