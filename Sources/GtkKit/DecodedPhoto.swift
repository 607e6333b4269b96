import CGtk

/// A photo read into pixels (a GdkPixbuf), its orientation applied, fitted into the box it was
/// asked for: made on a worker thread by `PhotoDecoding.decode`, shown on the main thread
/// through `Texture(_:)`.
///
/// Sendable although it holds a pointer: nothing changes the pixels once they are read, and
/// GObject's reference counting is atomic, so the last reference may go on any thread.
public final class DecodedPhoto: @unchecked Sendable {
    let pixbuf: OpaquePointer
    public let format: PictureFormat
    /// The size of these pixels.
    public let width: Int
    public let height: Int
    /// The photo's own size as seen (orientation applied), of which these pixels may be a reduction.
    public let photoWidth: Int
    public let photoHeight: Int

    /// Takes over the reference `pixels` holds.
    init(taking pixels: PhotoReader.Pixels) {
        pixbuf = pixels.pixbuf
        format = pixels.format
        width = Int(gdk_pixbuf_get_width(pixels.pixbuf))
        height = Int(gdk_pixbuf_get_height(pixels.pixbuf))
        photoWidth = pixels.photoWidth
        photoHeight = pixels.photoHeight
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
}
