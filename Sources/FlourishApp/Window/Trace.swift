import Foundation
import GtkKit

/// Opt-in timing of start-up milestones, for scripts/bench: with FLOURISH_TRACE=1 in the
/// environment each milestone prints "flourish-trace: <ms since launch> <event>" to stderr.
/// Never prints entry contents.
enum Trace {
    static let enabled = ProcessInfo.processInfo.environment["FLOURISH_TRACE"] == "1"
    /// FLOURISH_TRACE=sync: only sync's marks (`sync`), with no count of the journal's entries or
    /// frames; what the journeys of a locked journal wait on.
    static let syncOnly = ProcessInfo.processInfo.environment["FLOURISH_TRACE"] == "sync"

    /// Prints a mark of sync's, with FLOURISH_TRACE=1 or =sync.
    static func sync(_ event: String) {
        guard enabled || syncOnly else { return }
        write(event)
    }
    private nonisolated(unsafe) static var start = DispatchTime.now().uptimeNanoseconds
    private nonisolated(unsafe) static var seen: Set<String> = []

    /// Marks time zero (the start of `main`), and says where that is on the system's monotonic
    /// clock, so the benchmark can measure from the moment it started the process.
    static func begin() {
        start = DispatchTime.now().uptimeNanoseconds
        guard enabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let monotonic = Double(now.tv_sec) * 1_000 + Double(now.tv_nsec) / 1_000_000 - Trace.now
        FileHandle.standardError.write(Data(String(format: "flourish-trace: 0.0 clock %.3f\n", monotonic).utf8))
    }

    private nonisolated(unsafe) static var furthestRow = 0

    /// Reports how far down the journal rows have been shown, every hundred rows: how the
    /// benchmark knows it has scrolled through 10,000.
    static func reached(row position: Int) {
        guard enabled, position >= furthestRow + 100 else { return }
        furthestRow = position
        mark("rows reached \(position)")
    }

    /// Prints `event` the first time it happens (later repeats are ignored). The words are made
    /// only when tracing: some (numbers formatted for the person's language) cost a start-up
    /// that is not traced a few milliseconds.
    static func once(_ event: @autoclosure () -> String) {
        guard enabled else { return }
        let event = event()
        guard seen.insert(event).inserted else { return }
        mark(event)
    }

    /// Prints every event, each time: "flourish-trace: <ms> <event>".
    static func mark(_ event: @autoclosure () -> String) {
        guard enabled else { return }
        write(event())
    }

    /// "flourish-trace: <ms> <event>", the one line every mark prints.
    private static func write(_ event: String) {
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
