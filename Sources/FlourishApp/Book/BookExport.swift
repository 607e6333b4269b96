import FlourishCore
import Foundation
import GtkKit

/// Writing a book of the journal as a PDF file, for the command line and the window alike.
public enum BookExport {
    /// What the window and the command line say before a locked journal's PDF is written.
    public static var plainWarning: String {
        tr("This journal is locked, but a PDF is not: anyone who has the file can read every entry in it.")
    }

    public struct Written: Sendable, Equatable {
        public let entries: Int
        public let pages: Int
        public let unreadable: Int
        public let unreadablePhotos: Int
    }

    public struct Failure: Error, Sendable, Equatable {
        public let message: String
    }

    /// Writes the entries `range` holds to `path` as a PDF, on the paper of the locale: beside
    /// its name, readable by its owner only, and renamed into place once whole.
    public static func writePDF(_ store: JournalStore, range: BookRange, to path: String,
                                progress: (Int) -> Bool = { _ in true }) -> Result<Written, Failure> {
        let content: BookContent
        do {
            content = try BookContent(store: store, plan: try store.bookPlan(range, calendar: .current), range: range)
        } catch {
            return .failure(Failure(message: error.errorDescription ?? tr("The journal could not be read.")))
        }
        let file: AtomicFile
        do throws(ExportFailure) {
            file = try AtomicFile(path: path)
        } catch {
            return .failure(Failure(message: error.message))
        }
        let written: BookPDF.Written
        do throws(BookPDF.Failure) {
            written = try BookPDF.write(content, to: file.partial, size: BookPDF.localePaper(), title: content.title, progress: progress)
        } catch {
            file.abandon()
            return .failure(Failure(message: error.reason.map { ExportFailure.file(path: path, reason: $0).message }
                                    ?? ExportFailure.cancelled.message))
        }
        do throws(ExportFailure) {
            try file.commit()
        } catch {
            file.abandon()
            return .failure(Failure(message: error.message))
        }
        return .success(Written(entries: content.plan.ids.count - content.unreadable, pages: written.pages,
                                unreadable: content.unreadable, unreadablePhotos: written.unreadablePhotos))
    }
}
