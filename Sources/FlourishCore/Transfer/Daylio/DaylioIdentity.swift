import Foundation

/// The identity of a Daylio entry: a UUID made from what the entry holds, the same in every
/// import, so that importing the same file again finds each entry already there.
///
/// A CSV export keeps the identity the first importer gave it (made from the mood as written,
/// the activities in the file's order and the note as read). The same entry in the other
/// export (a backup, where the mood is a step and the note HTML; or a CSV in another language)
/// is also known by its canonical identity: the mood by its English default name when it has
/// one, the activities sorted, the note with its tags dropped. Each import keeps one identity
/// and looks for the others as aliases.
enum DaylioIdentity {
    struct Moment: Hashable {
        let day: Insights.Day
        let hour: Int
        let minute: Int
    }

    /// The identity as the first importer made it: a UUID from the day, the time, the mood, the
    /// activities joined by "|", the title and the note.
    static func uuid(_ moment: Moment, mood: String, activities: [String], title: String, note: String) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        let day = padded(moment.day.year, 4) + "-" + padded(moment.day.month, 2) + "-" + padded(moment.day.day, 2)
        return uuid(["daylio", day, padded(moment.hour, 2) + ":" + padded(moment.minute, 2), mood, activities.joined(separator: "|"), title, note])
    }

    /// The identity the same entry has whichever export and language it came in.
    static func canonical(_ moment: Moment, mood: String, activities: [String], title: String, note: String) -> String {
        uuid(moment, mood: DaylioMoods.canonical(mood), activities: activities.sorted { $0.lowercased() < $1.lowercased() },
             title: title, note: note)
    }

    /// A UUID made from `parts` (two 64-bit FNV-1a hashes).
    static func uuid(_ parts: [String]) -> String {
        var high: UInt64 = 0xcbf29ce484222325, low: UInt64 = 0x84222325cbf29ce4
        func add(_ byte: UInt8) {
            high = (high ^ UInt64(byte)) &* 0x100000001b3
            low = (low ^ UInt64(byte)) &* 0x100000001b3
        }
        for (index, part) in parts.enumerated() {
            if index > 0 { add(0x1F) }
            for byte in part.utf8 { add(byte) }
        }
        // RFC 9562 version 8 (made by its own rule), variant 10.
        high = (high & ~0xF000) | 0x8000
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for nibble in 0..<32 {
            if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 { text.append(UInt8(ascii: "-")) }
            let word = nibble < 16 ? high : low
            text.append(digits[Int((word >> UInt64(60 - (nibble % 16) * 4)) & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
