import Foundation
import GRDB

/// What is at the journal's path, found before Flourish writes anything there.
///
/// Everything here only reads: the main file through an `immutable` SQLite connection (no
/// locks, no -wal or -shm created, no pending -wal merged, no hot journal rolled back), its side
/// files with `stat`. A file that is not ours is refused exactly as it was found.
enum JournalFile {
    enum Kind: Equatable {
        /// Nothing there yet, an empty file, or an empty database: a new journal.
        case new
        /// A Flourish journal (by its recorded migrations) of this version or an older one.
        case journal(needsMigration: Bool)
    }

    /// The file SQLite will open for `path`: symbolic links followed, even one whose target does
    /// not exist yet (so that it is created private, where the link points).
    static func resolve(_ path: String) -> String {
        var current = path
        for _ in 0..<32 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = target.hasPrefix("/") ? target
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        return current
    }

    /// Makes sure the folder exists (created 0700) and, for a new journal, creates the empty file
    /// 0600 before SQLite sees it, so the journal and its -wal and -shm (which SQLite creates with
    /// the journal's own mode) are private from their first byte. An existing path is only looked
    /// at: it must be a regular file. Returns whether the file was created here.
    static func prepare(_ file: String, shownAs path: String) throws(JournalError) -> Bool {
        let folder = (file as NSString).deletingLastPathComponent
        let files = FileManager.default
        if !folder.isEmpty, !files.fileExists(atPath: folder) {
            do {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                          attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotCreateFolder(path: folder, reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
            }
        }
        var status = stat()
        if stat(file, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: return false
            case S_IFDIR: throw .isFolder(path: path)
            // A FIFO or a device would hang or mislead SQLite.
            default: throw .notAFile(path: path)
            }
        }
        let descriptor = open(file, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // Made by someone else since the stat: treat it as the existing file it is.
            if errno == EEXIST { return false }
            let reason = String(cString: strerror(errno))
            if errno == EACCES || errno == EROFS { throw .readOnly(path: path) }
            throw .cannotOpen(path: path, reason: reason)
        }
        close(descriptor)
        return true
    }

    /// What the existing regular file at `file` is. Refusals (another program's database, a newer
    /// Flourish's journal, a file that is not a database) throw, with nothing written.
    ///
    /// For a Flourish journal whole in its main file, the immutable connection it was read
    /// through comes back too: the store reads the journal through it until the health check,
    /// rather than opening a second one at start-up.
    ///
    /// A locked journal reads only through `cipher`; without it, `.locked`.
    static func inspect(_ file: String, shownAs path: String, cipher: JournalCipher? = nil) throws(JournalError) -> (kind: Kind, reader: DatabaseQueue?) {
        let pendingSideFiles = hasPendingSideFiles(file)
        guard size(of: file) > 0 else {
            // An empty file is a new journal, unless side files hold what was written to it.
            return (pendingSideFiles ? try inspectCopy(of: file, shownAs: path, cipher: cipher) : .new, nil)
        }
        if cipher == nil {
            guard hasSQLiteHeader(file) else {
                throw JournalLock.isLocked(file) ? .locked(path: path) : .damaged(path: path)
            }
        }
        do {
            // A connection not handed back is closed as it goes out of scope.
            let queue = try immutable(file, cipher: cipher)
            let kind = try classify(queue, shownAs: path)
            if case .journal = kind, !pendingSideFiles { return (kind, queue) }
            // A main file with no tables yet, while side files hold writes: what those writes
            // made decides (another program's new database, or a new journal that crashed).
            if kind == .new && pendingSideFiles { return (try inspectCopy(of: file, shownAs: path, cipher: cipher), nil) }
            return (kind, nil)
        } catch let error as JournalError {
            throw error
        } catch {
            // The main file alone does not read as a database. After a crash part of it may be in
            // the -wal still: look at both together, in a copy.
            if pendingSideFiles { return (try inspectCopy(of: file, shownAs: path, cipher: cipher), nil) }
            throw JournalError(error, path: path)
        }
    }

