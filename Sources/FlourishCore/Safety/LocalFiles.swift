import Foundation

/// Reading files and folders of this machine with the system's own calls, where Foundation's
/// would not do: it reads a file of /proc no further than its first page (its size says 0), and
/// each of its calls costs some tens of microseconds more than the system's, which every opening
/// of a locked journal would pay (the key file read, the folder looked at for files set aside).
enum LocalFiles {
    /// A system call's failure: its `errno`.
    struct Failure: Error, Equatable {
        let code: Int32
    }

    /// One name in a folder, and whether the folder says it is a folder itself.
    struct Entry: Equatable {
        let name: String
        let isFolder: Bool
    }

    /// The file at `path` read whole (as long as it was when opened; a file of /proc, which says
    /// it has no size, to its end); nil when it cannot be opened or read.
    static func bytes(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        // A file of its size is read whole in one read; a file of /proc says it has no size, and
        // is read until a read says its end, the buffer growing as it needs to.
        let size = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: max(size, 4096)), used = 0
        while size == 0 || used < size {
            if used == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + used, $0.count - used) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? Array(bytes[0..<used]) : nil }
            used += count
        }
        return Array(bytes[0..<used])
    }

    /// Up to `count` bytes from the start of the file at `path`, as one read gives them: of a
    /// regular file, all of them it has (Linux reads a regular file short only at its end). For a
    /// look at a small file, one system call fewer than `bytes(of:)`; nil when it cannot be read.
    static func start(of path: String, upTo count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let got = read(descriptor, &bytes, count)
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return nil }
            return Array(bytes[0..<got])
        }
    }

    /// The names in `folder`, "." and ".." left out, in the order the folder gives them.
    static func entries(in folder: String) throws(Failure) -> [Entry] {
        guard let directory = opendir(folder) else { throw Failure(code: errno) }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." {
                entries.append(Entry(name: name, isFolder: entry.pointee.d_type == UInt8(DT_DIR)))
            }
        }
        return entries
    }
}
