import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// Photos read by GtkKit's `PhotoDecoding` from their bytes, in every format Flourish reads, on
/// worker threads, and shown on the main thread. The pictures are made by make_photos.sh.
final class PhotoDecodingTests: XCTestCase {
    private static var photos: TestPhotos?
    private static var makingFailed: Error?

    override class func setUp() {
        super.setUp()
        do { photos = try TestPhotos() } catch { makingFailed = error }
    }

    override class func tearDown() {
        photos = nil
        super.tearDown()
    }

    private func data(_ name: TestPhotos.Name) throws -> Data {
        if let failure = Self.makingFailed { throw failure }
        return try XCTUnwrap(Self.photos).data(name)
    }

    // MARK: - Formats and sizes

    func testEachFormatIsReadAtItsOwnSizeWithAThumbnailOfItsShape() throws {
        let expected: [(TestPhotos.Name, PictureFormat, Int, Int, PictureFormat, Int, Int)] = [
            (.plainJPEG, .jpeg, 600, 400, .jpeg, 320, 213),
            (.alphaPNG, .png, 300, 200, .png, 300, 200), // smaller than a thumbnail: never enlarged
            (.webp, .webp, 500, 300, .jpeg, 320, 192),
            // libheif gives every HEIC an alpha channel; with no transparent pixel it is a JPEG.
            (.heic, .heif, 640, 360, .jpeg, 320, 180),
        ]
        for (name, format, width, height, thumbnailFormat, thumbnailWidth, thumbnailHeight) in expected {
            let summary = try PhotoDecoding.read(try data(name))
            XCTAssertEqual(summary.format, format, "\(name)")
            XCTAssertEqual([summary.width, summary.height], [width, height], "\(name)")
            XCTAssertEqual(summary.thumbnail.format, thumbnailFormat, "\(name)")
            XCTAssertEqual([summary.thumbnail.width, summary.thumbnail.height], [thumbnailWidth, thumbnailHeight], "\(name)")
            // The thumbnail is what it says it is, at that size.
            let again = try PhotoDecoding.read(summary.thumbnail.bytes)
            XCTAssertEqual(again.format, thumbnailFormat, "\(name)")
            XCTAssertEqual([again.width, again.height], [thumbnailWidth, thumbnailHeight], "\(name)")
        }
    }

    func testAThumbnailKeepsWithinTheEdgeAskedFor() throws {
        let summary = try PhotoDecoding.read(try data(.plainJPEG), thumbnailEdge: 90)
        XCTAssertEqual([summary.thumbnail.width, summary.thumbnail.height], [90, 60])
    }

    func testAThumbnailCarriesNoneOfThePhotosEXIF() throws {
        let photo = try data(.plainJPEG)
        let marker = Data(TestPhotos.exifMarker.utf8)
        XCTAssertNotNil(photo.range(of: marker), "the fixture carries the marker")
        XCTAssertNil(try PhotoDecoding.read(photo).thumbnail.bytes.range(of: marker))
    }

    // MARK: - Orientation

    func testAPhotoTakenWithTheCameraTurnedIsReadUpright() throws {
        let photo = try data(.rotatedJPEG)
        let summary = try PhotoDecoding.read(photo)
        XCTAssertEqual([summary.width, summary.height], [400, 600], "600×400 stored, turned a quarter")
        XCTAssertEqual([summary.thumbnail.width, summary.thumbnail.height], [213, 320], "the thumbnail is taller than wide")

        let whole = try PhotoDecoding.decode(photo, fittingWidth: 1000, height: 1000)
        XCTAssertEqual([whole.width, whole.height], [400, 600], "never enlarged")
        XCTAssertEqual([whole.photoWidth, whole.photoHeight], [400, 600])
    }

    func testATurnedPhotoFitsABoxOfTheOtherShape() throws {
        // Read at a size chosen before the orientation is known, then fitted once upright.
        let landscapeBox = try PhotoDecoding.decode(try data(.rotatedJPEG), fittingWidth: 600, height: 400)
        XCTAssertEqual([landscapeBox.width, landscapeBox.height], [267, 400])
        let portraitBox = try PhotoDecoding.decode(try data(.rotatedJPEG), fittingWidth: 300, height: 900)
        XCTAssertEqual([portraitBox.width, portraitBox.height], [300, 450])
    }

