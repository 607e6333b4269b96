import FlourishCore
import Foundation
import GtkKit

/// Locks a locked journal's window after the chosen minutes without input in it (Preferences:
/// Lock when idle). Input only notes the time; one timer is armed for the deadline, and when it
/// fires the rule is asked again, since input meanwhile moved the deadline on. `clock` is the
/// wall clock in the app and any date in a test.
@MainActor
final class IdleWatch {
    private var rule: IdleLock
    private let clock: () -> Date
    private let due: @MainActor () -> Void
    private var timer: UInt32 = 0
    private var stopped = false

    init(limitMinutes: Int?, clock: @escaping () -> Date = Date.init, due: @escaping @MainActor () -> Void) {
        self.clock = clock
        self.due = due
        rule = IdleLock(limitMinutes: limitMinutes, lastActivity: clock())
        arm()
    }

    /// A key, a click, the pointer moving: the count starts again (the timer stays as it is).
    func noteActivity() { rule.noteActivity(at: clock()) }

    /// A new limit (or never), counted from the last input.
    func setLimit(minutes: Int?) {
        rule.limitMinutes = minutes
        arm()
    }

    var deadline: Date? { rule.deadline }

    /// The timer's moment: locks if the limit has passed since the last input, else waits again.
    func fire() {
        timer = 0
        guard !stopped else { return }
        if rule.isDue(at: clock()) {
            stop()
            due()
        } else {
            arm()
        }
    }

    func stop() {
        stopped = true
        MainLoop.cancel(timer)
        timer = 0
    }

    private func arm() {
        MainLoop.cancel(timer)
        timer = 0
        guard !stopped, let deadline = rule.deadline else { return }
        let seconds = UInt32(clamping: max(1, Int(deadline.timeIntervalSince(clock()).rounded(.up))))
        timer = MainLoop.after(seconds: seconds) { [weak self] in self?.fire() }
    }

    isolated deinit { MainLoop.cancel(timer) }
}
