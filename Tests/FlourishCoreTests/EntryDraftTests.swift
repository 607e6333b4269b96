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
