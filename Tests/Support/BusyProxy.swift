import Foundation

/// A busy server in front of a real one (Tests/Support/busy_proxy.py): it answers the requests
/// it is told to with 423, 429 or 503 (with or without `Retry-After`), as Nextcloud does when it
/// is locked or throttling, and passes every other request on. Stopped by `stop()` or when it
/// goes away.
public final class BusyProxy {
    /// "http://127.0.0.1:PORT".
    public let address: String
    private let folder: String
    private let script: ServerScript

    public init(in folder: String, before upstream: WebDAVServer) throws {
        self.folder = folder
        script = try ServerScript("busy_proxy.py", arguments: [upstream.address, folder], words: 1)
        address = script.ready[0]
    }

    /// The address of `path` through the proxy, with the test user in it.
    public func url(_ path: String, user: String = WebDAVServer.user) -> String {
        address.replacingOccurrences(of: "http://", with: "http://\(user)@") + path
    }

    /// The next requests are answered, one each, with these statuses and `Retry-After` values
    /// (nil: none sent).
    public func answerBusy(_ answers: [(status: Int, retryAfter: String?)]) throws {
        let lines = answers.map { "\($0.status) \($0.retryAfter ?? "-")\n" }.joined()
        try Data(lines.utf8).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent("busy")))
    }

    /// Each request so far: when it came (seconds from the epoch), and the status it got.
    public func requests() throws -> [(at: Double, method: String, status: Int)] {
        let log = (folder as NSString).appendingPathComponent("proxy.log")
        guard FileManager.default.fileExists(atPath: log) else { return [] }
        return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 4, let at = Double(words[0]), let status = Int(words[3]) else { return nil }
            return (at, String(words[1]), status)
        }
    }

    public func stop() {
        script.stop()
    }
}
