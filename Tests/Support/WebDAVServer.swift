import Foundation

/// A real WebDAV server for a test, from Debian, with Basic authentication on 127.0.0.1: Apache
/// httpd with mod_dav_fs (Tests/Support/webdav_server.py), lighttpd with mod_webdav, nginx with
/// dav-ext or rclone's (their own scripts there), its files in a folder of the test's. Stopped
/// by `stop()` or when it goes away.
public final class WebDAVServer {
    /// Which of Debian's servers.
    public enum Kind: String, CaseIterable {
        case apache = "webdav_server.py"
        case lighttpd = "lighttpd_server.py"
        /// nginx with dav-ext: ignores `If-None-Match: *`, refuses MKCOL without a trailing slash.
        case nginx = "nginx_server.py"
        /// `rclone serve webdav`: ignores `If-None-Match: *`.
        case rclone = "rclone_server.py"

        /// Whether a PUT with `If-None-Match: *` is refused (412) when the file is there.
        public var keepsFilesOnce: Bool { self == .apache || self == .lighttpd }
    }

    /// "http://127.0.0.1:PORT".
    public let address: String
    /// "http://127.0.0.1:OTHERPORT": to a client, another server (another port), where /moved/
    /// sends it. It asks for no password. Apache's only ("-" for the others).
    public let elsewhere: String
    /// Where the server keeps what is PUT under /dav/, to read it byte for byte.
    public let davFolder: String
    /// Every request `elsewhere` got, one a line: method, path, the Authorization header or "-".
    public let elsewhereLog: String
    public static let user = "anna"
    public static let password = "anna app password"

    private let script: ServerScript

    public init(in folder: String, kind: Kind = .apache) throws {
        script = try ServerScript(kind.rawValue, arguments: [folder], words: 2)
        (address, elsewhere) = (script.ready[0], script.ready[1])
        davFolder = (folder as NSString).appendingPathComponent("dav")
        elsewhereLog = (folder as NSString).appendingPathComponent("elsewhere.log")
    }

    public enum ServerError: Error { case notReady(String) }

    /// The address of `path` on the server with the test user in it: "http://anna@127.0.0.1:PORT/dav/x/".
    public func url(_ path: String, user: String = WebDAVServer.user) -> String {
        address.replacingOccurrences(of: "http://", with: "http://\(user)@") + path
    }

    public func stop() {
        script.stop()
    }
}
