import Foundation

/// Reads photos (JPEG, PNG, WebP, HEIC) from their bytes with gdk-pixbuf, on any thread: each
/// call has its own reader and pixels, so photos can be read on worker threads side by side,
/// away from the GTK main thread. What comes out is shown on the main thread as a `Texture`.
///
/// Every result has the photo's EXIF orientation applied: a photo taken with the camera turned
/// comes out upright, its width and height swapped. A big photo is read at a reduced size (for
/// JPEG, inside libjpeg), so a 24-megapixel photo never needs its 100 MB of full-size pixels.
public enum PhotoDecoding {
    /// The longest side of a thumbnail unless asked otherwise, in pixels.
    public static let defaultThumbnailEdge = 320

    /// Reads a photo: its format, its size as seen, and a thumbnail whose longest side is at most
    /// `thumbnailEdge` pixels (never enlarged), encoded as JPEG (quality 85) or, when it has
    /// transparent pixels, PNG. The thumbnail carries no EXIF: nothing of the original's
    /// metadata (camera, place) is copied into it.
    public static func read(_ data: Data, thumbnailEdge: Int = defaultThumbnailEdge) throws(PhotoDecodingError) -> PhotoSummary {
        let edge = max(1, thumbnailEdge)
        let pixels = try PhotoReader.read(data, fitting: (edge, edge))
        defer { pixels.release() }
        let thumbnail = try ThumbnailEncoder.encode(pixels.pixbuf)
        return PhotoSummary(format: pixels.format, width: pixels.photoWidth, height: pixels.photoHeight, thumbnail: thumbnail)
    }

    /// Reads a photo into pixels that fit in `width`×`height` (a viewer's window), aspect kept,
    /// orientation applied, never enlarged.
    public static func decode(_ data: Data, fittingWidth width: Int, height: Int) throws(PhotoDecodingError) -> DecodedPhoto {
        DecodedPhoto(taking: try PhotoReader.read(data, fitting: (max(1, width), max(1, height))))
    }
}

/// What `PhotoDecoding.read` found in a photo.
public struct PhotoSummary: Sendable, Equatable {
    public let format: PictureFormat
    /// The photo's own size as a person sees it, after its EXIF orientation: 400×600 for a
    /// 600×400 picture taken with the camera turned a quarter.
    public let width: Int
    public let height: Int
    public let thumbnail: PhotoThumbnail
}

/// A photo made small, encoded for keeping.
public struct PhotoThumbnail: Sendable, Equatable {
    /// The encoded picture.
    public let bytes: Data
    /// `.jpeg`, or `.png` for a photo with transparent pixels (JPEG has no transparency).
    public let format: PictureFormat
    public let width: Int
    public let height: Int
}

/// Why a photo could not be read: a `kind` the app words (and translates) for a person, and a
/// `message` in plain English for logs and bug reports.
public struct PhotoDecodingError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Not a picture Flourish can read: text, a PDF, a video, an SVG, an empty file.
        case notAnImage
        /// A picture in a format Flourish reads, but cut short or damaged inside. `reason` is
        /// gdk-pixbuf's message (English), or Flourish's own for a file cut short.
        case damaged(reason: String)
        /// A picture in a format Flourish reads, but this computer has no reader for it
        /// (`scripts/setup` installs them: webp-pixbuf-loader, heif-gdk-pixbuf).
        case readerMissing(PictureFormat)
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    /// A file that stops before its picture's end (see `PictureFormat.isWhole`).
    static let cutShort = PhotoDecodingError(.damaged(reason: "the picture's data stops before its end (the file was cut short or is damaged)"))

    public var message: String {
        switch kind {
        case .notAnImage:
            "This is not a picture Flourish can read (it reads JPEG, PNG, WebP and HEIC)."
        case .damaged(let reason):
            "The picture is damaged and cannot be read: \(reason)"
        case .readerMissing(let format):
            "This computer has no reader for \(format.rawValue.uppercased()) pictures (gdk-pixbuf's loader is not installed)."
        }
    }
}

extension PhotoDecoding {
    /// Whether `data` is no picture, or a damaged one: read at a thumbnail's size (for a JPEG,
    /// inside libjpeg at an eighth), all of its data passing through the reader and nothing
    /// kept. A picture this computer has no reader for (HEIC without heif-gdk-pixbuf) is not
    /// unreadable: it is kept, to be shown where there is one.
    public static func isUnreadable(_ data: Data) -> Bool {
        do {
            let pixels = try PhotoReader.read(data, fitting: (defaultThumbnailEdge, defaultThumbnailEdge))
            pixels.release()
            return false
        } catch {
            if case .readerMissing = error.kind { return false }
            return true
        }
    }
}
