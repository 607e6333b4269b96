import CGtk
import Foundation

extension PhotoDecoding {
    /// Reads a picture (a kept thumbnail) into an `edge`×`edge` square: scaled until its shorter
    /// side fills the square, then its middle cut out, as a photo app's grid shows photos. A
    /// picture's own natural size is what GTK lays it out by: a square one keeps every tile of a
    /// strip (or a list row) the same size whatever the photo's shape.
    public static func decodeSquare(_ data: Data, edge: Int) throws(PhotoDecodingError) -> DecodedPhoto {
        let edge = max(1, edge)
        // Fitted into a box as long as the square is on the short side, for any shape up to 1:8.
        let pixels = try PhotoReader.read(data, fitting: (edge * 8, edge * 8))
        defer { pixels.release() }
        let width = Int(gdk_pixbuf_get_width(pixels.pixbuf)), height = Int(gdk_pixbuf_get_height(pixels.pixbuf))
        let scale = Double(edge) / Double(max(1, min(width, height)))
        let scaledWidth = max(edge, Int((Double(width) * scale).rounded())), scaledHeight = max(edge, Int((Double(height) * scale).rounded()))
        guard let scaled = gdk_pixbuf_scale_simple(pixels.pixbuf, Int32(scaledWidth), Int32(scaledHeight), GDK_INTERP_BILINEAR),
              let square = gdk_pixbuf_new_subpixbuf(scaled, Int32((scaledWidth - edge) / 2), Int32((scaledHeight - edge) / 2),
                                                    Int32(edge), Int32(edge)) else {
            throw PhotoDecodingError(.damaged(reason: "the picture could not be scaled"))
        }
        // The square shares the scaled pixels and holds its own reference on them.
        g_object_unref(UnsafeMutableRawPointer(scaled))
        return DecodedPhoto(taking: PhotoReader.Pixels(pixbuf: square, format: pixels.format,
                                                        photoWidth: pixels.photoWidth, photoHeight: pixels.photoHeight))
    }
}
