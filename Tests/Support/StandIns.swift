import Foundation

/// A private D-Bus daemon standing in for the system bus, started once per test process.
/// GIO reads DBUS_SYSTEM_BUS_ADDRESS when it first connects to the system bus, so this must run
/// before anything asks for it; the widget harness calls it first thing.
public enum PrivateSystemBus {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var daemon: Process?

    /// The bus address, after making sure the daemon runs and the environment points at it.
    @discardableResult
    public static func ensure() -> String {
        lock.lock()
        defer { lock.unlock() }
        if let address = ProcessInfo.processInfo.environment["FLOURISH_TEST_SYSTEM_BUS"] { return address }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        // A session-style configuration is enough for a private bus: anyone may own any name.
        process.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { fatalError("dbus-daemon did not start: \(error)") }
        let address = readLine(from: output.fileHandleForReading)
        setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1)
        setenv("FLOURISH_TEST_SYSTEM_BUS", address, 1)
        daemon = process
        atexit { PrivateSystemBus.daemon?.terminate() }
        return address
    }
}

/// The stand-in GeoClue service (Tests/Support/geoclue_standin.py) on the private system bus.
public final class GeoClueStandIn {
    public enum Mode: String {
        case fix, deny, silent
        case fixThenStale = "fix-then-stale"
    }

    private let process = Process()
    private let logPath: String

    /// Starts the stand-in and waits until it owns org.freedesktop.GeoClue2.
    public init(_ mode: Mode, logIn folder: String) throws {
        let address = PrivateSystemBus.ensure()
        logPath = (folder as NSString).appendingPathComponent("geoclue-calls-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("geoclue_standin.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, "--mode", mode.rawValue, "--log", logPath]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        process.environment = environment
        try awaitReady(process)
    }

    public enum StandInError: Error { case notReady(String) }

    /// Every D-Bus call the stand-in received, in order ("GetClient", "Set DesktopId …", "Start", …).
    public var calls: [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// The stand-in settings portal (Tests/Support/portal_standin.py) on the session bus, publishing
/// the freedesktop appearance setting; `set` changes it as flipping the desktop's style would.
public final class PortalStandIn {
    private let process = Process()
    private let input = Pipe()

    public init(scheme: UInt32) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("portal_standin.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, String(scheme)]
        process.standardInput = input
        try awaitReady(process)
    }

    public func set(scheme: UInt32) {
        input.fileHandleForWriting.write(Data("\(scheme)\n".utf8))
    }

    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// Starts a stand-in and waits for the "ready" it prints once it owns its D-Bus name. One that
/// ends instead is stopped, and what it said, its exit status and its errors are the error.
func awaitReady(_ process: Process) throws {
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let line = readLine(from: output.fileHandleForReading)
    guard line != "ready" else {
        // Ready: what it says from now on goes to the test's errors as it comes, never left
        // to fill the pipe (and stop the stand-in) unread.
        errors.fileHandleForReading.readabilityHandler = { handle in
            let said = handle.availableData
            if said.isEmpty { handle.readabilityHandler = nil } else { FileHandle.standardError.write(said) }
        }
        return
    }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    throw GeoClueStandIn.StandInError.notReady("printed \"\(line)\", exit status \(process.terminationStatus): \(said)")
}

/// Reads one line (without its newline) from a pipe, blocking until it arrives or the pipe closes.
func readLine(from handle: FileHandle) -> String {
    var bytes = Data()
    while true {
        let byte = handle.readData(ofLength: 1)
        if byte.isEmpty || byte == Data("\n".utf8) { break }
        bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
}
