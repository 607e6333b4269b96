import FlourishCore
import XCTest

final class EntryDraftTests: XCTestCase {
    func testEmptyDraftNeedsAMoodAndText() {
        XCTAssertEqual(EntryDraft().problems, [.missingMood, .missingText])
    }

    func testWhitespaceIsNotText() {
        XCTAssertEqual(EntryDraft(title: "  ", body: "\n\t", mood: .okay).problems, [.missingText])
    }

    func testATitleOrABodyIsEnough() {
        XCTAssertEqual(EntryDraft(title: "Walk", mood: .meh).problems, [])
        XCTAssertEqual(EntryDraft(body: "Rain all day", mood: .theWorst).problems, [])
    }

    func testMoodIsRequired() {
        XCTAssertEqual(EntryDraft(title: "Walk", body: "Sun").problems, [.missingMood])
    }

    func testValidatedTrimsAndKeepsTheMood() throws {
        let entry = try EntryDraft(title: " Walk ", body: "Sun\n", mood: .reallyGood).validated().get()
        XCTAssertEqual(entry.title, "Walk")
        XCTAssertEqual(entry.body, "Sun")
        XCTAssertEqual(entry.mood, .reallyGood)
    }

    func testProblemsHaveMessages() {
        XCTAssertEqual(EntryDraft.Problem.missingMood.message, "Choose how you feel.")
        XCTAssertEqual(EntryDraft.Problem.missingText.message, "Write a title or a few lines.")
    }
}

final class EntryDraftDateTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    func testAPastOrPresentDateIsAccepted() throws {
        let yesterday = now.addingTimeInterval(-86_400)
        let entry = try EntryDraft(title: "Back then", mood: .okay, date: yesterday).validated(now: now).get()
        XCTAssertEqual(entry.date, yesterday)
        XCTAssertNoThrow(try EntryDraft(title: "Right now", mood: .okay, date: now).validated(now: now).get())
    }

    func testNoDateMeansNow() throws {
        XCTAssertNil(try EntryDraft(title: "Now", mood: .okay).validated(now: now).get().date)
    }

    func testAFutureDateIsRefusedNextToItsField() {
        let draft = EntryDraft(title: "Tomorrow", mood: .okay, date: now.addingTimeInterval(60))
        XCTAssertEqual(draft.problems(now: now), [.futureDate])
        XCTAssertEqual(EntryDraft(date: now.addingTimeInterval(60)).problems(now: now), [.missingMood, .futureDate, .missingText])
        XCTAssertEqual(EntryDraft.Problem.futureDate.message, "Choose a time that is not in the future.")
    }
}
