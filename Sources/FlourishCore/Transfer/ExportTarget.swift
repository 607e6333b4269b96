import Foundation

/// Where one export writes: its text (one file, a file a year, or the ZIP file's journal.json)
/// and, for the formats that include them, the photos' originals (a folder beside the Markdown,
/// the ZIP file's photos/). Nothing gets its name until everything is written, and then
/// everything does: a failed or cancelled export leaves nothing behind.
///
/// Photos are written in the clear only here, where the person asked the export to go.
final class ExportTarget {
    let format: ExportFormat
    let path: String
    /// The photos' folder as the text names it: "photos/" (ZIP, JSON, a file a year) or
    /// "<name>-photos/" beside one Markdown file.
    let photoPrefix: String

    private var files: [AtomicFile] = []
    private var current: AtomicFile?
    private var zip: ZIPExport?
    private let photoFolder: ExportPhotoFolder?

    /// The folder a Markdown export at `path` writes its photos to, if any.
    static func photoFolder(of format: ExportFormat, at path: String) -> String? {
        switch format {
        case .markdown:
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            return ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(stem + "-photos")
        case .markdownByYear: return (path as NSString).appendingPathComponent("photos")
        case .json, .zip, .csv: return nil
        }
    }

    init(_ format: ExportFormat, path: String) throws(ExportFailure) {
        self.format = format
        self.path = path
        photoFolder = Self.photoFolder(of: format, at: path).map(ExportPhotoFolder.init(path:))
        photoPrefix = format == .markdown ? ((photoFolder?.path ?? "") as NSString).lastPathComponent + "/" : "photos/"
        switch format {
        case .zip: zip = try ZIPExport(path: path)
        case .markdownByYear: break
        case .json, .csv, .markdown:
            let file = try AtomicFile(path: path)
            current = file
            files = [file]
        }
    }

    /// A file a year: the year's file begins (the one before it is finished, not named yet).
    func startYear(_ year: Int) throws(ExportFailure) {
        if let done = current { try done.finishWriting() }
        let file = try AtomicFile(path: (path as NSString).appendingPathComponent("Flourish journal \(year).md"))
        files.append(file)
        current = file
    }

    func write(_ text: String) throws(ExportFailure) {
        if let zip { try zip.write(text) } else { try current?.write(text) }
    }

    /// A photo's original, under the name `ExportPhotoNames` gave it.
    func addPhoto(_ bytes: Data, as name: String) throws(ExportFailure) {
        if let zip { try zip.addPhoto(bytes, as: name) } else { try photoFolder?.add(bytes, as: name) }
    }

    /// Finishes and names everything; returns the files written.
    func commit() throws(ExportFailure) -> [String] {
        if let zip {
            try zip.commit()
            return [zip.path]
        }
        for file in files { try file.finishWriting() }
        try photoFolder?.commit()
        for file in files { try file.commit() }
        return files.map(\.path)
    }

    func abandon() {
        zip?.abandon()
        photoFolder?.abandon()
        for file in files { file.abandon() }
    }
}
