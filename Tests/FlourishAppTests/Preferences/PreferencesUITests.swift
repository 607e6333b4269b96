@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The Preferences window in a real window: the daily reminder's switch and time, remembered in
/// the preferences file, with the login item written and removed in a real autostart folder.
final class PreferencesUITests: XCTestCase {
    @MainActor
    private func open(_ harness: Harness) throws -> PreferencesWindow {
        harness.main.loginItem = LoginItem(applicationID: BuildProfile.applicationID,
                                           environment: ["XDG_CONFIG_HOME": harness.folder.file("config")])
        XCTAssertTrue(harness.main.window.activateAction("win.preferences"), "main menu → Preferences (Ctrl+,)")
        return try XCTUnwrap(harness.main.preferencesWindow)
    }

    func testTheReminderIsTurnedOnAtItsTimeRememberedAndTurnedOffWithItsLoginItem() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let window = try open(harness)
            let item = harness.main.loginItem
            XCTAssertFalse(window.reminderSwitch.isOn, "off until turned on")
            XCTAssertEqual(window.hourField.value, 20)
            XCTAssertEqual(window.minuteField.value, 0)
            XCTAssertFalse(item.isInstalled)

            window.reminderSwitch.isOn = true
            XCTAssertTrue(harness.preferences.reminderOn)
            XCTAssertTrue(item.isInstalled, "turning it on asks nothing else and installs the login item")
            let text = try String(contentsOfFile: item.path, encoding: .utf8)
            XCTAssertTrue(text.contains(" --gapplication-service\n"), text)
            let validate = Process()
            validate.executableURL = URL(fileURLWithPath: "/usr/bin/desktop-file-validate")
            validate.arguments = [item.path]
            try validate.run()
            validate.waitUntilExit()
            XCTAssertEqual(validate.terminationStatus, 0, "the login item is a valid desktop file")

            window.hourField.value = 21
            window.minuteField.value = 5
            XCTAssertEqual(harness.preferences.reminderTime.description, "21:05", "each change counts at once")
            XCTAssertEqual(Preferences(path: harness.preferences.path).reminderTime.description, "21:05", "remembered in the file")
            XCTAssertEqual(window.minuteField.text, "05", "minutes with two digits")

            window.reminderSwitch.isOn = false
            XCTAssertFalse(Preferences(path: harness.preferences.path).reminderOn)
            XCTAssertFalse(item.isInstalled, "turned off, the login item goes")
            XCTAssertEqual(Preferences(path: harness.preferences.path).reminderTime.description, "21:05", "the time is kept")

            // Changed from a terminal meanwhile: the window shows it when it opens again.
            window.closeButton.click()
            try ReminderSwitch.turnOn(at: ReminderTime("7:30")!, preferences: Preferences(path: harness.preferences.path), loginItem: item)
            XCTAssertTrue(harness.main.window.activateAction("win.preferences"))
            XCTAssertTrue(window.reminderSwitch.isOn)
            XCTAssertEqual(window.hourField.value, 7)
            XCTAssertEqual(window.minuteField.value, 30)
        }
    }

    func testMemoriesInTheReminderAreOffUntilTurnedOnAndRemembered() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let window = try open(harness)
            XCTAssertFalse(window.memoriesSwitch.isOn, "off until the person turns it on")
            XCTAssertFalse(harness.preferences.memoriesInReminder)
            window.memoriesSwitch.isOn = true
            XCTAssertTrue(Preferences(path: harness.preferences.path).memoriesInReminder, "remembered in the file")
            XCTAssertFalse(harness.preferences.reminderOn, "the reminder itself is its own choice")
            window.closeButton.click()
            XCTAssertTrue(harness.main.window.activateAction("win.preferences"))
            XCTAssertTrue(window.memoriesSwitch.isOn, "shown as chosen when the window opens again")
            window.memoriesSwitch.isOn = false
            XCTAssertFalse(Preferences(path: harness.preferences.path).memoriesInReminder)
        }
    }

    func testALoginItemThatCannotBeWrittenIsSaidAndTheChoiceKept() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let window = try open(harness)
            // The autostart folder's place is taken by a file.
            let config = harness.folder.file("config")
            try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: (config as NSString).appendingPathComponent("autostart"), contents: Data())
            window.reminderSwitch.isOn = true
            XCTAssertTrue(window.problem.isVisible)
            XCTAssertTrue(window.problem.text.contains("could not be changed"), window.problem.text)
            XCTAssertTrue(window.problem.text.contains("Reminders come while Flourish runs."), window.problem.text)
            XCTAssertTrue(harness.preferences.reminderOn, "the choice is kept")
        }
    }
}
