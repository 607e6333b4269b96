import Foundation

/// Two real Syncthing instances keeping one folder in step on 127.0.0.1, each with its own copy
/// of it (Tests/Support/syncthing_pair.py): two computers' sync folders, as people set them up.
/// Stopped by `stop()` or when it goes away.
public final class SyncthingPair {
    /// The two computers' copies of the shared folder.
    public let first: String, second: String
    private let script: ServerScript

    public init(in folder: String) throws {
        script = try ServerScript("syncthing_pair.py", arguments: [folder], words: 2)
        (first, second) = (script.ready[0], script.ready[1])
    }

    /// Waits (at most `timeout` seconds) until both copies hold the same files, byte for byte;
    /// false if they never do. A file being received is hidden until it is whole (Syncthing
    /// writes it as `.syncthing.NAME.tmp`), so the two differ until it is renamed in.
    @discardableResult
    public func waitInStep(timeout: TimeInterval = 60) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var settled = 0
        while Date() < deadline {
            // Twice in a row, a moment apart: Syncthing may be about to carry a file just made.
            settled = Self.files(in: first) == Self.files(in: second) ? settled + 1 : 0
            if settled == 2 { return true }
            usleep(300_000)
        }
        return false
    }

    /// The names in the shared folder (and its photos folder), Syncthing's own left out.
    public func names() -> [String] {
        Self.files(in: first).keys.sorted()
    }

    /// What the two copies differ by, for a failure's message: each name one of them lacks or
    /// holds other bytes under.
    public func difference() -> String {
        let (one, other) = (Self.files(in: first), Self.files(in: second))
        let names = Set(one.keys).union(other.keys).filter { one[$0] != other[$0] }.sorted()
        return names.map { "\($0): \(one[$0]?.count ?? -1) and \(other[$0]?.count ?? -1) bytes" }.joined(separator: "; ")
    }

    /// The two stop exchanging anything, as two computers apart do, until `resume`.
    public func pause() {
        script.tell("pause")
    }

    /// They connect again (waited for), and carry what each has that the other lacks.
    public func resume() {
        script.tell("resume")
    }

    public func stop() {
        script.stop()
    }

    /// Every file but Syncthing's own (`.stfolder`, half-received files), by path, with its bytes.
    private static func files(in folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [] {
            guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            let full = (folder as NSString).appendingPathComponent(path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[path] = FileManager.default.contents(atPath: full)
        }
        return files
    }
}
