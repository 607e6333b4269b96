import CGtk
import Foundation

/// A photo as the book draws it: read upright (its EXIF orientation applied) at no more pixels
/// than `dpi` gives its printed size, and handed to cairo with the JPEG of that copy attached,
/// so a PDF keeps the small JPEG rather than the pixels (a year of 24-megapixel photos stays a
/// file people can send). A photo that cannot be read is drawn as its name in a frame.
struct BookPhotoDrawing {
    let width: Double
    let height: Double
    /// Whether the photo was read.
    let read: Bool
    private let picture: PhotoThumbnail?
    private let pixels: OpaquePointer?
    private let name: String

    init(_ photo: BookPhoto, box: (width: Double, height: Double), dpi: Double) {
        name = photo.name
        let most = (width: Int((box.width / 72 * dpi).rounded(.up)), height: Int((box.height / 72 * dpi).rounded(.up)))
        if let bytes = photo.bytes(), let read = try? PhotoReader.read(bytes, fitting: most) {
            let size = Self.fitted(shape: Double(read.photoWidth) / Double(max(1, read.photoHeight)), in: box)
            (width, height) = (size.width, size.height)
            pixels = read.pixbuf
            picture = try? ThumbnailEncoder.encode(read.pixbuf)
            self.read = true
        } else {
            (width, height) = (box.width, 48)
            pixels = nil
            picture = nil
            self.read = false
        }
    }

    private init(name: String, size: (width: Double, height: Double), pixels: OpaquePointer) {
        self.name = name
        (width, height) = size
        self.pixels = pixels
        picture = try? ThumbnailEncoder.encode(pixels)
        read = true
    }

    /// The same photo drawn at most `height` points high (to finish a page rather than leave
    /// its foot empty), from its pixels made smaller to stay within `dpi`. Takes over this
    /// drawing's pixels.
    func shrunk(toHeight most: Double, dpi: Double) -> BookPhotoDrawing {
        guard let pixels, most < height else { return self }
        let size = (width: width * most / height, height: most)
        let pixelWidth = Int32(max(1, min(Double(gdk_pixbuf_get_width(pixels)), (size.width / 72 * dpi).rounded(.up))))
        let pixelHeight = Int32(max(1, (Double(pixelWidth) * Double(gdk_pixbuf_get_height(pixels)) / Double(gdk_pixbuf_get_width(pixels))).rounded()))
        guard let smaller = gdk_pixbuf_scale_simple(pixels, pixelWidth, pixelHeight, GDK_INTERP_BILINEAR) else { return self }
        g_object_unref(UnsafeMutableRawPointer(pixels))
        return BookPhotoDrawing(name: name, size: size, pixels: smaller)
    }

    /// A photo's width over its height, read at a small size (for laying pages out); a photo
    /// that cannot be read has the shape of its placeholder.
    static func shape(of photo: BookPhoto) -> Double {
        guard let bytes = photo.bytes(), let read = try? PhotoReader.read(bytes, fitting: (64, 64)) else { return 0 }
        defer { read.release() }
        return Double(read.photoWidth) / Double(max(1, read.photoHeight))
    }

    /// The size of a photo of `shape` fitted into `box`, at most the box's width and height.
    static func fitted(shape: Double, in box: (width: Double, height: Double)) -> (width: Double, height: Double) {
        guard shape > 0 else { return (box.width, 48) }
        let width = min(box.width, box.height * shape)
        return (width, width / shape)
    }

    /// Lets go of the pixels of a photo that is not drawn after all (it goes to the next page).
    func release() {
        if let pixels { g_object_unref(UnsafeMutableRawPointer(pixels)) }
    }

    /// Draws the photo and lets go of its pixels.
    func draw(at x: Double, _ y: Double, cairo: OpaquePointer, pango: OpaquePointer) {
        defer { if let pixels { g_object_unref(UnsafeMutableRawPointer(pixels)) } }
        guard let pixels, let surface = Self.surface(of: pixels) else {
            drawPlaceholder(at: x, y, cairo: cairo, pango: pango)
            return
        }
        defer { cairo_surface_destroy(surface) }
        if let picture, picture.format == .jpeg {
            // cairo owns a copy of the bytes for as long as the surface needs them.
            let copy = UnsafeMutableRawPointer.allocate(byteCount: picture.bytes.count, alignment: 1)
            picture.bytes.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: picture.bytes.count)
            cairo_surface_set_mime_data(surface, CAIRO_MIME_TYPE_JPEG, copy.assumingMemoryBound(to: UInt8.self),
                                        UInt(picture.bytes.count), { $0?.deallocate() }, copy)
        }
        let pixelWidth = Double(cairo_image_surface_get_width(surface))
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        cairo_scale(cairo, width / pixelWidth, width / pixelWidth)
        cairo_set_source_surface(cairo, surface, 0, 0)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    private func drawPlaceholder(at x: Double, _ y: Double, cairo: OpaquePointer, pango: OpaquePointer) {
        cairo_set_source_rgb(cairo, 0.6, 0.6, 0.6)
        cairo_set_line_width(cairo, 0.75)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_stroke(cairo)
        let text = BookText(markup: BookText.escaped(name), family: .sans, size: 9, color: BookColor(red: 0.4, green: 0.4, blue: 0.4))
        let paragraph = Paragraph(text, width: width - 16, pango: pango)
        defer { paragraph.release() }
        paragraph.draw(lines: 0..<min(2, paragraph.lines.count), at: x + 8, y + 8, color: text.color, bar: nil, cairo: cairo)
    }

    /// The pixels as a cairo image (premultiplied ARGB, as cairo keeps it).
    private static func surface(of pixbuf: OpaquePointer) -> OpaquePointer? {
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), rowStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == 3 || channels == 4,
              let source = gdk_pixbuf_read_pixels(pixbuf),
              let surface = cairo_image_surface_create(channels == 4 ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let target = cairo_image_surface_get_data(surface) else { return nil }
        let targetStride = Int(cairo_image_surface_get_stride(surface))
        for row in 0..<height {
            let from = source + row * rowStride
            let to = UnsafeMutableRawPointer(target + row * targetStride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width {
                let pixel = from + column * channels
                let alpha = channels == 4 ? UInt32(pixel[3]) : 255
                func premultiplied(_ value: UInt8) -> UInt32 { (UInt32(value) * alpha + 127) / 255 }
                to[column] = alpha << 24 | premultiplied(pixel[0]) << 16 | premultiplied(pixel[1]) << 8 | premultiplied(pixel[2])
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
