import Foundation

/// A file written beside its final name and renamed into place only when whole, readable by its
/// owner only: a failed or cancelled export never leaves half a file, nor touches a file that
/// was there before it.
public final class AtomicFile {
    public let path: String
    /// Where the file is written until it is whole: a hidden name beside it. Another writer
    /// (GTK's print to a PDF) may write here; `commit` then names it.
    public let partial: String
    private let handle: FileHandle
    private var closed = false
    private var named = false

    public init(path: String) throws(ExportFailure) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        partial = (folder.isEmpty ? "." : folder) + "/." + (path as NSString).lastPathComponent + ".\(UUID().uuidString.prefix(8)).part"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .file(path: path, reason: String(cString: strerror(errno))) }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    func write(_ text: String) throws(ExportFailure) {
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw .file(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Flushes it to disk and closes it, still under its partial name.
    func finishWriting() throws(ExportFailure) {
        guard !closed else { return }
        closed = true
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw .file(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Gives the finished file its name.
    public func commit() throws(ExportFailure) {
        try finishWriting()
        guard !named else { return }
        guard rename(partial, path) == 0 else { throw .file(path: path, reason: String(cString: strerror(errno))) }
        named = true
    }

    /// Throws the partial file away (a failure, a cancel); a file already named stays.
    public func abandon() {
        if !closed {
            closed = true
            try? handle.close()
        }
        if !named { unlink(partial) }
    }
}
