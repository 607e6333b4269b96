import Foundation

/// Opt-in timing of start-up milestones, for scripts/bench: with FLOURISH_TRACE=1 in the
/// environment each milestone prints "flourish-trace: <ms since launch> <event>" to stderr.
/// Never prints entry contents.
enum Trace {
    static let enabled = ProcessInfo.processInfo.environment["FLOURISH_TRACE"] == "1"
    private nonisolated(unsafe) static var start = DispatchTime.now().uptimeNanoseconds
    private nonisolated(unsafe) static var seen: Set<String> = []

    /// Marks time zero (the start of `main`).
    static func begin() {
        start = DispatchTime.now().uptimeNanoseconds
    }

    /// Prints `event` the first time it happens (later repeats are ignored).
    static func once(_ event: String) {
        guard enabled, !seen.contains(event) else { return }
        seen.insert(event)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        FileHandle.standardError.write(Data(String(format: "flourish-trace: %.1f %@\n", elapsed, event).utf8))
    }
}
