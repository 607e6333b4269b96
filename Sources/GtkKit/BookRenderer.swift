import CGtk
import Foundation

/// Lays a book's pieces out on pages and draws them with Pango and cairo, one page at a time:
/// the same drawing for a PDF file (`BookPDF`) and for the printer (`BookPrint`). Units are
/// points. A page is laid out from a `Cursor` (where the page before it ended) and yields the
/// cursor of the next, so a printer can lay every page out first and draw any page later
/// without the renderer keeping more than the section it is in.
public final class BookRenderer {
    /// Where a page starts: a section, a piece of it, and a line of that piece (a paragraph
    /// split between pages) or a row of year grids.
    public struct Cursor: Equatable, Sendable {
        public var section = 0
        public var piece = 0
        public var line = 0

        public init(section: Int = 0, piece: Int = 0, line: Int = 0) {
            (self.section, self.piece, self.line) = (section, piece, line)
        }
    }

    /// A bookmark set on a page, at a height from the page's top.
    public struct PlacedBookmark: Equatable, Sendable {
        public let bookmark: BookBookmark
        public let page: Int
        public let y: Double
    }

    /// The most of a page's text height a photo takes: a tall photo is made smaller, never cut.
    public static let photoShare = 0.6
    /// Photos are drawn from a copy of at most this many pixels per inch at their printed size.
    public static let photoDPI = 300.0

    public let pageWidth: Double
    public let pageHeight: Double
    public let margin: Double
    private let source: BookSource
    private var cached: (index: Int, pieces: [BookPiece])?
    /// Each photo's shape (width over height) once read, by section and piece: laying pages out
    /// for a printer reads each photo once at a small size to learn it.
    private var shapes: [Int: Double] = [:]
    /// Bookmarks of the pages drawn, by page: a page drawn again (a print preview, then the
    /// print) replaces its own.
    private var bookmarksByPage: [Int: [PlacedBookmark]] = [:]
    /// Bookmarks of the pages drawn, in order.
    public var bookmarks: [PlacedBookmark] { bookmarksByPage.keys.sorted().flatMap { bookmarksByPage[$0] ?? [] } }
    /// Photos that could not be read (drawn as their name in a frame).
    public private(set) var unreadablePhotos = 0

    public init(source: BookSource, pageWidth: Double, pageHeight: Double, margin: Double = 56) {
        self.source = source
        self.pageWidth = pageWidth
        self.pageHeight = pageHeight
        self.margin = margin
    }

    var textWidth: Double { pageWidth - 2 * margin }
    var top: Double { margin }
    var bottom: Double { pageHeight - margin }

    private func pieces(_ section: Int) -> [BookPiece] {
        if let cached, cached.index == section { return cached.pieces }
        let pieces = source.pieces(ofSection: section)
        cached = (section, pieces)
        return pieces
    }

    /// Lays out the page numbered `number` (from 1) from `start` on the cairo context `cairo`,
    /// drawing it when `drawing` (otherwise only measuring: a printer's pagination). Returns
    /// where the next page starts, or nil when the book ends on this page.
    public func page(from start: Cursor, number: Int, on cairo: OpaquePointer, drawing: Bool) -> Cursor? {
        let pango = pango_cairo_create_context(cairo)!
        defer { g_object_unref(UnsafeMutableRawPointer(pango)) }
        // Points, whatever the device: cairo's user space here is in points.
        pango_cairo_context_set_resolution(pango, 72)
        var cursor = start
        var y = top
        var placed = false
        if drawing { bookmarksByPage[number] = [] }
        if drawing && number > 1 { drawPageNumber(number, pango: pango, cairo: cairo) }
        while cursor.section < source.sectionCount {
            let pieces = pieces(cursor.section)
            guard cursor.piece < pieces.count else {
                cursor = Cursor(section: cursor.section + 1)
                continue
            }
            switch pieces[cursor.piece] {
            case .pageBreak:
                cursor.piece += 1
                if placed { return cursor }
            case .space(let height):
                if placed { y += height }
                cursor.piece += 1
            case .text(let text):
                let paragraph = Paragraph(text, width: textWidth, pango: pango)
                defer { paragraph.release() }
                if cursor.line == 0 && placed {
                    // A short text that would not fit whole, with the room it keeps after it,
                    // goes to the next page (a heading never ends a page; a few lines stay together).
                    let whole = paragraph.height(from: 0)
                    if whole < (bottom - top) / 3 && y + whole + text.keepWithNext > bottom { return cursor }
                }
                var line = cursor.line
                let firstY = y
                while line < paragraph.lines.count {
                    let height = paragraph.lines[line].height
                    if y + height > bottom && (placed || y > top) { break }
                    y += height
                    line += 1
                    placed = true
                }
                if line > cursor.line {
                    if drawing, cursor.line == 0, let bookmark = text.bookmark {
                        bookmarksByPage[number, default: []].append(PlacedBookmark(bookmark: bookmark, page: number, y: firstY))
                    }
                    if drawing { paragraph.draw(lines: cursor.line..<line, at: margin, firstY, color: text.color, bar: text.bar, cairo: cairo) }
                }
                if line < paragraph.lines.count {
                    cursor.line = line
                    return cursor
                }
                y += text.spaceAfter
                cursor.piece += 1
                cursor.line = 0
            case .photo(let photo):
                let key = cursor.section << 16 | cursor.piece
                let box = (width: textWidth, height: (bottom - top) * Self.photoShare)
                if drawing {
                    var drawn = BookPhotoDrawing(photo, box: box, dpi: Self.photoDPI)
                    if placed && y + drawn.height > bottom {
                        guard Self.shrinks(drawn.height, into: bottom - y) else {
                            drawn.release()
                            return cursor
                        }
                        drawn = drawn.shrunk(toHeight: bottom - y, dpi: Self.photoDPI)
                    }
                    drawn.draw(at: margin + (textWidth - drawn.width) / 2, y, cairo: cairo, pango: pango)
                    if !drawn.read { unreadablePhotos += 1 }
                    y += drawn.height + 8
                } else {
                    let shape = shapes[key] ?? BookPhotoDrawing.shape(of: photo)
                    shapes[key] = shape
                    var height = BookPhotoDrawing.fitted(shape: shape, in: box).height
                    if placed && y + height > bottom {
                        guard shape > 0, Self.shrinks(height, into: bottom - y) else { return cursor }
                        height = bottom - y
                    }
                    y += height + 8
                }
                placed = true
                cursor.piece += 1
            case .years(let years):
                var row = cursor.line
                while row * 2 < years.count {
                    let height = BookYearDrawing.height
                    if placed && y + height > bottom { break }
                    if drawing {
                        for (column, year) in years[(row * 2)..<min(years.count, row * 2 + 2)].enumerated() {
                            BookYearDrawing.draw(year, x: margin + Double(column) * (textWidth / 2), y: y,
                                                 width: textWidth / 2 - 12, pango: pango, cairo: cairo)
                        }
                    }
                    y += height
                    row += 1
                    placed = true
                }
                if row * 2 < years.count {
                    cursor.line = row
                    return cursor
                }
                cursor.piece += 1
                cursor.line = 0
            }
        }
        return nil
    }

