import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Whether a day is written, as the reminder asks it of a journal no window holds open.
final class JournalDayTests: XCTestCase {
    let folder = TemporaryFolder()

    func testADayWithoutAnEntryIsNotWrittenNotUnreadable() throws {
        let path = folder.file("journal.sqlite")
        XCTAssertEqual(JournalDay.hasEntry(journal: path, on: Date(), calendar: .current), false, "no journal yet, nothing written")
        let store = try JournalStore(path: path)
        let yesterday = Date().addingTimeInterval(-86_400)
        _ = try store.save(try EntryDraft(title: "Yesterday", mood: .okay).validated().get(), createdAt: yesterday)
        store.close()
        // Unreadable (nil) makes the reminder ask again later instead of reminding: a journal
        // with no entry today must answer false, or its person is never reminded.
        XCTAssertEqual(JournalDay.hasEntry(journal: path, on: Date(), calendar: .current), false)
        XCTAssertEqual(JournalDay.hasEntry(journal: path, on: yesterday, calendar: .current), true)
    }
}
