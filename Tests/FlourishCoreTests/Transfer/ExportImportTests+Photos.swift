@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest
import ZIPFoundation

/// Photos through export and import: the ZIP export holds journal.json and every photo's
/// original, and imported into a fresh journal gives back every entry and photo byte for byte
/// (a second import adds nothing), a locked journal too, with no photo in the clear anywhere
/// but the export; JSON names the photos and says they are not in it; Markdown writes them
/// beside its text.
extension ExportImportTests {
    static func png(_ seed: Int) -> Data {
        var generator = SeededBytes(seed: UInt64(seed))
        // The signature, then its header chunk saying 320 × 240 (an import reads the size there).
        let header: [UInt8] = [0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0x40, 0, 0, 0, 0xF0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + header) + Data((0..<5_000).map { _ in generator.next() })
    }

    /// Three entries: the first with two photos of one file name (different pictures) and a
    /// PNG, the second with the first photo again under another name, the third with none.
    private func journalWithPhotos(_ store: JournalStore) throws -> (pictures: [Data], photos: [EntryPhoto]) {
        let pictures = [PhotoStoreTests.picture(11), PhotoStoreTests.picture(12), Self.png(13)]
        let first = try store.addPhoto(pictures[0], fileName: "IMG_2041.jpg")
        let second = try store.addPhoto(pictures[1], fileName: "IMG_2041.jpg")
        let third = try store.addPhoto(pictures[2], fileName: "Screenshot [1].png")
        let base = Date(timeIntervalSince1970: 1_763_000_000.25)
        _ = try store.save(try EntryDraft(title: "Beach", body: "Waves", mood: .theBest, photos: [first, second, third]).validated().get(),
                           createdAt: base)
        _ = try store.save(try EntryDraft(title: "Again", body: "", mood: .okay,
                                          photos: [EntryPhoto(id: first.id, fileName: "holiday.jpg")]).validated().get(),
                           createdAt: base.addingTimeInterval(86_400))
        _ = try store.save(try EntryDraft(title: "Words only", body: "No photo", mood: .meh).validated().get(), createdAt: base.addingTimeInterval(90_000))
        return (pictures, [first, second, third])
    }

    /// Every entry as compared across journals: its fields, and each photo's name and bytes.
    private func everything(_ store: JournalStore) throws -> [[String]] {
        try store.entries(ids: try store.entryIDs()).map { entry in
            [entry.uuid, entry.title, entry.body, "\(entry.mood)", "\(entry.createdAt.timeIntervalSince1970)"]
                + (try entry.photos.map { "\($0.fileName): \(try store.photo($0).base64EncodedString())" })
        }
    }

    private func members(of path: String) throws -> [String: Data] {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        var members: [String: Data] = [:]
        for entry in archive {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            members[entry.path] = data
        }
        return members
    }

