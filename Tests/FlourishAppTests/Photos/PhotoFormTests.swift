@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// Photos on the New Entry and Edit forms, in a real window over a real journal: added from
/// files (what Add Photo…, a drop and a paste of files all do), shown as named thumbnails,
/// taken off and put back with Undo, refused by name when they are not pictures, saved with
/// the entry byte for byte.
final class PhotoFormTests: XCTestCase {
    private static var made: TestPhotos?

    override class func setUp() {
        super.setUp()
        made = try? TestPhotos()
    }

    private func photos() throws -> TestPhotos { try XCTUnwrap(Self.made, "make_photos.sh made the test pictures") }

    @MainActor
    private func waitForThumbnails(_ harness: Harness, _ attachments: PhotoAttachments, count: Int) {
        harness.waitUntil("\(count) photos are on the form", timeout: 20) { attachments.photos.count == count }
        harness.waitUntil("their thumbnails show", timeout: 20) { attachments.tiles.allSatisfy { $0.tile.picture.texture != nil } }
    }

    func testPhotosAddedToANewEntryAreSavedWithItWhole() throws {
        let made = try photos()
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let attachments = harness.form.fields.photos
            harness.fill(title: "Beach day", body: "Sand everywhere", mood: .theBest)
            attachments.add(paths: [made.path(.rotatedJPEG), made.path(.webp), made.path(.heic), made.path(.alphaPNG)])
            waitForThumbnails(harness, attachments, count: 4)
            XCTAssertEqual(attachments.tiles.map(\.tile.name), ["Photo 1 of 4, rotated.jpg", "Photo 2 of 4, photo.webp",
                                                              "Photo 3 of 4, photo.heic", "Photo 4 of 4, alpha.png"])
            let square = try XCTUnwrap(attachments.tiles.first?.tile.picture.texture)
            XCTAssertEqual([square.width, square.height], [PhotoAttachments.edge, PhotoAttachments.edge], "every tile the same square")
            let kept = try XCTUnwrap(try harness.journal.thumbnail(of: attachments.photos[0]))
            let upright = try Texture(encoded: kept)
            XCTAssertGreaterThan(upright.height, upright.width, "the turned photo's kept thumbnail stands upright")

            harness.form.save()
            let saidSaved = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(saidSaved.message, "Your entry has been saved!")
            try XCTUnwrap(saidSaved.button(for: Alerts.ok)).click()
            let saved = try XCTUnwrap(try harness.journal.entries(ids: try harness.journal.entryIDs()).first)
            XCTAssertEqual(saved.photos.map(\.fileName), ["rotated.jpg", "photo.webp", "photo.heic", "alpha.png"])
            for (photo, name) in zip(saved.photos, [TestPhotos.Name.rotatedJPEG, .webp, .heic, .alphaPNG]) {
                XCTAssertEqual(try harness.journal.photo(photo), try made.data(name), "\(name): the original, byte for byte")
                XCTAssertNotNil(try harness.journal.thumbnail(of: photo), "\(name): its thumbnail was made once and kept")
            }
            XCTAssertEqual(attachments.photos, [], "the form is empty again after the save")
        }
    }

    func testWhatIsNotAPictureOrIsDamagedIsRefusedByNameAndTheWordsStay() throws {
        let made = try photos()
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let attachments = harness.form.fields.photos
            harness.form.titleField.text = "Words that stay"
            for (name, reason) in [(TestPhotos.Name.notAPicture, "not a picture Flourish can keep"), (.truncatedJPEG, "damaged or cut short")] {
                attachments.add(paths: [made.path(name)])
                let dialog = try XCTUnwrap(harness.waitForDialog())
                XCTAssertTrue(dialog.message.contains(name.rawValue), dialog.message)
                XCTAssertTrue(dialog.message.contains(reason), dialog.message)
                try XCTUnwrap(dialog.button(for: Alerts.ok)).click()
                harness.waitUntil("the message closes") { harness.main.alerts.current == nil }
            }
            XCTAssertEqual(attachments.photos, [])
            XCTAssertEqual(harness.form.titleField.text, "Words that stay")
            XCTAssertEqual(harness.journal.photoFolder.names(), [], "nothing of them was kept")
        }
    }

    func testAPhotoTakenOffComesBackWithUndo() throws {
        let made = try photos()
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let attachments = harness.form.fields.photos
            attachments.add(paths: [made.path(.plainJPEG), made.path(.webp)])
            waitForThumbnails(harness, attachments, count: 2)
            let first = attachments.photos[0]
            attachments.tiles[0].remove.click()
            XCTAssertEqual(attachments.photos.map(\.fileName), ["photo.webp"])
            XCTAssertEqual(attachments.tiles.map(\.tile.name), ["Photo 1 of 1, photo.webp"])
            harness.waitUntil("the notice offers Undo") { harness.main.notice.isShowing }
            XCTAssertEqual(harness.main.notice.label.text, "Photo “plain.jpg” removed")
            XCTAssertTrue(harness.main.window.activateAction("win.undo"), "Ctrl+Z")
            XCTAssertEqual(attachments.photos, [first, attachments.photos[1]], "back where it was")
            XCTAssertEqual(attachments.photos.map(\.fileName), ["plain.jpg", "photo.webp"])
        }
    }

    func testAnEditShowsTheEntrysPhotosAndSavesExactlyThoseShown() throws {
        let made = try photos()
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let kept = try [TestPhotos.Name.plainJPEG, .alphaPNG].map { try harness.journal.addPhoto(try made.data($0), fileName: $0.rawValue, thumbnail: nil) }
            let entry = try harness.journal.save(try EntryDraft(title: "With two", mood: .okay, photos: kept).validated().get(), createdAt: Date())
            harness.model.load()
            let editor = harness.main.journal.editor
            editor.edit(try XCTUnwrap(try harness.journal.entries(ids: [entry.id]).first))
            waitForThumbnails(harness, editor.fields.photos, count: 2)
            XCTAssertFalse(editor.hasChanges)
            editor.fields.photos.tiles[1].remove.click()
            XCTAssertTrue(editor.hasChanges, "taking a photo off is a change")
            editor.save()
            harness.waitUntil("the edit is saved") { editor.original == nil }
            XCTAssertEqual(try harness.journal.entries(ids: [entry.id]).first?.photos, [kept[0]])
        }
    }

    func testClosingWithOnlyPhotosOnTheFormAsksFirst() throws {
        let made = try photos()
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.form.fields.photos.add(paths: [made.path(.plainJPEG)])
            waitForThumbnails(harness, harness.form.fields.photos, count: 1)
            harness.main.window.close()
            let dialog = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(dialog.title, "Discard this entry?", "a photo added is work not to lose without asking")
            try XCTUnwrap(dialog.button(for: Alerts.cancel)).click()
            harness.waitUntil("the dialog goes") { harness.main.alerts.current == nil }
            XCTAssertEqual(harness.form.fields.photos.photos.count, 1)
        }
    }
}
