import Foundation

/// A test server run by one of the Python scripts beside this file: started with its arguments,
/// it prints "ready" and what to reach it by on one line, then serves until its standard input
/// closes. Stopped by `stop()` or when it goes away.
final class ServerScript {
    /// The words after "ready".
    let ready: [String]
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    /// Starts Tests/Support/`script`; `words`: how many words its ready line has after "ready".
    init(_ script: String, arguments: [String], words: Int) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(script).path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [path] + arguments
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let line = Self.readLine(output.fileHandleForReading)
        let said = line.split(separator: " ").map(String.init)
        guard said.count == words + 1, said[0] == "ready" else { throw WebDAVServer.ServerError.notReady(line) }
        ready = Array(said.dropFirst())
    }

    /// Sends the script one command line, and returns the line it answers with.
    @discardableResult
    func tell(_ command: String) -> String {
        input.fileHandleForWriting.write(Data("\(command)\n".utf8))
        return Self.readLine(output.fileHandleForReading)
    }

    func stop() {
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
