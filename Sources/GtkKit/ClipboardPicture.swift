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

extension Widget {
    /// Reads a photo from the clipboard of the widget's display: files when it holds files,
    /// else a picture; nil when it holds neither (text, say).
    public func readClipboardPicture(_ completion: @escaping @MainActor (ClipboardPicture?) -> Void) {
        let clipboard = gtk_widget_get_clipboard(raw)
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
