import Foundation

/// Small files Flourish keeps beside the journal (a locked journal's key file): written private
/// (0600) to a temporary name, flushed, renamed over the old one and the folder flushed, so that
/// after a crash the old file or the new one is there, whole.
enum PrivateFile {
    static func replace(_ path: String, with contents: Data) throws(JournalError) {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).\(UUID().uuidString).part")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { unlink(temporary) }
        let written = contents.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                // Inside the loop the buffer is not empty, so it has an address.
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 { if errno == EINTR { continue }; return false }
                offset += count
            }
            return true
        }
        let problem = written ? (fsync(descriptor) == 0 ? 0 : errno) : errno
        close(descriptor)
        guard problem == 0 else { throw .io(reason: String(cString: strerror(problem))) }
        guard rename(temporary, path) == 0 else { throw .io(reason: String(cString: strerror(errno))) }
        try syncFolder(of: path)
    }

    /// Flushes the folder holding `path`, so that a rename or a removal in it is on disk.
    static func syncFolder(of path: String) throws(JournalError) {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .io(reason: String(cString: strerror(errno))) }
    }
}
