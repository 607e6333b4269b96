import Foundation
import WebDAVWire

/// The WebDAV helper process (`flourish-webdav`) a WebDAV place makes its requests through,
/// started at its first request and ended with the place. The helper alone links Foundation's
/// network stack: loaded by the app itself, that stack (libcurl and some thirty libraries under
/// it) cost every start some 15 ms and 7 MiB, for a sync through WebDAV that most starts never
/// make. The two speak over a local socket (`WebDAVWire`); the password travels in a request's
/// Authorization header on that socket, never on a command line or in the helper's environment.
final class WebDAVHelper: @unchecked Sendable {
    private let path: String?
    private let lock = NSLock()
    private var socket: Int32 = -1
    private var process: pid_t = 0

    /// `path`: the helper's executable; by default the one installed beside the app.
    init(path: String? = WebDAVHelper.installedPath) {
        self.path = path
    }

    deinit { stop() }

    /// Makes `request`; nil when the helper cannot be started, or stopped before it answered
    /// (it is started again for the next request).
    func exchange(_ request: WebDAVRequest, body: Data) -> (WebDAVOutcome, Data)? {
        lock.withLock {
            guard socket >= 0 || start() else { return nil }
            guard WebDAVWire.send(request, body: body, to: socket),
                  let answer = WebDAVWire.receive(WebDAVOutcome.self, from: socket) else {
                stop()
                return nil
            }
            return answer
        }
    }

    /// The helper's process while it runs (0 before it starts), for the tests to read.
    var processID: pid_t { lock.withLock { process } }

    /// Beside the running executable (a build folder: the app, its tests), else where meson
    /// installs it: `../libexec/flourish/` from the app's own folder.
    static let installedPath: String? = {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let folder = (executable as NSString).deletingLastPathComponent
        return [(folder as NSString).appendingPathComponent("flourish-webdav"),
                ((folder as NSString).deletingLastPathComponent as NSString).appendingPathComponent("libexec/flourish/flourish-webdav")]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Called with the lock held.
    private func start() -> Bool {
        guard let path else { return false }
        var ends: [Int32] = [-1, -1]
        // Close-on-exec: no other program the app starts inherits the socket.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The helper's end as its standard input and output (dup2 leaves these two open across exec).
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        // And nothing else of the app's: a pipe the app reads to its end would otherwise stay open
        // for as long as the helper lives.
        Self.closeTheRest(in: &actions)
        var child: pid_t = 0
        let arguments = [strdup(path), nil]
        defer { arguments.forEach { free($0) } }
        let spawned = posix_spawn(&child, path, &actions, nil, arguments, environ)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            return false
        }
        (socket, process) = (ends[0], child)
        return true
    }

    /// glibc's closefrom action (2.34 and later; Swift's Glibc module does not declare it), else
    /// a close for each descriptor open now.
    private static func closeTheRest(in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let descriptor = Int32(name), descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
    }

    /// Closes the socket (the helper ends when it reads its end) and waits for the process.
    /// Called with the lock held, or from deinit.
    private func stop() {
        guard socket >= 0 else { return }
        close(socket)
        socket = -1
        // A helper stuck in a request would keep the wait waiting.
        kill(process, SIGTERM)
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 && errno == EINTR {}
        process = 0
    }
}
