import CGtk
import Foundation

/// One photo's bytes through a GdkPixbufLoader. Thread-safe because nothing is shared: the
/// loader, the size plan and the pixbufs belong to the call, and gdk-pixbuf itself serialises
/// any of its readers that are not thread-safe.
enum PhotoReader {
    /// Pixels read, oriented and fitted, holding one reference on `pixbuf` until `release`.
    struct Pixels {
        let pixbuf: OpaquePointer
        let format: PictureFormat
        let photoWidth: Int
        let photoHeight: Int

        func release() { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    }

    static func read(_ data: Data, fitting box: (width: Int, height: Int)) throws(PhotoDecodingError) -> Pixels {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(PhotoDecodingError) in try read(bytes, fitting: box) }
        }
        return try result.get()
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, fitting box: (width: Int, height: Int)) throws(PhotoDecodingError) -> Pixels {
        guard let format = PictureFormat(sniffing: bytes), let start = bytes.baseAddress else {
            throw PhotoDecodingError(.notAnImage)
        }
        guard format.isWhole(bytes) else { throw .cutShort }
        var error: UnsafeMutablePointer<GError>?
        // Asked for by name: the reader is the one for the signature found, never a guess.
        guard let loader = gdk_pixbuf_loader_new_with_type(format.loaderName, &error) else {
            _ = message(taking: error)
            throw PhotoDecodingError(.readerMissing(format))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }

        let plan = SizePlan(box: box)
        try withExtendedLifetime(plan) { () throws(PhotoDecodingError) in
            g_signal_connect_data(loader, "size-prepared", unsafeBitCast(sizePrepared, to: GCallback.self),
                                  Unmanaged.passUnretained(plan).toOpaque(), nil, GConnectFlags(rawValue: 0))
            // A failed write closes the loader itself; closing it again would be a GLib critical.
            guard gdk_pixbuf_loader_write(loader, start.assumingMemoryBound(to: guchar.self), gsize(bytes.count), &error) != 0,
                  gdk_pixbuf_loader_close(loader, &error) != 0 else {
                // libheif refuses a cut-short HEIC without a GError.
                throw PhotoDecodingError(.damaged(reason: message(taking: error) ?? "the reader stopped without saying why"))
            }
        }
        guard let read = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw PhotoDecodingError(.damaged(reason: "the reader gave no picture"))
        }
        // Orientations 5 to 8 turn the picture a quarter: its width and height swap.
        let orientation = gdk_pixbuf_get_option(read, "orientation").map { String(cString: $0) } ?? "1"
        let turned = ["5", "6", "7", "8"].contains(orientation)
        let stored = plan.stored ?? (Int(gdk_pixbuf_get_width(read)), Int(gdk_pixbuf_get_height(read)))
        // A new reference: the turned copy, or the same pixbuf when there is nothing to turn.
        guard let oriented = gdk_pixbuf_apply_embedded_orientation(read) else {
            throw PhotoDecodingError(.damaged(reason: "there was not enough memory to turn the picture upright"))
        }
        return Pixels(pixbuf: fitted(oriented, in: box), format: format,
                      photoWidth: turned ? stored.height : stored.width, photoHeight: turned ? stored.width : stored.height)
    }

    /// gdk-pixbuf's message, freeing the error.
    private static func message(taking error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) }
    }

    /// `pixbuf` made to fit `box` (it may be a little larger, see `SizePlan`); takes over the
    /// reference it is given and returns one.
    private static func fitted(_ pixbuf: OpaquePointer, in box: (width: Int, height: Int)) -> OpaquePointer {
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        guard let size = SizePlan.scaled(width: width, height: height, by: min(Double(box.width) / Double(width), Double(box.height) / Double(height))),
              size != (width, height),
              let scaled = gdk_pixbuf_scale_simple(pixbuf, Int32(size.width), Int32(size.height), GDK_INTERP_BILINEAR)
        else { return pixbuf } // already fits (or no memory to scale: a larger picture is still right)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        return scaled
    }
}

/// The size to read a photo at, chosen when its reader knows the stored size (`size-prepared`)
/// and before it makes pixels. The reader does not know the orientation then (EXIF is read with
/// the pixels), and one that turns a quarter fits the box the other way round; so the larger of
/// the two fits is read, and the pixels are fitted exactly once turned.
final class SizePlan {
    let box: (width: Int, height: Int)
    /// The stored size (before orientation), once the reader told it.
    var stored: (width: Int, height: Int)?

    init(box: (width: Int, height: Int)) { self.box = box }

    func readingSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        let w = Double(width), h = Double(height)
        let upright = min(Double(box.width) / w, Double(box.height) / h)
        let turned = min(Double(box.height) / w, Double(box.width) / h)
        return Self.scaled(width: width, height: height, by: max(upright, turned))
    }

    /// The size scaled by `scale`, at least 1×1; nil when that would not make it smaller.
    static func scaled(width: Int, height: Int, by scale: Double) -> (width: Int, height: Int)? {
        guard width > 0, height > 0, scale < 1 else { return nil }
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}

/// `void (*)(GdkPixbufLoader *loader, gint width, gint height, gpointer data)`: size-prepared,
/// emitted on the reading thread, inside `gdk_pixbuf_loader_write` or `_close`.
private let sizePrepared: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { loader, width, height, data in
    guard let loader, let data else { return }
    // The plan outlives the loader's writing and closing (withExtendedLifetime in `read`).
    let plan = Unmanaged<SizePlan>.fromOpaque(data).takeUnretainedValue()
    plan.stored = (Int(width), Int(height))
    if let size = plan.readingSize(width: Int(width), height: Int(height)) {
        gdk_pixbuf_loader_set_size(loader, Int32(size.width), Int32(size.height))
    }
}