    /// Whether this version of Flourish has a journal's migrations all recorded.
    static func classify(_ queue: DatabaseQueue, shownAs path: String) throws -> Kind {
        try queue.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            guard !tables.isEmpty else { return .new }
            // Flourish stopped (killed, a power cut) while making a new journal: the migrations'
            // own table is there, with no migration recorded and no other table. No one's data.
            if tables == ["grdb_migrations"], try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") == 0 {
                return .new
            }
            let migrator = JournalSchema.migrator
            guard try db.tableExists("grdb_migrations"),
                  try migrator.appliedIdentifiers(db).contains(JournalSchema.firstMigration) else {
                throw JournalError.notAJournal(path: path)
            }
            if try migrator.hasBeenSuperseded(db) { throw JournalError.newerVersion(path: path) }
            return .journal(needsMigration: try !migrator.hasCompletedMigrations(db))
        }
    }

    /// SQLite's check of a journal's health: `quick_check` for a plain one (every page whole);
    /// for a locked one `integrity_check`, which also finds every index agreeing with its table.
    /// Each page of a locked journal opens only as itself, but a page put back from an older copy
    /// sealed by the same key opens too: the table and its indexes then disagree.
    static func healthCheck(_ cipher: JournalCipher?) -> String { cipher == nil ? "quick_check" : "integrity_check" }

    /// A read-only connection that takes no lock and never looks at (or makes) side files.
    /// Only right while no one writes the file: for a journal before its check, and rescue tools.
    static func immutable(_ file: String, cipher: JournalCipher? = nil) throws -> DatabaseQueue {
        var configuration = configuration(cipher)
        configuration.readonly = true
        configuration.label = "journal (read-only)"
        return try DatabaseQueue(path: cipher?.location(of: file, immutable: true) ?? uri(file, parameters: ["immutable=1"]),
                                 configuration: configuration)
    }

    /// Where SQLite finds `file`: the path itself, or for a locked journal the URI that reads it
    /// through the encrypting VFS.
    static func location(_ file: String, cipher: JournalCipher?) -> String {
        cipher?.location(of: file) ?? file
    }

    /// A connection's configuration; a locked journal's prepares every connection for the VFS.
    static func configuration(_ cipher: JournalCipher?) -> Configuration {
        var configuration = Configuration()
        if cipher != nil {
            configuration.prepareDatabase { db in try JournalCipher.prepare(db) }
        }
        return configuration
    }

    /// The main file and its side files copied into a private temporary folder, opened there (so
    /// that SQLite merges the -wal or rolls the hot journal back in the copy only) and classified.
    private static func inspectCopy(of file: String, shownAs path: String, cipher: JournalCipher?) throws(JournalError) -> Kind {
        do {
            return try withPrivateCopy(of: file, cipher: cipher) { queue in try classify(queue, shownAs: path) }
        } catch {
            throw JournalError(error, path: path) // a JournalError passes through as it is
        }
    }

    /// Runs `work` on a copy of the main file and its side files in a private temporary folder
    /// (removed afterwards): SQLite recovers the copy, never the original.
    /// A locked journal's copy is as sealed as the journal, and read through `cipher`.
    /// `salvaging`: see `JournalCipher.location(of:immutable:salvaging:)`.
    static func withPrivateCopy<T>(of file: String, cipher: JournalCipher? = nil, salvaging: Bool = false,
                                   _ work: (DatabaseQueue) throws -> T) throws -> T {
        let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("flourish-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = (folder as NSString).appendingPathComponent("journal.sqlite")
        // A locked journal never has a rollback journal: one beside it is not copied (nor played
        // back), see `SetAsideFiles`.
        let suffixes = cipher == nil ? ["", "-wal", "-journal"] : ["", "-wal"]
        for suffix in suffixes where FileManager.default.fileExists(atPath: file + suffix) {
            try copyPrivately(file + suffix, to: copy + suffix)
        }
        let queue = try DatabaseQueue(path: cipher?.location(of: copy, salvaging: salvaging) ?? copy, configuration: configuration(cipher))
        defer { try? queue.close() }
        return try work(queue)
    }

    /// Copies `source` to `target` (which must not exist) byte for byte; `target` is created
    /// 0600, so the copy is private from its first byte whatever the source's mode.
    static func copyPrivately(_ source: String, to target: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw JournalError.cannotOpen(path: source, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        let output = open(target, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw JournalError.cannotOpen(path: target, reason: String(cString: strerror(errno))) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = read(input, &buffer, buffer.count)
            if count == 0 { break }
            guard count > 0, write(output, buffer, count) == count else {
                throw JournalError.io(reason: String(cString: strerror(errno)))
            }
        }
        guard fsync(output) == 0 else { throw JournalError.io(reason: String(cString: strerror(errno))) }
    }

    /// Writes a whole, compacted copy of the database `queue` reads (SQLite's VACUUM INTO) into a
    /// new file at `target`. VACUUM INTO takes an existing empty file as it is: created 0600 here
    /// first, the copy is private from its first byte, never readable by others before a chmod.
    ///
    /// With `cipher` the copy is sealed by it, page by page, as it is written (from a locked
    /// journal or a plain one); without, it is plain (from a plain journal, or unlocking one).
    static func vacuum(_ queue: DatabaseQueue, intoNewFile target: String, cipher: JournalCipher? = nil) throws {
        let descriptor = open(target, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw JournalError.cannotOpen(path: target, reason: String(cString: strerror(errno))) }
        close(descriptor)
        try queue.inDatabase { db in
            // The copy's pages have room for a nonce and tag exactly when it is sealed.
            try JournalCipher.requestReserve(cipher == nil ? 0 : JournalCipher.reserve, db)
            // A plain copy names the system's own VFS: an attached file would otherwise go through
            // the connection's, the encrypting one when the source is locked.
            try db.execute(sql: "VACUUM INTO ?", arguments: [cipher?.location(of: target) ?? uri(target, parameters: ["vfs=unix"])])
        }
        if let cipher { try startLog(target, cipher: cipher) }
    }

    /// Puts a new sealed copy in WAL mode, as every locked journal is: from rollback mode, the
    /// switch would save page 1 in the clear in a rollback journal (which the VFS refuses), so it
    /// goes through "off", which keeps none, while nothing else has the new file open.
    private static func startLog(_ file: String, cipher: JournalCipher) throws {
        let queue = try DatabaseQueue(path: cipher.location(of: file), configuration: configuration(cipher))
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        try queue.close()
    }

    /// Whether side files hold part of the journal (a -wal not yet merged, a hot rollback journal).
    static func hasPendingSideFiles(_ file: String) -> Bool {
        size(of: file + "-wal") > 0 || size(of: file + "-journal") > 0
    }

    /// The bytes free for this user on the disk that holds `file`'s folder (0 when unknown).
    static func freeBytes(beside file: String) -> Int64 {
        var status = statvfs()
        let folder = (file as NSString).deletingLastPathComponent
        guard statvfs(folder.isEmpty ? "." : folder, &status) == 0 else { return 0 }
        return Int64(status.f_bavail) * Int64(status.f_frsize)
    }

    /// The file's size in bytes; 0 when it does not exist.
    static func size(of file: String) -> Int64 {
        var status = stat()
        return stat(file, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Whether the file starts with the 16 bytes every SQLite database starts with.
    static func hasSQLiteHeader(_ file: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: file) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
    }

    /// The SQLite URI for `file` with `parameters` (Debian's SQLite understands URIs in every
    /// open, ATTACH and VACUUM INTO).
    static func uri(_ file: String, parameters: [String]) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let escaped = file.addingPercentEncoding(withAllowedCharacters: allowed) ?? file
        return "file:\(escaped)?" + parameters.joined(separator: "&")
    }
}
