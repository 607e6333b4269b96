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

    /// Waits (at most `timeout` seconds) until both copies hold the same files, byte for byte:
    /// nil then; else what they differ by.
    public func waitInStep(timeout: TimeInterval = 60) -> String? {
        let answer = script.tell("in-step \(Int(timeout))")
        return answer == "done" ? nil : answer
    }

    /// The names in the shared folder (and its photos folder), Syncthing's own left out.
    public func names() -> [String] {
        script.tell("names").split(separator: "\t").map(String.init)
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
}
