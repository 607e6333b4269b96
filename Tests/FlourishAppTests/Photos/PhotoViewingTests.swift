@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// An entry's photos where they are looked at: the journal row's thumbnail and "+2", the entry
/// page's strip of named thumbnails, and the viewer, stepped through from the keyboard, fitted
/// to the window, writing the original out byte for byte, and saying so when a photo's file
/// is damaged.
final class PhotoViewingTests: XCTestCase {
    private static var made: TestPhotos?

    override class func setUp() {
        super.setUp()
        made = try? TestPhotos()
    }

    /// A journal with an entry carrying three photos (a big one among them) and one without.
    @MainActor
    private func journal() throws -> (Harness, photos: Entry, plain: Entry) {
        let made = try XCTUnwrap(Self.made, "make_photos.sh made the test pictures")
        let harness = try Harness()
        let kept = try [TestPhotos.Name.rotatedJPEG, .bigJPEG, .webp].map {
            try harness.journal.addPhoto(try made.data($0), fileName: $0.rawValue, thumbnail: nil)
        }
        let plain = try harness.journal.save(try EntryDraft(title: "Words only", mood: .okay).validated().get(), createdAt: Date(timeIntervalSince1970: 1_000))
        let photos = try harness.journal.save(try EntryDraft(title: "Three photos", mood: .theBest, photos: kept).validated().get(),
                                              createdAt: Date(timeIntervalSince1970: 2_000))
        harness.model.load()
        harness.main.show(.journal)
        harness.waitUntil("both rows show") { harness.main.journal.rows.filter { $0.entry != nil && $0.view.isMapped }.count == 2 }
        return (harness, photos, plain)
    }

    func testARowShowsItsFirstPhotoAndHowManyMoreWithoutGrowing() throws {
        try MainActor.assumeIsolated {
            let (harness, photos, _) = try journal()
            defer { harness.close() }
            let rows = harness.main.journal.rows.filter { $0.entry != nil }
            let withPhotos = try XCTUnwrap(rows.first { $0.entryID == photos.id })
            let without = try XCTUnwrap(rows.first { $0.entryID != photos.id })
            harness.waitUntil("the thumbnail shows", timeout: 20) { withPhotos.thumbnail.texture != nil }
            XCTAssertEqual(withPhotos.thumbnail.texture?.width, JournalRow.thumbnailEdge)
            XCTAssertTrue(withPhotos.morePhotos.isVisible)
            XCTAssertEqual(withPhotos.morePhotos.text, "+2")
            XCTAssertNil(without.thumbnail.texture)
            // The heights were equal before the photo came; compare them once it is laid out.
            harness.waitForFrame("the row is laid out with its photo")
            XCTAssertEqual(withPhotos.view.allocatedHeight, without.view.allocatedHeight,
                           "a row of a title and a date is as tall with a photo as without")
        }
    }

    func testTheEntryPageShowsItsPhotosAndTheViewerGoesThroughThemFromTheKeyboard() throws {
        try MainActor.assumeIsolated {
            let (harness, photos, _) = try journal()
            defer { harness.close() }
            let page = harness.main.journal.entryView
            harness.main.journal.open(photos.id)
            XCTAssertEqual(page.photoTiles.map(\.name), ["Photo 1 of 3, rotated.jpg", "Photo 2 of 3, big.jpg", "Photo 3 of 3, photo.webp"])
            harness.waitUntil("the strip's thumbnails show", timeout: 30) { page.photoTiles.allSatisfy { $0.picture.texture != nil } }

            let viewer = harness.main.viewer
            page.photoTiles[1].button.click()
            XCTAssertTrue(viewer.isOpen)
            XCTAssertEqual(viewer.caption.text, "Photo 2 of 3, big.jpg")
            XCTAssertTrue(viewer.picture.hasFocus, "the photo holds the keyboard, named for what it shows")
            harness.waitUntil("the big photo shows", timeout: 30) { viewer.picture.texture != nil }
            let big = try XCTUnwrap(viewer.picture.texture)
            XCTAssertLessThanOrEqual(big.width, max(Int(viewer.view.allocatedWidth), 640), "fitted to the window, not 6000 pixels wide")
            XCTAssertEqual(Double(big.width) / Double(big.height), 1.5, accuracy: 0.01)

            XCTAssertTrue(viewer.handle(.right))
            XCTAssertEqual(viewer.caption.text, "Photo 3 of 3, photo.webp")
            XCTAssertTrue(viewer.handle(.right), "the last stays")
            XCTAssertEqual(viewer.index, 2)
            XCTAssertTrue(viewer.handle(.left))
            XCTAssertTrue(viewer.handle(.left))
            XCTAssertEqual(viewer.caption.text, "Photo 1 of 3, rotated.jpg")
            harness.waitUntil("the turned photo shows", timeout: 20) { viewer.picture.texture != nil }
            let upright = try XCTUnwrap(viewer.picture.texture)
            XCTAssertGreaterThan(upright.height, upright.width, "its EXIF orientation honoured")
            XCTAssertFalse(harness.main.pages.isSensitive, "nothing under the viewer takes the keyboard")

            XCTAssertTrue(viewer.handle(.escape))
            XCTAssertFalse(viewer.isOpen)
            XCTAssertTrue(harness.main.pages.isSensitive)
            XCTAssertTrue(page.photoTiles[1].button.hasFocus, "back on the thumbnail it was opened from")
        }
    }

    func testSaveACopyWritesTheOriginalByteForByte() throws {
        try MainActor.assumeIsolated {
            let (harness, photos, _) = try journal()
            defer { harness.close() }
            let target = harness.folder.file("copy.jpg")
            var saved: Bool?
            harness.main.viewer.saveCopy(of: photos.photos[1], to: target) { saved = $0 }
            harness.waitUntil("written", timeout: 20) { saved != nil }
            XCTAssertEqual(saved, true)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), try XCTUnwrap(Self.made).data(.bigJPEG))
        }
    }

    func testADamagedPhotoIsSaidByNameAndNotShown() throws {
        try MainActor.assumeIsolated {
            let (harness, photos, _) = try journal()
            defer { harness.close() }
            let file = harness.journal.photoFolder.path + "/" + photos.photos[2].id
            var sealed = try Data(contentsOf: URL(fileURLWithPath: file))
            sealed[sealed.count - 1] ^= 0xFF
            try sealed.write(to: URL(fileURLWithPath: file))
            let viewer = harness.main.viewer
            viewer.open(photos.photos, at: 2, from: nil)
            harness.waitUntil("the problem is said", timeout: 20) { viewer.problem.isVisible }
            XCTAssertEqual(viewer.problem.text, "The photo “photo.webp” was changed or cut short since Flourish kept it, so it is not shown.")
            XCTAssertNil(viewer.picture.texture)
            XCTAssertFalse(viewer.saveButton.isSensitive, "nothing to write out")
        }
    }
}
