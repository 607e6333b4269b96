import FlourishCore
import Foundation
import GRDB

/// Journals and other files in the states the safety tests need, made with the real store or
/// plain SQLite, and ways to look at them without changing them.
public enum DamagedJournals {
    /// A healthy journal of `count` entries whose bodies fill several pages each third entry.
    @discardableResult
    public static func journal(at path: String, count: Int) throws -> [Entry] {
        let store = try JournalStore(path: path)
        defer { store.close() }
        return try (0..<count).map { index in
            let body = index % 3 == 0 ? String(repeating: "A long day of words \(index). ", count: 200) : "Short \(index)."
            return try store.save(EntryDraft(title: "Entry \(index)", body: body, mood: Mood.allCases[index % 6]).validated().get(),
                                  createdAt: Date(timeIntervalSince1970: 86_400 * Double(index)))
        }
    }

    /// Zeroes the middle one of the pages that hold the entries (a b-tree leaf of `entry`, found
    /// with SQLite's dbstat), as a failing disk might: damage SQLite's checks can see, unlike a
    /// zeroed page of a long body's text, which has no checksum.
    public static func zeroMiddleLeafPage(of path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        // Immutable: a read-only connection to a WAL journal would leave a -wal and -shm behind.
        let queue = try DatabaseQueue(path: "file:\(path)?immutable=1", configuration: configuration)
        let leaves = try queue.read { db in
            try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = 'entry' AND pagetype = 'leaf' ORDER BY pageno")
        }
        try queue.close()
        guard !leaves.isEmpty else { throw CocoaError(.fileReadCorruptFile) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(leaves[leaves.count / 2] - 1) * 4096)
        handle.write(Data(count: 4096))
    }

    /// Every file in `folder` with its bytes and mode: what "left untouched" is checked against.
    public static func snapshot(of folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let path = (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path)) + Data("mode \(try permissions(of: path))".utf8)
        }
        return files
    }
}
