import Foundation
import GtkKit

/// Gives freed memory back to the system once the window has been quiet for a while: after a
/// scroll, a search, a long entry closed, or the journal's health check (which reads the whole
/// file). What they built and let go of stays in the process until then, counted as its memory.
@MainActor
final class MemoryTidy {
    /// Long enough that a scroll's pauses (a person reading a row) do not tidy in the middle of
    /// it; the tidying itself takes a few milliseconds.
    static let quietSeconds = 2.0
    private let quietSeconds: Double
    private let giveBack: @MainActor () -> Void
    /// Seconds on a clock that only goes forward; tests give one of their own.
    private let now: () -> Double
    private var lastActivity = 0.0
    private var waiting = false

    /// Tidies once the window has painted nothing for `quietSeconds` after each burst of frames.
    init(window: Widget, quietSeconds: Double = MemoryTidy.quietSeconds, now: @escaping () -> Double = MemoryTidy.uptime,
         giveBack: @escaping @MainActor () -> Void = ProcessMemory.giveBackFreed) {
        self.quietSeconds = quietSeconds
        self.now = now
        self.giveBack = giveBack
        window.onFrames(started: {}, painted: { [weak self] in self?.activity() })
    }

    /// Something that did not paint (a read in the background) has just let go of memory.
    func activity() {
        lastActivity = now()
        guard !waiting else { return }
        waiting = true
        wait(quietSeconds)
    }

    // One timer at a time, looking again when it fires, rather than one for every frame.
    private func wait(_ seconds: Double) {
        MainLoop.after(milliseconds: UInt32(max(1, seconds * 1000))) { [weak self] in
            guard let self else { return }
            let quiet = now() - lastActivity
            if quiet < quietSeconds { return wait(quietSeconds - quiet) }
            waiting = false
            giveBack()
            Trace.mark("memory given back")
        }
    }

    nonisolated static func uptime() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// The executable's first call, before any thread starts: see `ProcessMemory.shareOneArena`.
public func shareOneMallocArena() {
    ProcessMemory.shareOneArena()
}
