import CGtk
import Foundation

/// What the desktop's clipboard holds that can be a photo: files copied in the file manager, or
/// a picture copied from another program (a screenshot, an image from a browser).
public enum ClipboardPicture: Sendable {
    case files([String])
    /// The picture as PNG: what GTK reads from the clipboard is pixels, whatever was copied.
    case png(Data)
}

/// The read in flight, with its completion; released when the read ends.
private final class ClipboardRead {
    let completion: @MainActor (ClipboardPicture?) -> Void
    init(_ completion: @escaping @MainActor (ClipboardPicture?) -> Void) { self.completion = completion }

    static func finish(_ data: UnsafeMutableRawPointer?, _ picture: ClipboardPicture?) {
        guard let data else { return }
        nonisolated(unsafe) let read = Unmanaged<ClipboardRead>.fromOpaque(data).takeRetainedValue()
        MainActor.assumeIsolated { read.completion(picture) }
    }
}

private let filesRead: GAsyncReadyCallback = { source, result, data in
    var error: UnsafeMutablePointer<GError>?
    let value = gdk_clipboard_read_value_finish(OpaquePointer(source), result, &error)
    if let error { g_error_free(error) }
    var paths: [String] = []
    if let value, let list = g_value_get_boxed(value) {
        let files = gdk_file_list_get_files(OpaquePointer(list))
        paths = FileList.paths(in: files)
        g_slist_free(files)
    }
    ClipboardRead.finish(data, paths.isEmpty ? nil : .files(paths))
}

private let textureRead: GAsyncReadyCallback = { source, result, data in
    var error: UnsafeMutablePointer<GError>?
    let texture = gdk_clipboard_read_texture_finish(OpaquePointer(source), result, &error)
    if let error { g_error_free(error) }
    var png: Data?
    if let texture {
        if let bytes = gdk_texture_save_to_png_bytes(texture) {
            var size: gsize = 0
            if let start = g_bytes_get_data(bytes, &size) { png = Data(bytes: start, count: Int(size)) }
            g_bytes_unref(bytes)
        }
        g_object_unref(UnsafeMutableRawPointer(texture))
    }
    ClipboardRead.finish(data, png.map { .png($0) })
}

/// A read waiting for the clipboard's formats: its "changed" handler and its time limit.
@MainActor
private final class FormatsWait {
    var changed: UInt = 0
    var timer: UInt32 = 0
    var done = false
}

extension Widget {
    /// Reads a photo from the clipboard of the widget's display: files when it holds files,
    /// else a picture; nil when it holds neither (text, say).
    public func readClipboardPicture(waitingAtMost milliseconds: UInt32 = 1_000,
                                     _ completion: @escaping @MainActor (ClipboardPicture?) -> Void) {
        let clipboard = gtk_widget_get_clipboard(raw)
        guard Self.awaitsFormats(clipboard) else {
            Self.readPicture(clipboard, completion)
            return
        }
        // Another program took the clipboard a moment ago: on X11 GTK knows no formats of it
        // until that program answers which it offers, and reading now would find nothing. Read
        // once they are known, or (an owner that never answers, or an empty clipboard, which
        // look the same from here) after `milliseconds`, as they are then.
        let wait = FormatsWait()
        let read: @MainActor () -> Void = {
            guard !wait.done else { return }
            wait.done = true
            g_signal_handler_disconnect(UnsafeMutableRawPointer(clipboard), wait.changed)
            MainLoop.cancel(wait.timer)
            Self.readPicture(clipboard, completion)
        }
        wait.changed = Signal.connect(UnsafeMutableRawPointer(clipboard!), "changed") {
            // GTK says "changed" for the new owner too, before it knows its formats.
            if !Self.awaitsFormats(clipboard) { read() }
        }
        wait.timer = MainLoop.after(milliseconds: milliseconds) { wait.timer = 0; read() }
    }

    /// Whether the clipboard belongs to another program whose formats GTK has not heard yet.
    public var clipboardAwaitsFormats: Bool { Self.awaitsFormats(gtk_widget_get_clipboard(raw)) }

    private static func awaitsFormats(_ clipboard: OpaquePointer?) -> Bool {
        guard gdk_clipboard_is_local(clipboard) == 0 else { return false }
        let formats = gdk_clipboard_get_formats(clipboard)
        var mimeTypes: gsize = 0, types: gsize = 0
        _ = gdk_content_formats_get_mime_types(formats, &mimeTypes)
        _ = gdk_content_formats_get_gtypes(formats, &types)
        return mimeTypes == 0 && types == 0
    }

    private static func readPicture(_ clipboard: OpaquePointer?, _ completion: @escaping @MainActor (ClipboardPicture?) -> Void) {
        let formats = gdk_clipboard_get_formats(clipboard)
        let data = Unmanaged.passRetained(ClipboardRead(completion)).toOpaque()
        if gdk_content_formats_contain_gtype(formats, gdk_file_list_get_type()) != 0 {
            gdk_clipboard_read_value_async(clipboard, gdk_file_list_get_type(), Int32(G_PRIORITY_DEFAULT), nil, filesRead, data)
        } else if gdk_content_formats_contain_gtype(formats, gdk_texture_get_type()) != 0 {
            gdk_clipboard_read_texture_async(clipboard, nil, textureRead, data)
        } else {
            ClipboardRead.finish(data, nil)
        }
    }
}