    // MARK: - A big photo

    func testA24MegapixelPhotoIsReadSmallWithoutItsFullSizePixels() throws {
        let photo = try data(.bigJPEG)
        // Full size, 6000×4000 RGB pixels alone are 72 MB; read small, the JPEG is reduced
        // inside libjpeg (to 750×500) before any pixel is made.
        let (summary, grown) = try peakGrowth { try PhotoDecoding.read(photo) }
        XCTAssertEqual([summary.width, summary.height], [6000, 4000])
        XCTAssertEqual([summary.thumbnail.width, summary.thumbnail.height], [320, 213])
        XCTAssertLessThan(grown, 12_000_000, "reading a thumbnail held \(grown / 1_000_000) MB at its peak")

        let (viewed, viewedGrown) = try peakGrowth { try PhotoDecoding.decode(photo, fittingWidth: 1920, height: 1080) }
        XCTAssertEqual([viewed.width, viewed.height], [1620, 1080])
        XCTAssertEqual([viewed.photoWidth, viewed.photoHeight], [6000, 4000])
        XCTAssertLessThan(viewedGrown, 40_000_000, "reading for a 1920×1080 viewer held \(viewedGrown / 1_000_000) MB at its peak")
    }

    /// What `body` returns and how far the process's peak resident memory rose above what was
    /// resident before it (Linux: the peak is reset through /proc/self/clear_refs).
    private func peakGrowth<Value>(_ body: () throws -> Value) throws -> (Value, Int) {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = try statusKilobytes("VmRSS")
        let value = try body()
        return (value, (try statusKilobytes("VmHWM") - before) * 1024)
    }

