import Foundation

/// The time of day a daily reminder comes, to the minute ("20:00"). Written and read as "H:MM"
/// or "HH:MM" in 24 hours, nothing else: "25:00" or "8pm" is refused rather than guessed at.
public struct ReminderTime: Equatable, Sendable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    /// 20:00, until the person chooses another.
    public static let standard = ReminderTime(validHour: 20, minute: 0)

    private init(validHour hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.init(validHour: hour, minute: minute)
    }

    /// "20:15" or "9:05"; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        self.init(hour: hour, minute: minute)
    }

    /// "20:00": as the preferences keep it and the command line prints it.
    public var description: String { String(format: "%02d:%02d", hour, minute) }
}
