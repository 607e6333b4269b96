import FlourishCore
import Foundation

extension JournalStore {
    /// Saves a valid entry dated `day` days after 1 January 1970, for tests that place entries in time.
    func save(_ title: String, _ body: String = "", _ mood: Mood = .okay, day: Int) throws -> Entry {
        try save(try EntryDraft(title: title, body: body, mood: mood).validated().get(),
                 createdAt: Date(timeIntervalSince1970: Double(day) * 86_400))
    }
}
