import Foundation
import Glibc

/// The folder beside a journal that holds its photos ("journal-photos" beside "journal.sqlite"):
/// one file per photo, named by its content (`PhotoName`), and one per thumbnail ("<name>.thumb").
/// Files are written once, whole, and never changed: the journal and every backup of it refer
/// to the same files, so eleven backups do not keep eleven copies of a photo.
public struct PhotoFolder: Sendable {
    public let path: String

    /// The photo folder of the journal file `journal` (symbolic links followed).
    public init(journal: String) {
        let file = JournalFile.resolve(journal)
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        path = ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent("\(stem)-photos")
    }

    static let thumbnailSuffix = ".thumb"

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }

    /// Writes `bytes` as the file `name`, durably, before returning: into a private file under
    /// a temporary name, synced, renamed into place, and the folder synced. A crash leaves
    /// either no file or the whole one; never a part under the real name. A file already there
    /// is the same bytes (names come from content) and is left as it is.
    func write(_ bytes: Data, as name: String) throws(JournalError) {
        guard let staged = try stage(bytes, as: name) else { return }
        try keep([staged])
    }

    /// A file written under its temporary name but not yet flushed nor named: see `keep`.
    struct Staged: Sendable {
        let partial: String
        let name: String
    }

    /// Writes `bytes` under a temporary name for the file `name`, not flushed yet: `keep` flushes
    /// and names many at once, so that the disk writes them together (sync fetching hundreds of
    /// photos) rather than one flush after another. Nil when the file is there already.
    func stage(_ bytes: Data, as name: String) throws(JournalError) -> Staged? {
        guard !exists(name) else { return nil }
        return try stageAnew(bytes, as: name)
    }

    /// Writes `bytes` in place of the file `name`, durably, the way `write` writes a new one: only
    /// for a file sealed anew under another key (New Key…), which holds the same picture. A name
    /// another journal's folder shares (`adopt`) keeps the file it had there.
    func replace(_ bytes: Data, as name: String) throws(JournalError) {
        try keep([try stageAnew(bytes, as: name)])
    }

    private func stageAnew(_ bytes: Data, as name: String) throws(JournalError) -> Staged {
        let folder = path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotCreateFolder(path: folder, reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
        let partial = file(".\(name).\(UUID().uuidString).partial")
        let descriptor = open(partial, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure(errno) }
        var written = 0
        let complete = bytes.withUnsafeBytes { raw -> Bool in
            while written < raw.count {
                // Not empty here, so it has an address.
                let count = Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
        let failure = errno
        close(descriptor)
        guard complete else {
            unlink(partial)
            throw Self.failure(failure)
        }
        return Staged(partial: partial, name: name)
    }

    /// Makes staged files durable under their names: each flushed, then renamed into place, then
    /// the folder flushed once. A crash leaves each either missing or whole. On a failure, the
    /// staged files not yet named are removed.
    func keep(_ staged: [Staged]) throws(JournalError) {
        guard !staged.isEmpty else { return }
        var done = 0
        defer { for file in staged[done...] { unlink(file.partial) } }
        // Flushed first, all of them, before any is named: a name never points at part of a file.
        for file in staged {
            let descriptor = open(file.partial, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Self.failure(errno) }
            let flushed = fsync(descriptor) == 0
            let failure = errno
            close(descriptor)
            guard flushed else { throw Self.failure(failure) }
        }
        for file in staged {
            guard rename(file.partial, self.file(file.name)) == 0 else { throw Self.failure(errno) }
            done += 1
        }
        Self.syncFolder(path)
    }

    /// Takes the file `name` (and its thumbnail) from another journal's photo folder, as it is:
    /// a second name for the same file where the disk allows (files never change, so sharing
    /// them is safe), a private copy otherwise. A file missing there is left out.
    func adopt(_ name: String, from other: PhotoFolder) throws(JournalError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotCreateFolder(path: path, reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
        for file in [name, name + Self.thumbnailSuffix] where other.exists(file) && !exists(file) {
            guard link(other.file(file), self.file(file)) != 0 else { continue }
            do {
                try JournalFile.copyPrivately(other.file(file), to: self.file(file))
            } catch {
                throw .io(reason: (error as? JournalError)?.errorDescription ?? "\(error)")
            }
        }
        Self.syncFolder(path)
    }

    /// The file `name`'s bytes; nil when there is no such file.
    func read(_ name: String) throws(JournalError) -> Data? {
        guard exists(name) else { return nil }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file(name)))
        } catch {
            throw .io(reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
    }

    /// Every photo's name there (thumbnails, and files being written, left out).
    public func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter(PhotoName.isValid)
    }

    /// Removes a photo's file and its thumbnail.
    func remove(_ name: String) {
        unlink(file(name))
        unlink(file(name + Self.thumbnailSuffix))
    }

    /// Files a write left half done (killed before its rename), older than `age` seconds.
    func removeLeftovers(olderThan age: TimeInterval, now: Date = Date()) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where name.hasSuffix(".partial") {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file(name))
            if let modified = attributes?[.modificationDate] as? Date, now.timeIntervalSince(modified) > age {
                unlink(file(name))
            }
        }
    }

    /// Removes the temporary files of rewrites cut short (`replace`: a New Key… killed before its
    /// rename), each a `.partial` of a name the folder holds. Only a rewrite writes one of those
    /// (a new photo's name is not there yet: `stage`), and rewrites run holding the journal
    /// folder's lock exclusively, as this is called: none of them is still being written.
    func removeCutShortReplacements() {
        let suffix = ".partial"
        for entry in (try? LocalFiles.entries(in: path)) ?? [] where entry.name.hasPrefix(".") && entry.name.hasSuffix(suffix) {
            // ".<name>.<UUID>.partial"
            let inner = entry.name.dropFirst().dropLast(suffix.count)
            guard let dot = inner.lastIndex(of: ".") else { continue }
            if exists(String(inner[..<dot])) { unlink(file(entry.name)) }
        }
    }

    /// The folder's own entry of a new name, on the disk (rename is durable only once it is).
    private static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func failure(_ code: Int32) -> JournalError {
        code == ENOSPC ? .diskFull : .io(reason: String(cString: strerror(code)))
    }
}
