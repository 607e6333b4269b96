import Foundation

/// What a printed book is made of, as the app hands it to `BookRenderer`: plain values, no
/// pointers. The renderer flows the pieces down the pages, breaking text between lines.
public enum BookPiece {
    /// Text in Pango markup.
    case text(BookText)
    /// A photo, fitted to the text width (and to `BookRenderer.photoShare` of the page's height).
    case photo(BookPhoto)
    /// Years in pixels, two to a row: a square a day in the colour of its mood.
    case years([BookYear])
    /// Empty space, dropped at the top of a page.
    case space(Double)
    /// What follows starts a page of its own.
    case pageBreak
}

/// A colour, its parts from 0 to 1.
public struct BookColor: Equatable, Sendable {
    public let red: Double, green: Double, blue: Double

    public init(red: Double, green: Double, blue: Double) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }
}

/// A paragraph (or a few lines) of the book, set in one font.
public struct BookText {
    public enum Family: String, Sendable { case serif = "Serif", sans = "Sans", monospace = "Monospace" }

    public var markup: String
    public var family: Family
    /// Points.
    public var size: Double
    public var bold: Bool
    public var color: BookColor
    /// From the text's start side (the left for left-to-right text), in points.
    public var indent: Double
    /// Space kept below it, in points.
    public var spaceAfter: Double
    /// At least this much room (points) must follow it on its page, or it starts the next one:
    /// a heading is never left alone at the foot of a page.
    public var keepWithNext: Double
    /// A bar down the text's side in this colour (an entry's mood).
    public var bar: BookColor?
    /// The PDF outline's bookmark that points here (the page where its first line is set).
    public var bookmark: BookBookmark?

    /// `text` made safe for markup (Label.escaped), without the control characters other than
    /// line breaks and tabs that an import can bring: GMarkup refuses them, and Pango would then
    /// set nothing of the paragraph.
    public static func escaped(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where scalar == "\n" || scalar == "\t" ||
            !(scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF) {
            kept.append(scalar)
        }
        return Label.escaped(String(kept))
    }

    public init(markup: String, family: Family = .serif, size: Double = 11, bold: Bool = false,
                color: BookColor = BookColor(red: 0.2, green: 0.18, blue: 0.16), indent: Double = 0, spaceAfter: Double = 6,
                keepWithNext: Double = 0, bar: BookColor? = nil, bookmark: BookBookmark? = nil) {
        self.markup = markup
        self.family = family
        self.size = size
        self.bold = bold
        self.color = color
        self.indent = indent
        self.spaceAfter = spaceAfter
        self.keepWithNext = keepWithNext
        self.bar = bar
        self.bookmark = bookmark
    }
}

/// An entry of the PDF outline: a year (level 0) or a month within it (level 1).
public struct BookBookmark: Equatable, Sendable {
    public let title: String
    public let level: Int

    public init(title: String, level: Int) {
        self.title = title
        self.level = level
    }
}

/// A photo of an entry: its bytes, read only when its page is laid out or drawn.
public struct BookPhoto {
    public let bytes: () -> Data?
    /// Said in the photo's place when it cannot be read.
    public let name: String

    public init(name: String, bytes: @escaping () -> Data?) {
        self.name = name
        self.bytes = bytes
    }
}

/// One year in pixels for the cover: a row a month, a square a day.
public struct BookYear {
    public let year: Int
    /// Twelve months of days, each the colour of the day's mood; nil for a day without entries.
    public let days: [[BookColor?]]
    /// The twelve months' short names, for the rows.
    public let monthNames: [String]

    public init(year: Int, days: [[BookColor?]], monthNames: [String]) {
        self.year = year
        self.days = days
        self.monthNames = monthNames
    }
}

/// Where the book's pieces come from, a section at a time (the cover, then an entry each), so
/// that a book of ten years never holds more than one entry's pieces: each page is laid out
/// and drawn from its first section on, and sections are asked for again as pages need them.
public protocol BookSource: AnyObject {
    var sectionCount: Int { get }
    func pieces(ofSection index: Int) -> [BookPiece]
}
