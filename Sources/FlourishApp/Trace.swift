import Foundation
import GtkKit

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
        FileHandle.standardError.write(Data(String(format: "flourish-trace: %.1f %@\n", now, event).utf8))
    }

    /// Prints every event, each time: "flourish-trace: <ms> <event>".
    static func mark(_ event: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(String(format: "flourish-trace: %.1f %@\n", now, event).utf8))
    }

    /// Milliseconds since launch.
    static var now: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000 }

    /// Prints each frame of `window` as "flourish-frame: <ms when it started> <ms it took>", from
    /// the window's frame clock: what the benchmark reads for start-up, paging and scrolling.
    @MainActor
    static func frames(of window: Widget) {
        guard enabled else { return }
        var started = 0.0
        window.onFrames(started: { started = now }, painted: {
            let painted = now
            FileHandle.standardError.write(Data(String(format: "flourish-frame: %.2f %.2f\n", started, painted - started).utf8))
        })
    }
}
