import Foundation

/// A real WebDAV server for a test: Apache httpd with mod_dav_fs and Basic authentication on
/// 127.0.0.1 (Tests/Support/webdav_server.py), or lighttpd with mod_webdav
/// (Tests/Support/lighttpd_server.py), its files in a folder of the test's. Stopped by `stop()`
/// or when it goes away.
public final class WebDAVServer {
    /// Which of Debian's servers.
    public enum Kind: String {
        case apache = "webdav_server.py"
        case lighttpd = "lighttpd_server.py"
    }

    /// "http://127.0.0.1:PORT".
    public let address: String
    /// "http://127.0.0.1:OTHERPORT": to a client, another server (another port), where /moved/
    /// sends it. It asks for no password. Apache's only ("-" for lighttpd).
    public let elsewhere: String
    /// Where the server keeps what is PUT under /dav/, to read it byte for byte.
    public let davFolder: String
    /// Every request `elsewhere` got, one a line: method, path, the Authorization header or "-".
    public let elsewhereLog: String
    public static let user = "anna"
    public static let password = "anna app password"

    private let process = Process()
    private let input = Pipe()

    public init(in folder: String, kind: Kind = .apache) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(kind.rawValue)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, folder]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let line = Self.readLine(output.fileHandleForReading)
        let words = line.split(separator: " ").map(String.init)
        guard words.count == 3, words[0] == "ready" else { throw ServerError.notReady(line) }
        (address, elsewhere) = (words[1], words[2])
        davFolder = (folder as NSString).appendingPathComponent("dav")
        elsewhereLog = (folder as NSString).appendingPathComponent("elsewhere.log")
    }

    public enum ServerError: Error { case notReady(String) }

    /// The address of `path` on the server with the test user in it: "http://anna@127.0.0.1:PORT/dav/x/".
    public func url(_ path: String, user: String = WebDAVServer.user) -> String {
        address.replacingOccurrences(of: "http://", with: "http://\(user)@") + path
    }

    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { stop() }

    private static func readLine(_ handle: FileHandle) -> String {
        var bytes = Data()
        while let byte = try? handle.read(upToCount: 1), !byte.isEmpty, byte != Data([10]) { bytes += byte }
        return String(decoding: bytes, as: UTF8.self)
    }
}
