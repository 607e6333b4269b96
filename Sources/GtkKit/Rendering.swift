import CGtk
import Foundation

/// What a widget looks like, drawn off screen the way GTK draws it on screen (its render nodes,
/// through cairo): for tests that check colours at known places.
public struct RenderedImage {
    public let width: Int
    public let height: Int
    /// Premultiplied native-endian ARGB, as cairo keeps it, row after row.
    private let pixels: [UInt32]

    init(width: Int, height: Int, pixels: [UInt32]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The colour at (x, y) as "#rrggbb" (opaque pixels; alpha is dropped).
    public func hex(x: Int, y: Int) -> String? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let pixel = pixels[y * width + x]
        return String(format: "#%02x%02x%02x", (pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF)
    }
}

/// Why an image could not be written.
public struct ImageError: Error {
    public let message: String
}

extension Widget {
    /// Draws the widget at its current size, as last painted; nil before it has a size.
    public func render() -> RenderedImage? {
        withSurface { surface, width, height in
            guard let data = cairo_image_surface_get_data(surface) else { return nil }
            let stride = Int(cairo_image_surface_get_stride(surface))
            var pixels: [UInt32] = []
            pixels.reserveCapacity(width * height)
            for row in 0..<height {
                let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                pixels.append(contentsOf: UnsafeBufferPointer(start: line, count: width))
            }
            return RenderedImage(width: width, height: height, pixels: pixels)
        }
    }

    /// Writes what the widget shows to a PNG file at `path`: drawn, written beside it, then
    /// renamed into place, so a failure never leaves half an image where one was asked for.
    public func savePNG(to path: String) throws(ImageError) {
        let partial = path + ".part"
        let status: cairo_status_t? = withSurface { surface, _, _ in cairo_surface_write_to_png(surface, partial) }
        guard let status else { throw ImageError(message: "nothing to draw yet") }
        guard status == CAIRO_STATUS_SUCCESS else {
            unlink(partial)
            throw ImageError(message: String(cString: cairo_status_to_string(status)))
        }
        guard rename(partial, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw ImageError(message: reason)
        }
    }

    /// Paints the widget into a cairo image surface of its size, for `body` to read.
    private func withSurface<Result>(_ body: (OpaquePointer, Int, Int) -> Result?) -> Result? {
        // The allocation (border box): what the widget's paintable draws. gtk_widget_get_width
        // would leave out the CSS border and padding and scale the picture.
        let width = Int(allocatedWidth), height = Int(allocatedHeight)
        guard width > 0, height > 0, let paintable = gtk_widget_paintable_new(raw) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return nil }
        defer { gsk_render_node_unref(node) }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return nil }
        defer { cairo_surface_destroy(surface) }
        let context = cairo_create(surface)
        gsk_render_node_draw(node, context)
        cairo_destroy(context)
        cairo_surface_flush(surface)
        return body(surface, width, height)
    }
}
