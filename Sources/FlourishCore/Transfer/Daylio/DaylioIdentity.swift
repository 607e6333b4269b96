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
        return ImportIdentity.uuid(["daylio", day, padded(moment.hour, 2) + ":" + padded(moment.minute, 2), mood, activities.joined(separator: "|"), title, note])
    }

    /// The identity the same entry has whichever export and language it came in.
    static func canonical(_ moment: Moment, mood: String, activities: [String], title: String, note: String) -> String {
        uuid(moment, mood: DaylioMoods.canonical(mood), activities: activities.sorted { $0.lowercased() < $1.lowercased() },
             title: title, note: note)
    }
}
