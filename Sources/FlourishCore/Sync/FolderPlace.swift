import Foundation

/// A sync place that is a folder on this machine (kept in step with other machines by
/// something else). A new file is written whole under a hidden temporary name, flushed, then
/// linked to its name: `link` fails when the name is taken, so a file is never replaced, and
/// a folder-syncing tool never sees half a file under a real name.
public struct FolderPlace: SyncPlace {
    public let path: String

    public init(path: String) {
        self.path = (path as NSString).standardizingPath
    }

    public var displayName: String { path }

    public func prepare(create: Bool) throws(SyncError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw .notAJournal(place: path) }
            guard access(path, R_OK | W_OK | X_OK) == 0 else { throw failure(errno) }
            return
        }
        guard create else { throw .missing(place: path) }
        // Only the folder itself: a missing parent is more likely a typo than a wish.
        guard mkdir(path, 0o700) == 0 else { throw failure(errno) }
    }

    public func list(_ folder: String) throws(SyncError) -> [String] {
        let entries: [LocalFiles.Entry]
        do {
            entries = try LocalFiles.entries(in: full(folder))
        } catch {
            if error.code == ENOENT { return [] }
            throw failure(error.code)
        }
        // Hidden names are half-written files (ours or a syncing tool's).
        return entries.filter { !$0.name.hasPrefix(".") && !$0.isFolder }.map(\.name)
    }

    /// Only a regular file, not through a link, and no larger than `SyncLimits.largestFile`:
    /// anything else under a name sync reads (a pipe that would block, a link to a device, a
    /// sparse file of gigabytes) is `.skippedFile`, never opened or never read whole.
    public func read(_ name: String) throws(SyncError) -> Data? {
        let file = full(name)
        var status = stat()
        guard lstat(file, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw failure(errno)
        }
        guard Self.isReadable(status) else { throw .skippedFile(name: name) }
        // Not following a link, and not waiting on a pipe put there since the look.
        let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw .skippedFile(name: name) }
            throw failure(errno)
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw failure(errno) }
        guard Self.isReadable(status) else { throw .skippedFile(name: name) }
        var contents = Data(capacity: Int(status.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 { if errno == EINTR { continue }; throw failure(errno) }
            if got == 0 { return contents }
            contents.append(contentsOf: chunk[..<got])
            // It grew since the look: stopped at the limit, not read on.
            guard contents.count <= SyncLimits.largestFile else { throw .skippedFile(name: name) }
        }
    }

    private static func isReadable(_ status: stat) -> Bool {
        (status.st_mode & S_IFMT) == S_IFREG && status.st_size <= SyncLimits.largestFile
    }

    public func create(_ name: String, contents: Data) throws(SyncError) {
        try write(name, contents) { temporary, file throws(SyncError) in
            guard link(temporary, file) == 0 else {
                if errno == EEXIST { throw .fileExists(name: name) }
                throw failure(errno)
            }
        }
    }

    /// Written whole beside it, then renamed over it: a reader sees the old file or the new one.
    public func replace(_ name: String, contents: Data) throws(SyncError) {
        try write(name, contents) { temporary, file throws(SyncError) in
            guard rename(temporary, file) == 0 else { throw failure(errno) }
        }
    }

    /// All written first, then each flushed and linked to its name, then each folder flushed
    /// once: the disk writes a batch of photos together, not one flush after another. A name
    /// only ever links a file already flushed whole.
    public func createEach(_ files: [(name: String, contents: Data)]) throws(SyncError) {
        var written: [Written] = []
        defer { for file in written { file.discard() } }
        for (name, contents) in files { written.append(try write(name, contents)) }
        for file in written { try file.flush(failure) }
        for file in written {
            // A name taken already holds the same photo: another machine sent it a moment ago.
            guard link(file.temporary, file.file) == 0 || errno == EEXIST else { throw failure(errno) }
        }
        for folder in Set(written.map(\.folder)) { try flushFolder(folder) }
    }

    /// Writes `contents` to a hidden temporary file, flushed, has `place` put it under its name,
    /// and flushes the folder: the new name itself is on disk before the change log is trimmed.
    private func write(_ name: String, _ contents: Data,
                       place: (_ temporary: String, _ file: String) throws(SyncError) -> Void) throws(SyncError) {
        let written = try write(name, contents)
        defer { written.discard() }
        try written.flush(failure)
        try place(written.temporary, written.file)
        try flushFolder(written.folder)
    }

    /// A file written under a hidden temporary name beside `file`, still open, not flushed.
    private struct Written {
        let descriptor: Int32
        let temporary: String
        let file: String
        var folder: String { (file as NSString).deletingLastPathComponent }

        func flush(_ failure: (Int32) -> SyncError) throws(SyncError) {
            guard fsync(descriptor) == 0 else { throw failure(errno) }
        }

        /// Closes it, and removes the temporary name (once linked or renamed, or on a failure).
        func discard() {
            close(descriptor)
            unlink(temporary)
        }
    }

    private func write(_ name: String, _ contents: Data) throws(SyncError) -> Written {
        let file = full(name)
        let folder = (file as NSString).deletingLastPathComponent
        if folder != path, mkdir(folder, 0o700) != 0, errno != EEXIST { throw failure(errno) }
        let temporary = (folder as NSString).appendingPathComponent(".\((file as NSString).lastPathComponent).\(UUID().uuidString).part")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(errno) }
        let written = Written(descriptor: descriptor, temporary: temporary, file: file)
        let complete = contents.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                // Inside the loop the buffer is not empty, so it has an address.
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 { if errno == EINTR { continue }; return false }
                offset += count
            }
            return true
        }
        guard complete else {
            let problem = errno
            written.discard()
            throw failure(problem)
        }
        return written
    }

    private func flushFolder(_ folder: String) throws(SyncError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure(errno) }
    }

    public func remove(_ name: String) throws(SyncError) {
        guard unlink(full(name)) == 0 || errno == ENOENT else { throw failure(errno) }
    }

    private func full(_ name: String) -> String {
        name.isEmpty ? path : (path as NSString).appendingPathComponent(name)
    }

    /// The error a system call's errno means here.
    private func failure(_ code: Int32) -> SyncError {
        switch code {
        case ENOENT, ENOTDIR: .missing(place: path)
        case EACCES, EPERM, EROFS: .permissionDenied(place: path)
        case ENOSPC, EDQUOT: .full(place: path)
        default: .unreachable(place: path, reason: String(cString: strerror(code)))
        }
    }
}
