import CGtk
import Foundation

/// The GLib main loop, as Flourish needs it.
///
/// Under `g_application_run` libdispatch's main queue never drains on Linux, so neither
/// `DispatchQueue.main` nor the main actor would run. `integrateDispatch()` lets GLib watch the
/// main queue's eventfd and drain it, which is how disk work done off the GTK thread returns.
@MainActor
public enum MainLoop {
    private static var dispatchSource: guint = 0

    /// Wires `DispatchQueue.main` into the GLib loop. Call once, on the main thread, before running.
    public static func integrateDispatch() {
        guard dispatchSource == 0 else { return }
        dispatchSource = flourish_watch_main_queue()
    }

    /// Runs one pass of the default main context without blocking. Returns whether anything ran.
    @discardableResult
    public static func iterate() -> Bool {
        g_main_context_iteration(nil, 0) != 0
    }

    /// Pumps the loop until `condition` holds or `timeout` passes; returns whether it held.
    /// For tests and for waiting on in-flight work at shutdown.
    @discardableResult
    public static func run(until condition: () -> Bool, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() >= deadline { return false }
            if !iterate() { usleep(1_000) }
        }
        return true
    }

    /// Pumps the loop for a fixed time, letting layout, animations and idle work happen.
    public static func run(for seconds: TimeInterval) {
        _ = run(until: { false }, timeout: seconds)
    }

    /// Calls `action` once after `milliseconds` on the GTK thread; `cancel` with the returned
    /// id stops it first.
    @discardableResult
    public static func after(milliseconds: UInt32, _ action: @escaping @MainActor () -> Void) -> UInt32 {
        once(action) { run, box, release in g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, run, box, release) }
    }

    /// Calls `action` once after about `seconds` (GLib groups such timers so the machine wakes
    /// less); `cancel` with the returned id stops it first.
    @discardableResult
    public static func after(seconds: UInt32, _ action: @escaping @MainActor () -> Void) -> UInt32 {
        once(action) { run, box, release in g_timeout_add_seconds_full(G_PRIORITY_DEFAULT, seconds, run, box, release) }
    }

    /// Calls `action` once when the GTK thread has nothing more urgent (after drawing and input);
    /// `cancel` with the returned id stops it first.
    @discardableResult
    public static func whenIdle(_ action: @escaping @MainActor () -> Void) -> UInt32 {
        once(action) { run, box, release in g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, run, box, release) }
    }

    /// A one-shot GLib source around `action`: `add` gets the callback, the boxed closure and
    /// what releases the box once the source is gone (run, or cancelled).
    @discardableResult
    private static func once(_ action: @escaping @MainActor () -> Void,
                             add: (GSourceFunc, UnsafeMutableRawPointer, GDestroyNotify) -> guint) -> guint {
        let box = Unmanaged.passRetained(SignalBox(action) as AnyObject).toOpaque()
        return add({ data in
            let run = (Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! SignalBox<@MainActor () -> Void>).handler
            MainActor.assumeIsolated { run() }
            return 0 // G_SOURCE_REMOVE
        }, box, { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        })
    }

    /// Stops a timer of `after` that has not run yet.
    public static func cancel(_ timer: UInt32) {
        if timer != 0 { g_source_remove(timer) }
    }
}
