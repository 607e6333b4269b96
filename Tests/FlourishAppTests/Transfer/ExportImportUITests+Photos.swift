@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// Photos in the Export and Import windows: "Everything, with photos (ZIP)" is offered and
/// writes a ZIP file that gives every photo back byte for byte; JSON says the photos are not in
/// it; importing the ZIP file says how many photos come and brings them.
extension ExportImportUITests {
    /// Made once for the class (making them takes seconds).
    private static let photos = Result { try TestPhotos() }

    /// A journal of one entry with a JPEG and a PNG; their bytes.
    @MainActor
    private func journalWithPhotos() throws -> (Harness, [Data]) {
        let made = try Self.photos.get()
        let pictures = [try made.data(.plainJPEG), try made.data(.alphaPNG)]
        let harness = try Harness()
        let kept = try zip(pictures, ["plain.jpg", "alpha.png"]).map { try harness.journal.addPhoto($0, fileName: $1) }
        _ = try harness.journal.save(try EntryDraft(title: "Two photos", mood: .theBest, photos: kept).validated().get(), createdAt: Date())
        harness.model.load()
        return (harness, pictures)
    }

    func testTheExportWindowOffersEverythingWithPhotosAndWritesTheZIPFile() throws {
        try MainActor.assumeIsolated {
            let (harness, pictures) = try journalWithPhotos()
            defer { harness.close() }
            XCTAssertTrue(harness.main.window.activateAction("win.export"))
            let export = try XCTUnwrap(harness.main.exportWindow)
            XCTAssertEqual(export.zip.label, "Everything, with photos (ZIP)")
            XCTAssertTrue(export.zip.isSensitive)
            export.zip.isActive = true
            XCTAssertEqual(export.format, .zip)
            XCTAssertFalse(export.json.isActive, "one format at a time")
            let path = harness.folder.file("journal.zip")
            var finished = false
            export.export(export.format, to: path) { finished = true }
            let dialog = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(dialog.title, "Journal Exported")
            XCTAssertEqual(dialog.message, "1 entry and 2 photos written to \(path).")
            try XCTUnwrap(dialog.button(for: Alerts.ok)).click()
            harness.waitUntil("done") { finished }

            // What it wrote gives every photo back, byte for byte, in order.
            guard case .flourish(let entries, let tags, _, _) = try ImportFile.read(path: path) else { return XCTFail("a Flourish export") }
            let fresh = try JournalStore(path: harness.folder.file("fresh.sqlite"))
            defer { fresh.close() }
            XCTAssertEqual(try fresh.importEntries(entries, tags: tags).photos, 2)
            let entry = try XCTUnwrap(try fresh.entries(ids: try fresh.entryIDs()).first)
            XCTAssertEqual(entry.photos.map(\.fileName), ["plain.jpg", "alpha.png"])
            XCTAssertEqual(try entry.photos.map { try fresh.photo($0) }, pictures)

            // JSON says the photos are not in it, and which choice has them.
            XCTAssertTrue(harness.main.window.activateAction("win.export"))
            export.json.isActive = true
            let json = harness.folder.file("journal.json")
            finished = false
            export.export(export.format, to: json) { finished = true }
            let said = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(said.message, "1 entry written to \(json). 2 photos not included: choose “Everything, with photos (ZIP)” to have them.")
            try XCTUnwrap(said.button(for: Alerts.ok)).click()
            harness.waitUntil("done") { finished }
        }
    }

    func testImportingAZIPExportSaysHowManyPhotosComeAndBringsThem() throws {
        try MainActor.assumeIsolated {
            let made = try Self.photos.get()
            let pictures = [try made.data(.plainJPEG), try made.data(.webp)]
            let other = TemporaryFolder()
            let source = try JournalStore(path: other.file("other.sqlite"))
            let kept = try zip(pictures, ["plain.jpg", "photo.webp"]).map { try source.addPhoto($0, fileName: $1) }
            _ = try source.save(try EntryDraft(title: "From elsewhere", mood: .reallyGood, photos: kept).validated().get(), createdAt: Date())
            let path = other.file("journal.zip")
            _ = try source.export(.zip, to: path)
            source.close()

            let harness = try Harness()
            defer { harness.close() }
            let importer = harness.main.importWindow()
            importer.read(path)
            harness.waitUntil("the ZIP file is read and summed up") { importer.importButton.isSensitive }
            XCTAssertEqual(importer.summary.text, "journal.zip: 1 entry, 0 tags, 2 photos, 0 already in your journal.")
            XCTAssertFalse(importer.moodsBox.isVisible, "a Flourish export has Flourish's moods")
            importer.importButton.click()
            harness.waitUntil("imported", timeout: 10) { harness.model.count == 1 }
            let entry = try XCTUnwrap(try harness.journal.entries(ids: try harness.journal.entryIDs()).first)
            XCTAssertEqual(entry.title, "From elsewhere")
            XCTAssertEqual(try entry.photos.map { try harness.journal.photo($0) }, pictures)

            importer.read(path)
            harness.waitUntil("read again") { importer.summary.text.contains("1 already") }
            XCTAssertEqual(importer.summary.text, "journal.zip: 1 entry, 0 tags, 1 already in your journal. There is nothing new to import.")
            importer.cancelButton.click()
        }
    }
}
