import Foundation

/// A folder being imported (Markdown notes), its files read as they are needed, by their paths
/// inside it. Only regular files are read: a pipe or a device placed in it is never opened.
final class ImportFolder: ImportFiles, @unchecked Sendable {
    let root: String
    /// Every regular file's path inside the folder, found once ("2024/2024-03-02.md"); hidden
    /// files and folders (".obsidian", ".trash") are left out.
    let paths: [String]
    /// The same, to look up: a listed folder serves its own files and nothing else ("../x",
    /// a link out of it), whatever a note names.
    private let listed: Set<String>?

    /// A folder holding more files than this is not a journal's: its listing stops there.
    static let fileLimit = 200_000

    /// `listing` false: no listing (`paths` empty), files read by their paths alone (pictures
    /// a journal links to anywhere on this computer).
    init(root: String, listing: Bool = true) {
        self.root = root
        var found: [String] = []
        guard listing else {
            paths = []
            listed = nil
            return
        }
        let base = URL(fileURLWithPath: root)
        if let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey],
                                                       options: [.skipsHiddenFiles]) {
            for case let url as URL in walker {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
                let path = url.standardizedFileURL.path
                let prefix = base.standardizedFileURL.path + "/"
                if path.hasPrefix(prefix) { found.append(String(path.dropFirst(prefix.count))) }
                if found.count >= Self.fileLimit { break }
            }
        }
        paths = found.sorted()
        listed = Set(found)
    }

    private func regularFile(_ member: String) -> String? {
        if let listed, !listed.contains(member) { return nil }
        let path = (root as NSString).appendingPathComponent(member)
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return path
    }

    func data(of member: String) throws -> Data? {
        guard let path = regularFile(member) else { return nil }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func data(of member: String, limit: Int) throws -> Data? {
        guard let path = regularFile(member) else { return nil }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= limit else { throw ImportArchive.TooLarge(member: member, limit: limit) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func size(of member: String) -> UInt64? {
        guard let path = regularFile(member) else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value
    }

    func head(of member: String, count: Int) -> Data? {
        guard let path = regularFile(member), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: count)
    }
}
