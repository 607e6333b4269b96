import GtkKit

/// Work over a long text done a slice at a time when GTK is idle, between frames, so typing
/// never waits for it: `slice` does one from the offset given and returns where the next
/// starts, or nil when the text is done. Starting again drops the pass under way.
@MainActor
final class IdleSlices {
    var slice: @MainActor (Int) -> Int? = { _ in nil }
    private var pending: (next: Int, idle: UInt32)?

    /// Whether a pass is under way.
    var isRunning: Bool { pending != nil }

    func start() {
        cancel()
        schedule(0)
    }

    func cancel() {
        if let pending { MainLoop.cancel(pending.idle) }
        pending = nil
    }

    private func schedule(_ start: Int) {
        pending = (start, MainLoop.whenIdle { [weak self] in self?.run() })
    }

    private func run() {
        guard let start = pending?.next else { return }
        if let next = slice(start) { schedule(next) } else { pending = nil }
    }
}
