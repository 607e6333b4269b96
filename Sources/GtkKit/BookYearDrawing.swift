import CGtk
import Foundation

/// A year in pixels on the book's cover, as the Insights page shows it: a row a month, a square
/// a day, filled in the colour of the day's mood, a day without entries left as an outline.
enum BookYearDrawing {
    /// A grid with its year above it, and the space below it.
    static let height = 12 * cell + 34
    /// A day's square with the gap after it, in points.
    static let cell = 7.0

    static func draw(_ year: BookYear, x: Double, y: Double, width: Double, pango: OpaquePointer, cairo: OpaquePointer) {
        let heading = BookText(markup: "\(year.year)", family: .sans, size: 11, bold: true,
                               color: BookColor(red: 170 / 255, green: 151 / 255, blue: 131 / 255))
        let title = Paragraph(heading, width: width, pango: pango)
        defer { title.release() }
        title.draw(lines: 0..<title.lines.count, at: x, y, color: heading.color, bar: nil, cairo: cairo)
        let gridTop = y + 18
        let labelWidth = 22.0
        let size = min(cell, (width - labelWidth) / 31)
        for (month, days) in year.days.enumerated() {
            let rowY = gridTop + Double(month) * size
            if month < year.monthNames.count {
                let label = BookText(markup: BookText.escaped(year.monthNames[month]), family: .sans, size: 5,
                                     color: BookColor(red: 0.45, green: 0.45, blue: 0.45))
                let paragraph = Paragraph(label, width: labelWidth - 2, pango: pango)
                paragraph.draw(lines: 0..<min(1, paragraph.lines.count), at: x, rowY, color: label.color, bar: nil, cairo: cairo)
                paragraph.release()
            }
            for (day, color) in days.enumerated() {
                let square = (x: x + labelWidth + Double(day) * size, y: rowY, side: size - 1.2)
                if let color {
                    cairo_set_source_rgb(cairo, color.red, color.green, color.blue)
                    cairo_rectangle(cairo, square.x, square.y, square.side, square.side)
                    cairo_fill(cairo)
                } else {
                    cairo_set_source_rgb(cairo, 0.85, 0.84, 0.8)
                    cairo_set_line_width(cairo, 0.4)
                    cairo_rectangle(cairo, square.x + 0.2, square.y + 0.2, square.side - 0.4, square.side - 0.4)
                    cairo_stroke(cairo)
                }
            }
        }
    }
}
