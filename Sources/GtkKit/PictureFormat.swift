import Foundation

/// The picture formats Flourish reads, told apart by their first bytes, never by a file's name.
///
/// Only these reach gdk-pixbuf: left to guess, it would also hand an SVG to librsvg, a video
/// (an ISO media file, as HEIC is) to the HEIF reader, and icons or X bitmaps to their old
/// readers. A photo is none of those.
public enum PictureFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp
    /// HEIC (iPhones' photos) and AVIF: one reader, libheif's.
    case heif

    /// What the format is called on the web and in a MIME database.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heif: "image/heif"
        }
    }

    /// gdk-pixbuf's name for the reader (its loaders.cache spells them so).
    var loaderName: String {
        switch self {
        case .jpeg: "jpeg"
        case .png: "png"
        case .webp: "webp"
        case .heif: "heif/avif"
        }
    }

    /// The format whose signature `bytes` start with; nil for anything else.
    init?(sniffing bytes: UnsafeRawBufferPointer) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else if Self.isStillImageHEIF(bytes) {
            self = .heif
        } else {
            return nil
        }
    }

    /// Whether the file's `ftyp` box names a still-image brand. MP4 and QuickTime videos share
    /// the box and differ only there.
    private static func isStillImageHEIF(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        let boxEnd = min(bytes.count, Int(bigEndian32(bytes, at: 0)))
        let stills: Set<String> = ["heic", "heix", "heim", "heis", "mif1", "avif"]
        // The major brand, then (past the minor version) the compatible brands.
        let offsets = [8] + Array(stride(from: 16, to: boxEnd - 3, by: 4))
        return offsets.contains { stills.contains(String(decoding: bytes[$0..<$0 + 4], as: UTF8.self)) }
    }

    // MARK: - Whole or cut short

    /// Whether the bytes run to the format's own end. gdk-pixbuf 2.42 on Debian 12 reads a JPEG,
    /// a PNG or a WebP cut short without an error: the missing part comes out grey, transparent
    /// or blank. So the end is checked here. (libheif refuses a cut-short HEIC, but with no
    /// GError and a warning on the terminal; checked here too, it never gets that far.)
    func isWhole(_ bytes: UnsafeRawBufferPointer) -> Bool {
        switch self {
        case .jpeg: Self.jpegReachesEnd(bytes)
        case .png: Self.pngReachesEnd(bytes)
        case .webp: bytes.count >= 12 && bytes.count >= 8 + Int(Self.littleEndian32(bytes, at: 4))
        case .heif: Self.boxesReachEnd(bytes)
        }
    }

    /// Walks the JPEG's segments, and the compressed data after each start of scan, to the
    /// end-of-image marker. Segments are skipped by their length, so the EXIF thumbnail's own
    /// end marker inside APP1 is never taken for the photo's.
    private static func jpegReachesEnd(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 2 // past start-of-image
        while index + 1 < bytes.count {
            // Stray bytes between segments are passed over, as libjpeg does (with a warning).
            guard bytes[index] == 0xFF else { index += 1; continue }
            let marker = bytes[index + 1]
            index += marker == 0xFF ? 1 : 2 // 0xFF 0xFF is fill before a marker
            switch marker {
            case 0xFF, 0x00, 0x01, 0xD0...0xD7: continue // fill, or markers without a length
            case 0xD9: return true // end of image
            default: break
            }
            guard index + 1 < bytes.count else { return false }
            index += Int(bytes[index]) << 8 | Int(bytes[index + 1])
            guard marker == 0xDA else { continue }
            // Compressed data: in it 0xFF is followed by 0x00 (a stuffed byte) or a restart
            // marker; anything else is the next marker.
            while true {
                guard let next = firstFF(in: bytes, from: index), next + 1 < bytes.count else { return false }
                let following = bytes[next + 1]
                guard following == 0x00 || (0xD0...0xD7).contains(following) else {
                    index = next
                    break
                }
                index = next + 2
            }
        }
        return false
    }

    /// memchr, so that a 10 MB photo's compressed data is scanned in a few milliseconds even in
    /// a debug build.
    private static func firstFF(in bytes: UnsafeRawBufferPointer, from index: Int) -> Int? {
        guard let base = bytes.baseAddress, index < bytes.count,
              let found = memchr(base + index, 0xFF, bytes.count - index) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Walks the PNG's chunks to IEND, the chunk every PNG ends with.
    private static func pngReachesEnd(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 8 // past the signature
        while index + 8 <= bytes.count {
            if Array(bytes[index + 4..<index + 8]) == Array("IEND".utf8) { return true }
            // Length, type, data, CRC.
            index += 12 + Int(bigEndian32(bytes, at: index))
        }
        return false
    }

    /// Walks a HEIF's top-level boxes (ftyp, meta, mdat…): none may run past the last byte.
    private static func boxesReachEnd(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= bytes.count {
            var size = Int(bigEndian32(bytes, at: index))
            if size == 0 { return true } // the box runs to the end of the file
            if size == 1 { // a 64-bit size follows the type
                guard index + 16 <= bytes.count else { return false }
                let large = UInt64(bigEndian32(bytes, at: index + 8)) << 32 | UInt64(bigEndian32(bytes, at: index + 12))
                guard large <= UInt64(Int.max) else { return false }
                size = Int(large)
            }
            guard size >= 8, size <= bytes.count - index else { return false }
            index += size
        }
        return index == bytes.count
    }

    private static func bigEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func littleEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
