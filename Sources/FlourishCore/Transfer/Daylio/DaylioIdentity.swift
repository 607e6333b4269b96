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
        uuid(["daylio", String(format: "%04d-%02d-%02d", moment.day.year, moment.day.month, moment.day.day),
              String(format: "%02d:%02d", moment.hour, moment.minute), mood, activities.joined(separator: "|"), title, note])
    }

    /// The identity the same entry has whichever export and language it came in.
    static func canonical(_ moment: Moment, mood: String, activities: [String], title: String, note: String) -> String {
        uuid(moment, mood: DaylioMoods.canonical(mood), activities: activities.sorted { $0.lowercased() < $1.lowercased() },
             title: title, note: note)
    }

    /// A UUID made from `parts` (two 64-bit FNV-1a hashes).
    static func uuid(_ parts: [String]) -> String {
        let bytes = Array(parts.joined(separator: "\u{1F}").utf8)
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100000001b3
            }
            return hash
        }
        var high = fnv(0xcbf29ce484222325), low = fnv(0x84222325cbf29ce4)
        // RFC 9562 version 8 (made by its own rule), variant 10.
        high = (high & ~0xF000) | 0x8000
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = String(format: "%016llx%016llx", high, low)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
