import CGtk
import Foundation

/// Encodes a thumbnail's pixels with gdk-pixbuf's own writers, on any thread.
enum ThumbnailEncoder {
    /// JPEG at 85: a thumbnail of a photo some 20 KB, no visible loss at its size.
    static let jpegQuality = "85"

    static func encode(_ pixbuf: OpaquePointer) throws(PhotoDecodingError) -> PhotoThumbnail {
        let format: PictureFormat = hasTransparentPixels(pixbuf) ? .png : .jpeg
        let options = format == .jpeg ? [("quality", jpegQuality)] : []
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let saved = withCStrings(options.map(\.0)) { keys in
            withCStrings(options.map(\.1)) { values in
                gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, format.rawValue, keys, values, &error)
            }
        }
        guard saved != 0, let buffer else {
            // Only running out of memory makes gdk-pixbuf's JPEG and PNG writers fail.
            let reason = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "the thumbnail could not be written"
            if let error { g_error_free(error) }
            throw PhotoDecodingError(.damaged(reason: reason))
        }
        defer { g_free(buffer) }
        return PhotoThumbnail(bytes: Data(bytes: buffer, count: Int(size)), format: format,
                              width: Int(gdk_pixbuf_get_width(pixbuf)), height: Int(gdk_pixbuf_get_height(pixbuf)))
    }

    /// Whether any pixel is less than opaque. Readers give an alpha channel to pictures that use
    /// none (libheif does to every HEIC here); those are still photos, and JPEG suits them.
    static func hasTransparentPixels(_ pixbuf: OpaquePointer) -> Bool {
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        guard hasAlpha, gdk_pixbuf_get_n_channels(pixbuf) == 4, gdk_pixbuf_get_bits_per_sample(pixbuf) == 8,
              let pixels = gdk_pixbuf_read_pixels(pixbuf) else { return hasAlpha }
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let rowStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        for row in 0..<height {
            let line = pixels + row * rowStride
            for column in 0..<width where line[column * 4 + 3] < 255 { return true }
        }
        return false
    }

    /// A NULL-terminated C array of `strings`, for gdk-pixbuf's option keys and values.
    private static func withCStrings<Result>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Result) -> Result {
        var pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress) }
    }
}
