import Foundation

/// A WebDAV server that says it is busy rather than wrong: 423 Locked (Nextcloud's file locking
/// without Redis), 429 Too Many Requests (its throttling), 503 Service Unavailable (maintenance,
/// an overloaded NAS). Such a request is made again after a wait, a few times at most, and the
/// wait is said in the Sync window ("The server is busy; trying again in 30 s"); only after the
/// last try is it a problem, and the next sync tries again.
struct BusyServer: Sendable {
    static let statuses: Set<Int> = [423, 429, 503]

    /// Tries in all, the first included.
    var tries = 4
    /// The wait after the first busy answer without `Retry-After`; doubled after each one.
    var firstWait: TimeInterval = 5
    /// No wait is longer: a server that asks for more is busy for this sync, and the next one,
    /// minutes later, asks again.
    var longestWait: TimeInterval = 60

    /// How long to wait after the busy answer of try `attempt` (0 for the first), from its
    /// `Retry-After` (seconds, or an HTTP date) when it has one; nil when no try is left or the
    /// server asks for longer than `longestWait`.
    func wait(after attempt: Int, retryAfter: String?, now: Date = Date()) -> TimeInterval? {
        guard attempt + 1 < tries else { return nil }
        let asked = retryAfter.flatMap { Self.seconds(in: $0, now: now) }
        let wait = asked ?? min(firstWait * pow(2, Double(attempt)), longestWait)
        return wait <= longestWait ? max(wait, 0) : nil
    }

    /// `Retry-After` in seconds: a number of seconds, or an HTTP date (RFC 9110) from `now`.
    static func seconds(in value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return TimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { max($0.timeIntervalSince(now), 0) }
    }
}

/// Where a place's busy waits are heard and ended: shared by the place's copies.
final class BusyWaits: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: (@Sendable (Int) -> Void)?

    /// `heard` is told the seconds of each wait as it starts.
    func hear(_ heard: @escaping @Sendable (Int) -> Void) {
        lock.withLock { self.heard = heard }
    }

    /// Waits `seconds`, unless `endAll` is called meanwhile; whether the whole wait passed.
    func wait(_ seconds: TimeInterval) -> Bool {
        // Taken before the wait is told: an `endAll` from whoever heard it ends this one too.
        let started = Self.ending.generation
        let listener = lock.withLock { heard }
        listener?(Int(seconds.rounded(.up)))
        return Self.ending.wait(seconds, since: started)
    }

    /// Ends every wait for a busy server now, in every place: the journal is closing or the app
    /// quitting, and nothing should keep it waiting for a server.
    static func endAll() {
        ending.end()
    }

    private static let ending = Ending()

    /// Waits woken together: each wait ends at its time, or when the generation moves on.
    private final class Ending: @unchecked Sendable {
        private let condition = NSCondition()
        private var ended = 0

        var generation: Int {
            condition.lock()
            defer { condition.unlock() }
            return ended
        }

        func wait(_ seconds: TimeInterval, since started: Int) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            let deadline = Date(timeIntervalSinceNow: seconds)
            while ended == started {
                if !condition.wait(until: deadline) { return ended == started }
            }
            return false
        }

        func end() {
            condition.lock()
            ended += 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
