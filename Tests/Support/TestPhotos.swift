import Foundation

/// The photo tests' pictures, made by Tests/Support/make_photos.sh into a folder of their own
/// (removed with this object): no binary image is kept in the repository. Making them takes a
/// few seconds (the 24-megapixel one most), so a test class makes them once.
public final class TestPhotos {
    /// The text every JPEG here carries in its EXIF ImageDescription: nothing Flourish derives
    /// from a photo (a thumbnail, a sealed copy) may show it.
    public static let exifMarker = "FLOURISH-EXIF-MARKER"

    public enum Name: String, CaseIterable {
        /// 600×400 JPEG, with the EXIF marker.
        case plainJPEG = "plain.jpg"
        /// 600×400 stored, EXIF Orientation 6: seen as 400×600; a yellow square at the stored top
        /// left, so at the top right once turned.
        case rotatedJPEG = "rotated.jpg"
        /// 300×200 PNG, transparent around a half-transparent disc.
        case alphaPNG = "alpha.png"
        /// 500×300 WebP.
        case webp = "photo.webp"
        /// 640×360 HEIC.
        case heic = "photo.heic"
        /// 6000×4000 JPEG (24 megapixels), with the EXIF marker.
        case bigJPEG = "big.jpg"
        /// Each cut to half its bytes.
        case truncatedJPEG = "truncated.jpg"
        case truncatedPNG = "truncated.png"
        case truncatedWebP = "truncated.webp"
        case truncatedHEIC = "truncated.heic"
        /// A line of text named like a JPEG.
        case notAPicture = "not-a-picture.jpg"
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let folder = TemporaryFolder()

    public init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("make_photos.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, folder.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "make_photos.sh failed (scripts/setup --tests installs its tools): "
                + String(decoding: said, as: UTF8.self))
        }
    }

    public func path(_ name: Name) -> String { folder.file(name.rawValue) }

    public func data(_ name: Name) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }
}
