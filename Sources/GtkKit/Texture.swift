import CGtk
import Foundation

/// A GdkTexture: pixels GTK can paint, in a `Picture`. Made on the main thread, from a photo
/// decoded on a worker thread or from a kept thumbnail's bytes.
@MainActor
public final class Texture {
    // Immutable for the handle's life; released in the nonisolated deinit.
    nonisolated(unsafe) let raw: OpaquePointer

    /// The photo's pixels; the texture holds its own reference on them, so the photo may go.
    public init(_ photo: DecodedPhoto) {
        raw = gdk_texture_new_for_pixbuf(photo.pixbuf)
    }

    /// An encoded picture (a thumbnail's JPEG or PNG), read by GDK's own readers. Refused as
    /// `PhotoDecoding` refuses: not a picture Flourish reads, or cut short or damaged.
    public init(encoded data: Data) throws(PhotoDecodingError) {
        let checked = data.withUnsafeBytes { bytes -> PhotoDecodingError? in
            guard let format = PictureFormat(sniffing: bytes) else { return PhotoDecodingError(.notAnImage) }
            guard format.isWhole(bytes) else { return .cutShort }
            return nil
        }
        if let checked { throw checked }
        // g_bytes_new copies: the texture must not point into the Data's storage.
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let made = gdk_texture_new_from_bytes(bytes, &error) else {
            let reason = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "GTK could not read the picture"
            if let error { g_error_free(error) }
            throw PhotoDecodingError(.damaged(reason: reason))
        }
        raw = made
    }

    public var width: Int { Int(gdk_texture_get_width(raw)) }
    public var height: Int { Int(gdk_texture_get_height(raw)) }

    deinit { g_object_unref(UnsafeMutableRawPointer(raw)) }
}
