import Foundation

/// Who may open the journal while its file is swapped or its side files moved.
///
/// Locking, unlocking and rewriting a locked journal in a newer page format write a new file and
/// rename it over the journal; setting aside a file planted beside it moves that file. A program
/// that opened the journal for writing just before the rename would write its saves to the old
/// file, gone from the folder: lost. So each of those holds the journal folder's lock
/// exclusively, having made sure no connection has the journal open (`othersHaveOpen`), and
/// every opening of a connection that writes (`JournalStore`) holds it shared: an opening waits
/// for a swap to end, and opens the new file. The lock is `flock` on the folder itself, never a
/// descriptor of the journal or its side files: closing one of those would drop SQLite's own
/// locks on them in this process.
enum JournalFolderLock {
    /// The lock of a journal's folder, held until `release()`.
    final class Held {
        private var descriptor: Int32

        fileprivate init(_ file: String, exclusive: Bool) {
            let folder = (file as NSString).deletingLastPathComponent
            descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor >= 0 {
                while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0, errno == EINTR {}
            }
        }

        func release() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }

        deinit { release() }
    }

    /// Takes the lock of the folder of the journal `file`: `exclusive` for a swap, shared for an
    /// opening. Waits for the other kind (a swap takes seconds on a large journal).
    static func take(_ file: String, exclusive: Bool) -> Held { Held(file, exclusive: exclusive) }

    /// Runs `body` holding the lock (see `take`).
    static func holding<T, E: Error>(_ file: String, exclusive: Bool, _ body: () throws(E) -> T) throws(E) -> T {
        let held = take(file, exclusive: exclusive)
        defer { held.release() }
        return try body()
    }

    /// Whether a connection (of any program, this one included) has the journal `file` open, by
    /// the locks SQLite's unix VFS holds for as long as one does: on the journal's file, and on
    /// its wal-index (`-shm`). Read from the kernel's list of locks (/proc/locks), so that no
    /// descriptor of those files is opened and closed here. A connection opened `immutable`
    /// holds none, and reads the file it opened to the end, the log never.
    static func othersHaveOpen(_ file: String) -> Bool {
        let identities = [file, file + "-shm"].compactMap(identity(of:))
        // Read to its end: a busy machine lists more than one page.
        guard !identities.isEmpty, let locks = LocalFiles.bytes(of: "/proc/locks").map({ String(decoding: $0, as: UTF8.self) }) else { return false }
        for line in locks.split(separator: "\n") {
            // "1: POSIX  ADVISORY  READ 1234 08:02:1835012 128 128" ("1: -> POSIX …" for one waiting)
            guard let field = line.split(separator: " ").first(where: { $0.split(separator: ":").count == 3 }) else { continue }
            let parts = field.split(separator: ":")
            guard let major = UInt64(parts[0], radix: 16), let minor = UInt64(parts[1], radix: 16),
                  let inode = UInt64(parts[2]) else { continue }
            if identities.contains(where: { $0 == (major, minor, inode) }) { return true }
        }
        return false
    }

    /// The device (major, minor) and inode of `path`, as /proc/locks names them.
    private static func identity(of path: String) -> (UInt64, UInt64, UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let device = UInt64(status.st_dev)
        // glibc's gnu_dev_major and gnu_dev_minor, which are macros.
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        return (major, minor, UInt64(status.st_ino))
    }
}
