import Foundation

/// A moment to the millisecond, as exports write it and imports read it: whole milliseconds
/// since 1970 (UTC), so that an export read back gives the very moments it was made from.
/// (Through `Date`, a double of seconds, 0.999 s could come back as 0.998.)
public struct ExportedTime: Sendable, Equatable, Comparable, Hashable {
    public let milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public init(_ date: Date) {
        milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
    }

    public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }

    public static func < (lhs: ExportedTime, rhs: ExportedTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    private var parts: (day: Insights.Day, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let (seconds, millisecond) = Self.divide(milliseconds, 1_000)
        let (days, secondOfDay) = Self.divide(seconds, 86_400)
        return (Insights.Day(number: Int(days)), Int(secondOfDay / 3_600), Int(secondOfDay / 60 % 60), Int(secondOfDay % 60), Int(millisecond))
    }

    /// Division rounding down, remainder never negative (moments before 1970).
    private static func divide(_ value: Int64, _ by: Int64) -> (Int64, Int64) {
        let remainder = (value % by + by) % by
        return ((value - remainder) / by, remainder)
    }

    /// "2026-11-21T17:40:00.125Z" (ISO 8601, UTC).
    public var iso8601: String {
        let p = parts
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", p.day.year, p.day.month, p.day.day, p.hour, p.minute, p.second, p.millisecond)
    }

    /// "2026-11-21 17:40:00.125": how the journal stores a moment.
    var stored: String {
        let p = parts
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d.%03d", p.day.year, p.day.month, p.day.day, p.hour, p.minute, p.second, p.millisecond)
    }

    /// Reads ISO 8601 in UTC or with an offset: "2026-11-21T17:40:00Z", "…:00.125Z",
    /// "…:00.125+01:00"; nil for anything else.
    public init?(iso8601 text: String) {
        let scalars = Array(text.utf8)
        func number(_ start: Int, _ length: Int) -> Int? {
            guard start + length <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[start..<(start + length)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard scalars.count >= 20, scalars[4] == 45, scalars[7] == 45, scalars[10] == 84 || scalars[10] == 32,
              scalars[13] == 58, scalars[16] == 58,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...Insights.Day.length(ofMonth: month, in: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var millisecond = 0
        if index < scalars.count, scalars[index] == 46 {
            index += 1
            var digits = 0
            while index < scalars.count, (48...57).contains(scalars[index]) {
                // Beyond milliseconds, digits are dropped (rounding down).
                if digits < 3 { millisecond = millisecond * 10 + Int(scalars[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { millisecond *= 10 } }
        }
        var offset = 0
        guard index < scalars.count else { return nil }
        if scalars[index] == 90, index + 1 == scalars.count {
            offset = 0
        } else if scalars[index] == 43 || scalars[index] == 45, index + 6 == scalars.count, scalars[index + 3] == 58,
                  let hours = number(index + 1, 2), let minutes = number(index + 4, 2) {
            offset = (scalars[index] == 43 ? 1 : -1) * (hours * 60 + minutes) * 60
        } else {
            return nil
        }
        let days = Int64(Insights.Day(year: year, month: month, day: day).number)
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second - offset)
        milliseconds = seconds * 1_000 + Int64(millisecond)
    }
}

