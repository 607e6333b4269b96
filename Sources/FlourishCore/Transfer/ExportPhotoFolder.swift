import Foundation

/// The folder of photos a Markdown export writes for its text's images. Made only when a first
/// photo comes, under a hidden name beside its own, each photo a private file written whole; it
/// gets its name only once the whole export is done, so a failed or cancelled export leaves
/// nothing. When a folder of that name is there already (an earlier export to the same place),
/// the new photos are moved into it, replacing those of the same name; nothing else in it is
/// touched, since the person may have put things there.
final class ExportPhotoFolder {
    let path: String
    private let partial: String
    private var made = false
    private var named = false

    init(path: String) {
        self.path = path
        let parent = (path as NSString).deletingLastPathComponent
        partial = (parent.isEmpty ? "." : parent) + "/." + (path as NSString).lastPathComponent + ".\(UUID().uuidString.prefix(8)).part"
    }

    /// Writes `bytes` as the file `name` (one from `ExportPhotoNames`, so new to this folder).
    func add(_ bytes: Data, as name: String) throws(ExportFailure) {
        if !made {
            guard mkdir(partial, 0o700) == 0 else { throw .file(path: path, reason: String(cString: strerror(errno))) }
            made = true
        }
        let file = (partial as NSString).appendingPathComponent(name)
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .file(path: path, reason: String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: bytes)
            try handle.synchronize()
            try handle.close()
        } catch {
            throw .file(path: (path as NSString).appendingPathComponent(name), reason: (error as NSError).localizedDescription)
        }
    }

    /// Gives the folder its name (or moves its photos into the one already there).
    func commit() throws(ExportFailure) {
        guard made, !named else { return }
        if rename(partial, path) != 0 {
            guard errno == EEXIST || errno == ENOTEMPTY else { throw .file(path: path, reason: String(cString: strerror(errno))) }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: partial)) ?? [] {
                guard rename((partial as NSString).appendingPathComponent(name), (path as NSString).appendingPathComponent(name)) == 0 else {
                    throw .file(path: path, reason: String(cString: strerror(errno)))
                }
            }
            rmdir(partial)
        }
        named = true
    }

    /// Throws the photos written away (a failure, a cancel); a folder already named stays.
    func abandon() {
        guard made, !named else { return }
        try? FileManager.default.removeItem(atPath: partial)
    }
}
