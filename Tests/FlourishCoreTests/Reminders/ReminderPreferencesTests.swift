import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// The reminder's choices in the preferences file, shared by several processes: the window,
/// a window on another journal, `flourish --remind`, the background service.
final class ReminderPreferencesTests: XCTestCase {
    private let folder = TemporaryFolder()

    func testAWriterThatReadTheFileEarlierChangesOnlyItsOwnKeys() {
        let path = folder.file("config/flourish/preferences")
        let window = Preferences(path: path)
        let terminal = Preferences(path: path)
        XCTAssertTrue(terminal.saveReminder(on: true, time: ReminderTime("21:15"), setAt: Date(timeIntervalSince1970: 1_000)))
        // The window read the file before; it now saves its size.
        window.windowMaximized = true
        let after = Preferences(path: path)
        XCTAssertTrue(after.reminderOn, "the reminder turned on elsewhere stays on")
        XCTAssertEqual(after.reminderTime.description, "21:15")
        XCTAssertEqual(after.reminderMemory.setAt, Date(timeIntervalSince1970: 1_000))
        XCTAssertTrue(after.windowMaximized)
        XCTAssertTrue(window.reminderOn, "and the writer now knows it too")
    }

    func testAFileThatCannotBeWrittenIsSaidAndTheSwitchThrows() throws {
        let blocked = folder.file("blocked")
        FileManager.default.createFile(atPath: blocked, contents: Data())
        // The preferences' folder is a file: nothing can be written under it.
        let preferences = Preferences(path: (blocked as NSString).appendingPathComponent("flourish/preferences"))
        XCTAssertFalse(preferences.saveReminder(on: true, time: ReminderTime("20:00"), setAt: Date()))
        let item = LoginItem(applicationID: "org.flourishjournal.Flourish", environment: ["XDG_CONFIG_HOME": folder.file("config")])
        XCTAssertThrowsError(try ReminderSwitch.turnOn(at: ReminderTime("20:00")!, preferences: preferences, loginItem: item)) {
            XCTAssertTrue($0 is ReminderSwitch.NotSaved)
        }
        XCTAssertFalse(item.isInstalled, "no login item for a reminder that was not saved")
    }
}