    func testAZIPExportImportedIntoAFreshJournalGivesBackEveryEntryAndPhotoByteForByte() throws {
        let store = try JournalStore(path: folder.file("from.sqlite"))
        let (pictures, photos) = try journalWithPhotos(store)
        let path = folder.file("journal.zip")
        let result = try store.export(.zip, to: path)
        XCTAssertEqual(result.entries, 3)
        XCTAssertEqual(result.files, [path])
        XCTAssertEqual(result.photos, 3, "the shared photo counted once")
        XCTAssertTrue(result.photosIncluded)
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "readable by its owner only")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }, [], "no partial file is left")

        let renamed = "\(photos[1].id.prefix(8))-IMG_2041.jpg"
        let members = try members(of: path)
        XCTAssertEqual(Set(members.keys), ["journal.json", "photos/IMG_2041.jpg", "photos/\(renamed)", "photos/Screenshot [1].png"])
        XCTAssertEqual(members["photos/IMG_2041.jpg"], pictures[0], "each original, byte for byte")
        XCTAssertEqual(members["photos/\(renamed)"], pictures[1], "the second of one name has part of its id before it")
        XCTAssertEqual(members["photos/Screenshot [1].png"], pictures[2])
        let document = try JSONDecoder().decode(ExportDocument.self, from: try XCTUnwrap(members["journal.json"]))
        XCTAssertEqual(document.photosNote, ExportDocument.photosBeside)
        XCTAssertEqual(document.entries.map { $0.photos?.map(\.file) ?? [] },
                       [["photos/IMG_2041.jpg", "photos/\(renamed)", "photos/Screenshot [1].png"], ["photos/IMG_2041.jpg"], []])
        XCTAssertEqual(document.entries[1].photos?.map(\.name), ["holiday.jpg"], "the name the entry gives it")

        guard case .flourish(let entries, let tags, _, _) = try ImportFile.read(path: path) else { return XCTFail("read as a Flourish export") }
        XCTAssertEqual(entries.map { $0.photos.map(\.fileName) }, [["IMG_2041.jpg", "IMG_2041.jpg", "Screenshot [1].png"], ["holiday.jpg"], []])
        let fresh = try JournalStore(path: folder.file("to.sqlite"))
        XCTAssertEqual(try fresh.importSummary(entries).photos, 3)
        let receipt = try fresh.importEntries(entries, tags: tags)
        XCTAssertEqual(receipt.entryIDs.count, 3)
        XCTAssertEqual(receipt.photos, 3)
        XCTAssertEqual(try everything(fresh), try everything(store), "every entry and photo, byte for byte, in order")
        XCTAssertEqual(fresh.photoFolder.names().count, 3, "the shared photo kept once")

        guard case .flourish(let again, _, _, _) = try ImportFile.read(path: path) else { return XCTFail() }
        XCTAssertEqual(try fresh.importSummary(again), ImportSummary(entries: 3, already: 3, tags: 0, newTags: 0, photos: 0))
        let second = try fresh.importEntries(again, tags: tags)
        XCTAssertEqual(second.entryIDs, [], "a second import adds nothing")
        XCTAssertEqual(second.photos, 0)
        XCTAssertEqual(fresh.photoFolder.names().count, 3)
        XCTAssertEqual(try fresh.count(), 3)

        // Cancelled after its first photo: no ZIP file, whole or partial, and no JSON text left.
        let cancelled = folder.file("cancelled.zip")
        var calls = 0
        XCTAssertThrowsError(try store.export(.zip, to: cancelled, progress: { _, _ in
            calls += 1
            return calls < 2
        })) { error in
            XCTAssertEqual(error as? ExportFailure, .cancelled)
        }
        XCTAssertEqual(calls, 2, "asked again after the first photo")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cancelled))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }, [])
    }

    func testALockedJournalExportsAndImportsItsPhotosAndNoPhotoIsInTheClearOutsideTheExport() throws {
        var store = try JournalStore(path: folder.file("locked.sqlite"))
        store.close()
        store = try JournalStore(path: folder.file("locked.sqlite"),
                                 cipher: try JournalLock.lock(path: folder.file("locked.sqlite"), passphrase: "a passphrase here", cost: .interactive).cipher)
        let (pictures, _) = try journalWithPhotos(store)
        let exports = folder.file("exports")
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        let zip = (exports as NSString).appendingPathComponent("journal.zip")
        XCTAssertEqual(try store.export(.zip, to: zip).photos, 3)
        let markdown = (exports as NSString).appendingPathComponent("journal.md")
        XCTAssertEqual(try store.export(.markdown, to: markdown).photos, 3)

        try JournalStore(path: folder.file("other.sqlite")).close()
        let other = try JournalStore(path: folder.file("other.sqlite"),
                                     cipher: try JournalLock.lock(path: folder.file("other.sqlite"), passphrase: "another passphrase", cost: .interactive).cipher)
        guard case .flourish(let entries, let tags, _, _) = try ImportFile.read(path: zip) else { return XCTFail() }
        XCTAssertEqual(try other.importEntries(entries, tags: tags).photos, 3)
        XCTAssertEqual(try everything(other), try everything(store))

        let root = URL(fileURLWithPath: folder.path)
        let files = (FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            .filter { !$0.path.hasPrefix(exports) && (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        XCTAssertGreaterThan(files.count, 6, "the journals, their key files and sealed photos")
        for file in files {
            let data = try Data(contentsOf: file)
            for picture in pictures {
                XCTAssertNil(data.range(of: picture.dropFirst(40).prefix(64)), "\(file.path) holds a photo in the clear")
            }
        }
    }

    func testJSONNamesThePhotosAndSaysTheyAreNotInIt() throws {
        let store = try JournalStore(path: folder.file("json.sqlite"))
        _ = try journalWithPhotos(store)
        let path = folder.file("journal.json")
        let result = try store.export(.json, to: path)
        XCTAssertEqual(result.photos, 3)
        XCTAssertFalse(result.photosIncluded)
        let document = try JSONDecoder().decode(ExportDocument.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(document.photosNote, ExportDocument.photosNotIncluded)
        XCTAssertTrue(document.photosNote?.contains("--export zip") ?? false)
        XCTAssertEqual(document.entries.first?.photos?.map(\.name), ["IMG_2041.jpg", "IMG_2041.jpg", "Screenshot [1].png"])
        XCTAssertNil(document.entries.last?.photos, "no photos, no field")

        // Imported, its entries come without the photos it does not hold, and the preview says so.
        let file = try ImportFile.read(path: path)
        XCTAssertEqual(file.remarks, "3 photos are left behind: they are missing from the file or are not pictures.")
        guard case .flourish(let entries, let tags, _, _) = file else { return XCTFail() }
        let fresh = try JournalStore(path: folder.file("json-to.sqlite"))
        XCTAssertEqual(try fresh.importEntries(entries, tags: tags).entryIDs.count, 3)
        XCTAssertEqual(try fresh.entries(ids: try fresh.entryIDs()).flatMap(\.photos), [])

        // A journal without photos writes the same document as before photos: no note.
        let plain = try JournalStore(path: folder.file("plain.sqlite"))
        _ = try plain.save(try EntryDraft(title: "Hello", mood: .okay).validated().get())
        _ = try plain.export(.json, to: folder.file("plain.json"))
        let text = try String(contentsOfFile: folder.file("plain.json"), encoding: .utf8)
        XCTAssertFalse(text.contains("photos"), text)
    }

    func testMarkdownWritesThePhotosInAFolderBesideIt() throws {
        let store = try JournalStore(path: folder.file("md.sqlite"))
        let (pictures, photos) = try journalWithPhotos(store)
        let path = folder.file("My journal.md")
        XCTAssertEqual(try store.export(.markdown, to: path, calendar: utc).photos, 3)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let renamed = "\(photos[1].id.prefix(8))-IMG_2041.jpg"
        XCTAssertTrue(text.contains("\n**Beach**\n\nWaves\n\n![IMG_2041.jpg](My%20journal-photos/IMG_2041.jpg)\n"
                                    + "![IMG_2041.jpg](My%20journal-photos/\(renamed))\n"
                                    + "![Screenshot \\[1\\].png](My%20journal-photos/Screenshot%20%5B1%5D.png)\n"), text)
        XCTAssertTrue(text.contains("\n**Again**\n\n![holiday.jpg](My%20journal-photos/IMG_2041.jpg)\n"), text)
        let photoFolder = folder.file("My journal-photos")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: (photoFolder as NSString).appendingPathComponent("IMG_2041.jpg"))), pictures[0])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: (photoFolder as NSString).appendingPathComponent(renamed))), pictures[1])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: (photoFolder as NSString).appendingPathComponent("Screenshot [1].png"))), pictures[2])

        // Again to the same place: the photos are written over; what else is in the folder stays.
        let mine = (photoFolder as NSString).appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: mine))
        _ = try store.export(.markdown, to: path, calendar: utc)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: photoFolder)), ["IMG_2041.jpg", renamed, "Screenshot [1].png", "notes.txt"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }, [], "no partial file or folder is left")

        // One file a year: the photos in the folder's photos/.
        let years = folder.file("years")
        try FileManager.default.createDirectory(atPath: years, withIntermediateDirectories: true)
        _ = try store.export(.markdownByYear, to: years, calendar: utc)
        let yearText = try String(contentsOfFile: (years as NSString).appendingPathComponent("Flourish journal 2025.md"), encoding: .utf8)
        XCTAssertTrue(yearText.contains("![holiday.jpg](photos/IMG_2041.jpg)"), yearText)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: (years as NSString).appendingPathComponent("photos/\(renamed)"))), pictures[1])

        // Cancelled after its second photo: nothing is left.
        let cancelled = folder.file("cancelled.md")
        var calls = 0
        XCTAssertThrowsError(try store.export(.markdown, to: cancelled, progress: { _, _ in
            calls += 1
            return calls < 3
        })) { error in
            XCTAssertEqual(error as? ExportFailure, .cancelled)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cancelled))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("cancelled-photos")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }, [])
    }

    func testAnExportNeverWritesIntoTheJournalsOwnPhotoFolder() throws {
        let store = try JournalStore(path: folder.file("journal.sqlite"))
        _ = try journalWithPhotos(store)
        XCTAssertThrowsError(try store.export(.markdown, to: folder.file("journal.md"))) { error in
            guard case ExportFailure.file(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("keeps its own"), reason)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.photoFolder.path).filter { !PhotoName.isValid($0) }, [])
    }
}
