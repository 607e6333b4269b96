import Foundation

/// A D-Bus daemon of one test's own, standing in for the system bus: what runs on it (a logind
/// mock) cannot meet another test's stand-ins on the shared private system bus.
public final class PrivateBus {
    public let address: String
    private let process = Process()

    public init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        // A session-style configuration is enough: anyone may own any name.
        process.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        address = readLine(from: output.fileHandleForReading)
        guard !address.isEmpty else { throw DBusMock.Failure("dbus-daemon printed no address") }
    }

    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// python3-dbusmock serving mock objects on a bus, and `gdbus` to tell it what to do: emit a
/// signal, add an object or a method. Debian's python (/usr/bin/python3) has dbusmock; a pyenv
/// python on the PATH may not.
public final class DBusMock {
    public enum Bus {
        /// The test's session bus (scripts/with-display makes one).
        case session
        /// A `PrivateBus`, given to the mock as its system bus.
        case system(address: String)

        fileprivate var gdbusArguments: [String] {
            switch self {
            case .session: ["--session"]
            case let .system(address): ["--address", address]
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    private let bus: Bus
    private let name: String
    private let process = Process()

    /// One object at `path` with `interface`, its service owning `name`.
    public convenience init(_ bus: Bus, name: String, path: String, interface: String) throws {
        try self.init(bus, name: name, dbusmockArguments: [name, path, interface])
    }

    /// One of dbusmock's templates ("logind"), whose service owns `name`.
    public convenience init(_ bus: Bus, template: String, name: String) throws {
        try self.init(bus, name: name, dbusmockArguments: ["--template", template])
    }

    private init(_ bus: Bus, name: String, dbusmockArguments: [String]) throws {
        self.bus = bus
        self.name = name
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        var environment = ProcessInfo.processInfo.environment
        switch bus {
        case .session:
            process.arguments = ["-m", "dbusmock", "--session"] + dbusmockArguments
        case let .system(address):
            process.arguments = ["-m", "dbusmock", "--system"] + dbusmockArguments
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Ready once it owns its name.
        do {
            try Self.gdbus(["wait"] + bus.gdbusArguments + ["--timeout", "15", name])
        } catch {
            stop()
            throw error
        }
    }

    /// Calls `method` (interface and name) on the object at `path`; `arguments` are GVariant
    /// texts ("'c1'", "true", "[<true>]"). Returns gdbus's printout of the reply.
    @discardableResult
    public func call(_ path: String, _ method: String, _ arguments: [String] = []) throws -> String {
        try Self.gdbus(["call"] + bus.gdbusArguments + ["--dest", name, "--object-path", path, "--method", method] + arguments)
    }

    /// Makes the object at `path` emit `signal` of `interface`; `arguments` is a GVariant text of
    /// an array of variants ("[<true>]").
    public func emit(_ path: String, _ interface: String, _ signal: String, signature: String, _ arguments: String) throws {
        try call(path, "org.freedesktop.DBus.Mock.EmitSignal", [quoted(interface), quoted(signal), quoted(signature), arguments])
    }

    /// Adds an object at `path` with `interface`, no properties and no methods, asking the mock
    /// object at `existing` (every mock object takes the Mock interface's calls).
    public func addObject(_ path: String, interface: String, asking existing: String) throws {
        try call(existing, "org.freedesktop.DBus.Mock.AddObject", [quoted(path), quoted(interface), "@a{sv} {}", "@a(ssss) []"])
    }

    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    /// A GVariant string literal (what is quoted here holds no double quote).
    public func quoted(_ text: String) -> String { "\"\(text)\"" }

    @discardableResult
    private static func gdbus(_ arguments: [String]) throws -> String {
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        tool.arguments = arguments
        let output = Pipe(), errors = Pipe()
        tool.standardOutput = output
        tool.standardError = errors
        try tool.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        tool.waitUntilExit()
        guard tool.terminationStatus == 0 else {
            throw Failure("gdbus \(arguments.joined(separator: " ")): \(String(decoding: complaint, as: UTF8.self))")
        }
        return String(decoding: printed, as: UTF8.self)
    }
}