    private func statusKilobytes(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        return try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    // MARK: - Refused

    func testAPictureCutShortIsRefusedAsDamaged() throws {
        for name in [TestPhotos.Name.truncatedJPEG, .truncatedPNG, .truncatedWebP, .truncatedHEIC] {
            XCTAssertThrowsError(try PhotoDecoding.read(try data(name)), "\(name)") { error in
                guard case .damaged(let reason)? = (error as? PhotoDecodingError)?.kind else {
                    return XCTFail("\(name): \(error)")
                }
                XCTAssertFalse(reason.isEmpty)
            }
            XCTAssertThrowsError(try PhotoDecoding.decode(try data(name), fittingWidth: 800, height: 800), "\(name)")
        }
    }

    func testWhatIsNotAPictureIsRefusedAsSuch() throws {
        var mp4 = Data([0, 0, 0, 24]) + Data("ftypisom".utf8) + Data([0, 0, 2, 0]) + Data("isomiso2".utf8)
        mp4 += Data(count: 64)
        let svg = Data("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>".utf8)
        let candidates: [(String, Data)] = [("text named .jpg", try data(.notAPicture)), ("nothing", Data()),
                                            ("a video", mp4), ("an SVG", svg), ("a JPEG's first two bytes", Data([0xFF, 0xD8]))]
        for (what, bytes) in candidates {
            XCTAssertThrowsError(try PhotoDecoding.read(bytes), what) { error in
                XCTAssertEqual((error as? PhotoDecodingError)?.kind, .notAnImage, what)
                XCTAssertTrue((error as? PhotoDecodingError)?.message.contains("not a picture") == true)
            }
        }
    }

    // MARK: - Threads

    func testPhotosAreReadOnWorkerThreadsSideBySide() throws {
        let names: [TestPhotos.Name] = [.plainJPEG, .rotatedJPEG, .alphaPNG, .webp, .heic, .truncatedJPEG, .notAPicture]
        let inputs = try names.map { try data($0) }
        let expected = inputs.map { try? PhotoDecoding.read($0) }
        let results = Locked([PhotoSummary?](repeating: nil, count: inputs.count * 3))
        let offMain = Locked(true)
        let done = expectation(description: "every photo read")
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: inputs.count * 3) { index in
                if Thread.isMainThread { offMain.update { $0 = false } }
                let summary = try? PhotoDecoding.read(inputs[index % inputs.count])
                results.update { $0[index] = summary }
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        XCTAssertTrue(offMain.value)
        for (index, summary) in results.value.enumerated() {
            XCTAssertEqual(summary, expected[index % inputs.count], "\(names[index % inputs.count])")
        }
        XCTAssertNotNil(expected[0])
        XCTAssertNil(expected[5])
    }

    func testAPhotoDecodedOnAWorkerThreadIsShownOnTheMainThread() throws {
        let photo = try data(.rotatedJPEG)
        let decoded = Locked<Result<DecodedPhoto, PhotoDecodingError>?>(nil)
        let done = expectation(description: "decoded")
        DispatchQueue.global().async {
            decoded.update { $0 = Result { () throws(PhotoDecodingError) in try PhotoDecoding.decode(photo, fittingWidth: 800, height: 800) } }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        let result = try XCTUnwrap(decoded.value).get()
        decoded.update { $0 = nil } // the texture keeps the pixels on its own
        try MainActor.assumeIsolated {
            Toolkit.initialize()
            let texture = Texture(result)
            XCTAssertEqual([texture.width, texture.height], [400, 600])
            let thumbnail = try PhotoDecoding.read(photo).thumbnail
            let small = try Texture(encoded: thumbnail.bytes)
            XCTAssertEqual([small.width, small.height], [213, 320])
            XCTAssertThrowsError(try Texture(encoded: try data(.notAPicture))) { error in
                XCTAssertEqual((error as? PhotoDecodingError)?.kind, .notAnImage)
            }
            XCTAssertThrowsError(try Texture(encoded: try data(.truncatedJPEG)))
        }
    }

    // MARK: - On screen

    func testAPictureShowsTheTurnedPhotoUpright() throws {
        let thumbnail = try PhotoDecoding.read(try data(.rotatedJPEG)).thumbnail
        try MainActor.assumeIsolated {
            Toolkit.initialize()
            let picture = Picture(try Texture(encoded: thumbnail.bytes))
            picture.canShrink = false
            picture.contentFit = .contain
            picture.alternativeText = "A photo"
            picture.align(horizontal: .start, vertical: .start)
            XCTAssertEqual(picture.contentFit, .contain)
            XCTAssertFalse(picture.canShrink)
            XCTAssertEqual(picture.alternativeText, "A photo")
            let window = Window(application: Harness.sharedApplication())
            window.setDefaultSize(width: 400, height: 400)
            window.setChild(picture)
            window.present()
            defer { window.close() }
            XCTAssertTrue(MainLoop.run(until: { picture.render() != nil }), "the picture is painted")
            let image = try XCTUnwrap(picture.render())
            XCTAssertEqual([image.width, image.height], [213, 320])
            // The yellow square of the stored top left is at the top right once turned clockwise.
            XCTAssertTrue(isYellow(try XCTUnwrap(image.hex(x: 195, y: 15))), "top right: \(image.hex(x: 195, y: 15) ?? "")")
            XCTAssertFalse(isYellow(try XCTUnwrap(image.hex(x: 15, y: 15))), "top left: \(image.hex(x: 15, y: 15) ?? "")")
            XCTAssertFalse(isYellow(try XCTUnwrap(image.hex(x: 15, y: 305))), "bottom left: \(image.hex(x: 15, y: 305) ?? "")")
        }
    }

    func testAPictureButtonIsNamedForAScreenReader() {
        MainActor.assumeIsolated {
            Toolkit.initialize()
            let picture = Picture()
            let button = Button(picture: picture, accessibleName: "Open the photo")
            XCTAssertEqual(button.accessibleName, "Open the photo")
            XCTAssertNil(picture.texture)
        }
    }

    private func isYellow(_ hex: String) -> Bool {
        guard let value = UInt32(hex.dropFirst(), radix: 16) else { return false }
        return value >> 16 > 0xC0 && (value >> 8) & 0xFF > 0xC0 && value & 0xFF < 0x60
    }
}

/// A value shared between a test and its worker threads.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
