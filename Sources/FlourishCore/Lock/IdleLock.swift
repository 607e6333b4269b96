import Foundation

/// When the journal locks itself because it was left alone: a chosen number of minutes after
/// the person last did something in it, or never. Only arithmetic on the dates it is given, so
/// the app passes the wall clock and a test passes any date it likes.
///
/// The app notes each keystroke or click with `noteActivity(at:)`, arms one timer for
/// `deadline`, and when it fires asks `isDue(at:)`: activity since may have moved the deadline.
public struct IdleLock: Equatable, Sendable {
    /// The shortest limit: a limit of zero minutes would lock while the person types.
    public static let shortestMinutes = 1

    /// Minutes of no activity before the journal locks; nil: never. Changing it moves the
    /// deadline at once, counted from the last activity (not from the change).
    public var limitMinutes: Int? {
        didSet { limitMinutes = limitMinutes.map { max($0, Self.shortestMinutes) } }
    }

    /// When the person last did something (or when the journal was opened or unlocked).
    public private(set) var lastActivity: Date

    public init(limitMinutes: Int?, lastActivity: Date) {
        self.limitMinutes = limitMinutes.map { max($0, Self.shortestMinutes) }
        self.lastActivity = lastActivity
    }

    /// The person did something: the count starts again from `date`.
    public mutating func noteActivity(at date: Date) {
        lastActivity = date
    }

    /// When the journal should lock if nothing else happens; nil when it never locks by itself.
    public var deadline: Date? {
        limitMinutes.map { lastActivity.addingTimeInterval(TimeInterval($0) * 60) }
    }

    /// Whether the journal should lock at `date`: the limit has passed since the last activity.
    public func isDue(at date: Date) -> Bool {
        guard let deadline else { return false }
        return date >= deadline
    }
}
