import CGtk
import Foundation

/// A book through GtkPrintOperation: GTK's print dialog (with its preview, page setup and
/// "Print to File"), or straight to a PDF file (`export(to:)`). Pages are laid out one per
/// "paginate" (the window stays live between them) and drawn by the same `BookRenderer` as
/// `BookPDF`, on the paper GTK gives. The operation keeps this object until it is done.
@MainActor
public final class BookPrint {
    public enum Outcome: Equatable {
        case printed
        case cancelled
        case failed(String)
    }

    private let source: BookSource
    private let title: String
    private let operation: UnsafeMutablePointer<GtkPrintOperation>
    private var renderer: BookRenderer?
    /// Where each page laid out so far starts.
    private var starts: [BookRenderer.Cursor] = [BookRenderer.Cursor()]
    private var next: BookRenderer.Cursor? = BookRenderer.Cursor()
    private var completion: ((Outcome) -> Void)?
    private var retained: Unmanaged<BookPrint>?

    public init(source: BookSource, title: String) {
        self.source = source
        self.title = title
        operation = gtk_print_operation_new()
        gtk_print_operation_set_job_name(operation, title)
        // Points, the page's own origin: the renderer keeps its margins inside the paper.
        gtk_print_operation_set_unit(operation, GTK_UNIT_POINTS)
        gtk_print_operation_set_use_full_page(operation, 1)
        gtk_print_operation_set_allow_async(operation, 1)
        gtk_print_operation_set_show_progress(operation, 1)
        gtk_print_operation_set_embed_page_setup(operation, 1)
        let setup = gtk_page_setup_new()!
        if let paper = gtk_paper_size_new(nil) {
            gtk_page_setup_set_paper_size(setup, paper)
            gtk_paper_size_free(paper)
        }
        gtk_print_operation_set_default_page_setup(operation, setup)
        g_object_unref(UnsafeMutableRawPointer(setup))
        connectSignals()
    }

    /// Opens GTK's print dialog over `parent`; `completion` hears how it ended.
    public func showDialog(over parent: Window, completion: @escaping (Outcome) -> Void) {
        run(GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG, parent: parent, completion: completion)
    }

    /// Writes the book to a PDF file at `path` without a dialog.
    public func export(to path: String, over parent: Window, completion: @escaping (Outcome) -> Void) {
        gtk_print_operation_set_export_filename(operation, path)
        run(GTK_PRINT_OPERATION_ACTION_EXPORT, parent: parent, completion: completion)
    }

    private func run(_ action: GtkPrintOperationAction, parent: Window, completion: @escaping (Outcome) -> Void) {
        self.completion = completion
        retained = Unmanaged.passRetained(self)
        var error: UnsafeMutablePointer<GError>?
        let result = gtk_print_operation_run(operation, action, UnsafeMutablePointer<GtkWindow>(OpaquePointer(parent.raw)), &error)
        if result == GTK_PRINT_OPERATION_RESULT_ERROR {
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "the print could not start"
            if let error { g_error_free(error) }
            finish(.failed(message))
        }
    }

    private func finish(_ outcome: Outcome) {
        guard let completion else { return }
        self.completion = nil
        completion(outcome)
        // GTK may keep the operation a while (an async print's last steps): nothing of it calls
        // back into this object once it is released.
        g_signal_handlers_disconnect_matched(UnsafeMutableRawPointer(operation), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil,
                                             Unmanaged.passUnretained(self).toOpaque())
        g_object_unref(UnsafeMutableRawPointer(operation))
        retained?.release()
        retained = nil
    }

    // MARK: - The operation's signals

    private func beginPrint(_ context: OpaquePointer) {
        renderer = BookRenderer(source: source, pageWidth: gtk_print_context_get_width(context),
                                pageHeight: gtk_print_context_get_height(context))
        starts = [BookRenderer.Cursor()]
        next = BookRenderer.Cursor()
    }

    /// Lays out one more page; true once the last is laid out.
    private func paginate(_ context: OpaquePointer) -> Bool {
        guard let renderer, let start = next, let cairo = gtk_print_context_get_cairo_context(context) else { return true }
        cairo_save(cairo)
        next = renderer.page(from: start, number: starts.count, on: cairo, drawing: false)
        cairo_restore(cairo)
        if let next { starts.append(next) }
        gtk_print_operation_set_n_pages(operation, Int32(starts.count))
        return next == nil
    }

    private func drawPage(_ context: OpaquePointer, _ number: Int) {
        guard let renderer, number < starts.count, let cairo = gtk_print_context_get_cairo_context(context) else { return }
        _ = renderer.page(from: starts[number], number: number + 1, on: cairo, drawing: true)
        // Printed to a PDF (Print to File, or an export): its outline, before cairo ends the file.
        if number == starts.count - 1 { BookPDF.addOutline(renderer.bookmarks, to: cairo_get_target(cairo)) }
    }

    private func done(_ result: GtkPrintOperationResult) {
        switch result {
        case GTK_PRINT_OPERATION_RESULT_APPLY: finish(.printed)
        case GTK_PRINT_OPERATION_RESULT_ERROR:
            var error: UnsafeMutablePointer<GError>?
            gtk_print_operation_get_error(operation, &error)
            finish(.failed(error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "the print failed"))
        default: finish(.cancelled)
        }
    }

    private func connectSignals() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let begin: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, maybeContext, maybeData in
            guard let maybeContext, let maybeData else { return }
            nonisolated(unsafe) let (context, data) = (maybeContext, maybeData)
            MainActor.assumeIsolated { Unmanaged<BookPrint>.fromOpaque(data).takeUnretainedValue().beginPrint(context) }
        }
        let paginate: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, maybeContext, maybeData in
            guard let maybeContext, let maybeData else { return 1 }
            nonisolated(unsafe) let (context, data) = (maybeContext, maybeData)
            return MainActor.assumeIsolated { Unmanaged<BookPrint>.fromOpaque(data).takeUnretainedValue().paginate(context) ? 1 : 0 }
        }
        let draw: @convention(c) (OpaquePointer?, OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, maybeContext, page, maybeData in
            guard let maybeContext, let maybeData else { return }
            nonisolated(unsafe) let (context, data) = (maybeContext, maybeData)
            MainActor.assumeIsolated { Unmanaged<BookPrint>.fromOpaque(data).takeUnretainedValue().drawPage(context, Int(page)) }
        }
        let done: @convention(c) (OpaquePointer?, GtkPrintOperationResult, UnsafeMutableRawPointer?) -> Void = { _, result, maybeData in
            guard let maybeData else { return }
            nonisolated(unsafe) let data = maybeData
            MainActor.assumeIsolated { Unmanaged<BookPrint>.fromOpaque(data).takeUnretainedValue().done(result) }
        }
        let instance = UnsafeMutableRawPointer(operation)
        g_signal_connect_data(instance, "begin-print", unsafeBitCast(begin, to: GCallback.self), me, nil, GConnectFlags(rawValue: 0))
        g_signal_connect_data(instance, "paginate", unsafeBitCast(paginate, to: GCallback.self), me, nil, GConnectFlags(rawValue: 0))
        g_signal_connect_data(instance, "draw-page", unsafeBitCast(draw, to: GCallback.self), me, nil, GConnectFlags(rawValue: 0))
        g_signal_connect_data(instance, "done", unsafeBitCast(done, to: GCallback.self), me, nil, GConnectFlags(rawValue: 0))
    }
}
