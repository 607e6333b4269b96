@testable import FlourishApp
import FlourishCore
import XCTest

/// The sentence a screen reader says for a journal row: what the row shows, in its order, once.
final class JournalRowNameTests: XCTestCase {
    private let date = "Sunday 22 November 2026 at 10:35 PM"

    func testTitleMoodDateThenTags() {
        let entry = Entry(id: 1, title: "First snow", body: "Cold and bright.", mood: .reallyGood, createdAt: Date())
        XCTAssertEqual(JournalRow.spokenName(of: entry, date: date, tagCount: 2),
                       "First snow, feeling really good, Sunday 22 November 2026 at 10:35 PM, 2 tags")
        XCTAssertEqual(JournalRow.spokenName(of: entry, date: date, tagCount: 1),
                       "First snow, feeling really good, Sunday 22 November 2026 at 10:35 PM, 1 tag")
        XCTAssertEqual(JournalRow.spokenName(of: entry, date: date, tagCount: 0),
                       "First snow, feeling really good, Sunday 22 November 2026 at 10:35 PM")
    }

    func testAnUntitledEntryIsNamedByTheFirstLineOfItsBody() {
        let entry = Entry(id: 1, title: "", body: "A quiet walk\nthen rain", mood: .okay, createdAt: Date())
        XCTAssertEqual(JournalRow.spokenName(of: entry, date: date, tagCount: 0),
                       "A quiet walk, feeling okay, Sunday 22 November 2026 at 10:35 PM")
    }

    func testPhotosAndAPlaceComeLast() {
        let photos = [EntryPhoto(id: "a", fileName: "a.jpg"), EntryPhoto(id: "b", fileName: "b.jpg")]
        let entry = Entry(id: 1, title: "Beach", body: "", mood: .theBest, createdAt: Date(),
                          location: Location(latitude: 52.52, longitude: 13.4, accuracy: 50), photos: photos)
        XCTAssertEqual(JournalRow.spokenName(of: entry, date: date, tagCount: 1),
                       "Beach, feeling the best, Sunday 22 November 2026 at 10:35 PM, 1 tag, 2 photos, with a location")
    }
}