    /// Whether a photo `height` points high is made smaller to end the page in `room`, rather
    /// than moved to the next page away from its entry: when it keeps most of its size.
    static func shrinks(_ height: Double, into room: Double) -> Bool {
        room >= 144 && room >= height * 0.6
    }

    private func drawPageNumber(_ number: Int, pango: OpaquePointer, cairo: OpaquePointer) {
        let text = BookText(markup: "\(number)", family: .sans, size: 9, color: BookColor(red: 0.45, green: 0.45, blue: 0.45))
        let paragraph = Paragraph(text, width: textWidth, pango: pango, alignment: PANGO_ALIGN_CENTER)
        defer { paragraph.release() }
        paragraph.draw(lines: 0..<paragraph.lines.count, at: margin, pageHeight - margin / 2 - paragraph.height(from: 0) / 2,
                       color: text.color, bar: nil, cairo: cairo)
    }
}

/// One text piece laid out by Pango at the text width: its lines' heights and baselines, so
/// that any run of them can be drawn on a page of its own.
struct Paragraph {
    struct Line {
        /// From the layout's top, in points.
        let top: Double
        let height: Double
        let baseline: Double
        /// Where the line starts across (its alignment and direction), in points.
        let x: Double
    }

    let layout: OpaquePointer
    let lines: [Line]
    /// From the left: the indent, for a left-to-right paragraph; none for a right-to-left one,
    /// whose narrower layout then ends the indent short of the right margin (its start side).
    let indent: Double

    init(_ text: BookText, width: Double, pango: OpaquePointer, alignment: PangoAlignment = PANGO_ALIGN_LEFT) {
        layout = pango_layout_new(pango)
        let font = pango_font_description_new()
        pango_font_description_set_family(font, text.family.rawValue)
        pango_font_description_set_size(font, Int32(text.size * Double(PANGO_SCALE)))
        pango_font_description_set_weight(font, text.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_width(layout, Int32(max(1, width - text.indent) * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        // LEFT is the start side: Pango turns it for a right-to-left paragraph (auto-dir).
        pango_layout_set_alignment(layout, alignment)
        pango_layout_set_markup(layout, text.markup, -1)
        var lines: [Line] = []
        let iterator = pango_layout_get_iter(layout)
        let scale = Double(PANGO_SCALE)
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            var own = PangoRectangle()
            pango_layout_line_get_extents(pango_layout_iter_get_line_readonly(iterator), nil, &own)
            lines.append(Line(top: Double(logical.y) / scale, height: Double(logical.height) / scale,
                              baseline: Double(pango_layout_iter_get_baseline(iterator)) / scale,
                              x: Double(logical.x - own.x) / scale))
        } while pango_layout_iter_next_line(iterator) != 0
        pango_layout_iter_free(iterator)
        self.lines = lines
        let rightToLeft = pango_layout_get_line_readonly(layout, 0).map {
            pango_layout_line_get_resolved_direction($0) == PANGO_DIRECTION_RTL
        } ?? false
        indent = rightToLeft ? 0 : text.indent
    }

    func release() { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// The height of the lines from `line` to the end.
    func height(from line: Int) -> Double {
        guard line < lines.count, let last = lines.last else { return 0 }
        return last.top + last.height - lines[line].top
    }

    func draw(lines range: Range<Int>, at x: Double, _ y: Double, color: BookColor, bar: BookColor?, cairo: OpaquePointer) {
        guard !range.isEmpty else { return }
        let origin = lines[range.lowerBound].top
        if let bar {
            let last = lines[range.upperBound - 1]
            cairo_set_source_rgb(cairo, bar.red, bar.green, bar.blue)
            cairo_rectangle(cairo, x - 14, y, 6, last.top + last.height - origin)
            cairo_fill(cairo)
        }
        cairo_set_source_rgb(cairo, color.red, color.green, color.blue)
        for index in range {
            let line = lines[index]
            cairo_move_to(cairo, x + indent + line.x, y + line.baseline - origin)
            pango_cairo_show_layout_line(cairo, pango_layout_get_line_readonly(layout, Int32(index)))
        }
    }
}
