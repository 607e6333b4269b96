import Foundation
import Glibc
import ZIPFoundation

/// The "Everything, with photos" export: a ZIP file holding `journal.json` (the JSON export's
/// document, each entry naming its photos) and `photos/` with each photo's original, byte for
/// byte. It is written as `AtomicFile` writes: under a hidden name beside its own, readable by
/// its owner only, renamed once whole.
///
/// Photos go into the ZIP file as the export meets them, one at a time: a journal may hold
/// gigabytes of them. The JSON text, whose length the ZIP file must be told before it, is first
/// written to a private file that has no name on the disk (removed as soon as it is opened, so
/// nothing of it stays whatever happens), then copied into the ZIP file last.
final class ZIPExport {
    static let journalMember = "journal.json"
    static let photosFolder = "photos/"

    let path: String
    private let partial: String
    private var archive: Archive?
    private let text: FileHandle
    private var textSize: Int64 = 0
    private var closed = false
    private var named = false

    init(path: String) throws(ExportFailure) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        let hidden = (folder.isEmpty ? "." : folder) + "/." + (path as NSString).lastPathComponent + ".\(UUID().uuidString.prefix(8))"
        partial = hidden + ".part"
        // An empty ZIP file (its end record alone), made private before anything is in it.
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .file(path: path, reason: String(cString: strerror(errno))) }
        let empty = [UInt8]([0x50, 0x4B, 0x05, 0x06]) + [UInt8](repeating: 0, count: 18)
        let wrote = Glibc.write(descriptor, empty, empty.count)
        close(descriptor)
        let textDescriptor = open(hidden + ".json.part", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if textDescriptor >= 0 { unlink(hidden + ".json.part") }
        guard wrote == empty.count, textDescriptor >= 0, let archive = try? Archive(url: URL(fileURLWithPath: partial), accessMode: .update) else {
            let reason = String(cString: strerror(errno))
            if textDescriptor >= 0 { close(textDescriptor) }
            unlink(partial)
            throw .file(path: path, reason: reason)
        }
        self.archive = archive
        text = FileHandle(fileDescriptor: textDescriptor, closeOnDealloc: true)
    }

    /// A piece of `journal.json`.
    func write(_ piece: String) throws(ExportFailure) {
        let data = Data(piece.utf8)
        do {
            try text.write(contentsOf: data)
        } catch {
            throw .file(path: path, reason: (error as NSError).localizedDescription)
        }
        textSize += Int64(data.count)
    }

    /// A photo's original, as `photos/NAME`, stored as it is (pictures are compressed already).
    func addPhoto(_ bytes: Data, as name: String) throws(ExportFailure) {
        try add(Self.photosFolder + name, size: Int64(bytes.count), compression: .none) { position, size in
            bytes.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    /// Puts `journal.json` in, flushes the file to disk and closes it, still under its hidden name.
    func finishWriting() throws(ExportFailure) {
        guard !closed else { return }
        closed = true
        do {
            try text.seek(toOffset: 0)
        } catch {
            throw .file(path: path, reason: (error as NSError).localizedDescription)
        }
        try add(Self.journalMember, size: textSize, compression: .deflate) { [text] _, size in try text.read(upToCount: size) ?? Data() }
        try? text.close()
        archive = nil
        let descriptor = open(partial, O_RDONLY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        guard descriptor >= 0, fsync(descriptor) == 0 else { throw .file(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Gives the finished file its name.
    func commit() throws(ExportFailure) {
        try finishWriting()
        guard !named else { return }
        guard rename(partial, path) == 0 else { throw .file(path: path, reason: String(cString: strerror(errno))) }
        named = true
    }

    /// Throws the partial file away (a failure, a cancel); a file already named stays.
    func abandon() {
        if !closed {
            closed = true
            try? text.close()
            archive = nil
        }
        if !named { unlink(partial) }
    }

    private func add(_ member: String, size: Int64, compression: CompressionMethod, provider: Provider) throws(ExportFailure) {
        guard let archive else { preconditionFailure("\(member) added after the ZIP file was finished") }
        do {
            try archive.addEntry(with: member, type: .file, uncompressedSize: size, permissions: 0o600,
                                 compressionMethod: compression, provider: provider)
        } catch {
            throw .file(path: path, reason: (error as NSError).localizedDescription)
        }
    }
}
