import CGtk
import Foundation

/// A book written as a PDF file with cairo's PDF surface, a page at a time (nothing needs a
/// display): for `flourish --export pdf`. It writes where it is told; the caller writes to a
/// partial name and renames it once whole (the app's AtomicFile), as every export does.
public enum BookPDF {
    public struct Written: Equatable, Sendable {
        public let pages: Int
        public let unreadablePhotos: Int
    }

    public struct Failure: Error, Equatable, Sendable {
        /// nil when it was cancelled.
        public let reason: String?
    }

    /// The paper this computer's locale asks for (A4, or Letter in the United States and
    /// Canada), in points: GTK's answer, which reads the locale and needs no display.
    public static func localePaper() -> (width: Double, height: Double) {
        guard let paper = gtk_paper_size_new(nil) else { return (595.28, 841.89) }
        defer { gtk_paper_size_free(paper) }
        return (gtk_paper_size_get_width(paper, GTK_UNIT_POINTS), gtk_paper_size_get_height(paper, GTK_UNIT_POINTS))
    }

    /// Writes `source` to `path` on paper of `size` (points), replacing what is there (keeping
    /// its permissions). `progress` hears each page done, and returns false to cancel.
    public static func write(_ source: BookSource, to path: String, size: (width: Double, height: Double), title: String,
                             progress: (Int) -> Bool = { _ in true }) throws(Failure) -> Written {
        guard let surface = cairo_pdf_surface_create(path, size.width, size.height),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw Failure(reason: "cairo could not start the PDF")
        }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Flourish")
        let renderer = BookRenderer(source: source, pageWidth: size.width, pageHeight: size.height)
        var cursor: BookRenderer.Cursor? = BookRenderer.Cursor()
        var pages = 0
        var cancelled = false
        while let start = cursor {
            let cairo = cairo_create(surface)!
            pages += 1
            cursor = renderer.page(from: start, number: pages, on: cairo, drawing: true)
            cairo_destroy(cairo)
            cairo_surface_show_page(surface)
            if !progress(pages) {
                cancelled = true
                break
            }
        }
        addOutline(renderer.bookmarks, to: surface)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard !cancelled else { throw Failure(reason: nil) }
        guard status == CAIRO_STATUS_SUCCESS else { throw Failure(reason: String(cString: cairo_status_to_string(status))) }
        return Written(pages: pages, unreadablePhotos: renderer.unreadablePhotos)
    }

    /// The PDF's outline: each year, and under it each of its months, pointing at its page.
    static func addOutline(_ bookmarks: [BookRenderer.PlacedBookmark], to surface: OpaquePointer) {
        guard cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_PDF else { return }
        var parent = Int32(CAIRO_PDF_OUTLINE_ROOT)
        for placed in bookmarks {
            let link = String(format: "page=%d pos=[0 %.1f]", placed.page, placed.y)
            if placed.bookmark.level == 0 {
                parent = cairo_pdf_surface_add_outline(surface, Int32(CAIRO_PDF_OUTLINE_ROOT), placed.bookmark.title, link,
                                                       CAIRO_PDF_OUTLINE_FLAG_OPEN)
            } else {
                _ = cairo_pdf_surface_add_outline(surface, parent, placed.bookmark.title, link, cairo_pdf_outline_flags_t(rawValue: 0))
            }
        }
    }
}
