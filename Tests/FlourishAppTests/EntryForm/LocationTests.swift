@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import GtkKit
import XCTest

/// "Attach location" against the real GeoClue client, talking D-Bus to a stand-in GeoClue on a
/// private system bus: a fix, a denial, no service, no answer, and the switch off.
final class LocationTests: XCTestCase {
    private func savedEntries(_ harness: Harness) throws -> [Entry] {
        try harness.journal.entries(ids: try harness.journal.entryIDs())
    }

    /// Fills the form, saves, and dismisses "Entry Saved".
    @MainActor
    private func save(_ harness: Harness, title: String) throws {
        harness.fill(title: title, body: "", mood: .okay)
        harness.form.saveButton.click()
        XCTAssertEqual(harness.waitForDialog()?.title, "Entry Saved")
        try XCTUnwrap(harness.main.alerts.current?.button(for: Alerts.ok)).click()
        harness.waitUntil("the dialog goes") { harness.main.alerts.current == nil }
    }

    func testTheSwitchStartsOffAndMakesNoDBusCallAtAll() throws {
        let geoclue = try GeoClueStandIn(.fix, logIn: NSTemporaryDirectory())
        defer { geoclue.stop() }
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            XCTAssertFalse(harness.form.locationSwitch.isOn)
            XCTAssertFalse(harness.form.locationStatus.isVisible)
            try save(harness, title: "No location")
            MainLoop.run(for: 0.5)
            XCTAssertNil(try savedEntries(harness).first?.location)
        }
        XCTAssertEqual(geoclue.calls, [], "with the switch off Flourish never talks to GeoClue")
    }

    func testAFixIsSavedWithTheEntryAndShownInTheJournal() throws {
        let geoclue = try GeoClueStandIn(.fix, logIn: NSTemporaryDirectory())
        defer { geoclue.stop() }
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            harness.form.locationSwitch.isOn = true
            XCTAssertEqual(harness.form.locationStatus.text, "Finding where you are…")
            harness.waitUntil("the fix arrives") { harness.form.locationState.location != nil }
            XCTAssertEqual(harness.form.locationStatus.text, "Location found, accurate to 50 m.")
            XCTAssertTrue(harness.preferences.attachLocation, "the choice is remembered")

            try save(harness, title: "Berlin")
            let saved = try XCTUnwrap(try savedEntries(harness).first)
            XCTAssertEqual(saved.location, Location(latitude: 52.52, longitude: 13.405, accuracy: 50))

            harness.main.show(.journal)
            harness.waitUntil("the row shows the place") {
                harness.main.journal.rows.contains { $0.entry?.title == "Berlin" && $0.locationLabel.isMapped }
            }
            let row = try XCTUnwrap(harness.main.journal.rows.first { $0.entry?.title == "Berlin" })
            XCTAssertEqual(row.locationLabel.text, "52.52° N, 13.40° E ±50 m")
        }
        XCTAssertEqual(Array(geoclue.calls.prefix(4)),
                       ["GetClient", "Set DesktopId \(FlourishApplication.applicationID)", "Set RequestedAccuracyLevel 8", "Start"])
        XCTAssertTrue(geoclue.calls.contains("Get Latitude"))
    }

    func testAFixIsKeptWhenALaterUpdateCannotBeRead() throws {
        let geoclue = try GeoClueStandIn(.fixThenStale, logIn: NSTemporaryDirectory())
        defer { geoclue.stop() }
        try MainActor.assumeIsolated {
            let harness = try Harness(attachLocation: true)
            defer { harness.close() }
            harness.waitUntil("the fix arrives") { harness.form.locationState.location != nil }
            harness.waitUntil("the stale update was tried") { geoclue.calls.filter { $0 == "Get Latitude" }.count >= 1 && geoclue.calls.count > 8 }
            MainLoop.run(for: 0.6)
            XCTAssertEqual(harness.form.locationState.location, Location(latitude: 52.52, longitude: 13.405, accuracy: 50),
                           "a failed read of a superseded Location keeps the fix")
        }
    }

    func testTheRememberedChoiceLocatesAsTheFormOpens() throws {
        let geoclue = try GeoClueStandIn(.fix, logIn: NSTemporaryDirectory())
        defer { geoclue.stop() }
        try MainActor.assumeIsolated {
            let harness = try Harness(attachLocation: true)
            defer { harness.close() }
            XCTAssertTrue(harness.form.locationSwitch.isOn)
            harness.waitUntil("the fix arrives without touching the switch") { harness.form.locationState.location != nil }
        }
    }

    func testADenialIsSaidAndTheEntryIsSavedWithoutALocation() throws {
        let geoclue = try GeoClueStandIn(.deny, logIn: NSTemporaryDirectory())
        defer { geoclue.stop() }
        try MainActor.assumeIsolated {
            let harness = try Harness(attachLocation: true)
            defer { harness.close() }
            harness.waitUntil("the denial") { harness.form.locationState == .denied }
            XCTAssertEqual(harness.form.locationStatus.text, LocationStatus.denied.message)
            try save(harness, title: "Private")
            XCTAssertNil(try savedEntries(harness).first?.location)
            XCTAssertEqual(try savedEntries(harness).first?.title, "Private")
        }
    }

    func testNoLocationServiceIsSaidAndSavingWorks() throws {
        PrivateSystemBus.ensure() // the bus, but no GeoClue on it
        try MainActor.assumeIsolated {
            let harness = try Harness(attachLocation: true)
            defer { harness.close() }
            harness.waitUntil("not available") { harness.form.locationState == .unavailable }
            XCTAssertEqual(harness.form.locationStatus.text, LocationStatus.unavailable.message)
            try save(harness, title: "Anywhere")
            XCTAssertNil(try savedEntries(harness).first?.location)
        }
    }

    func testNoAnswerTimesOutAndSavingWorks() throws {
        let geoclue = try GeoClueStandIn(.silent, logIn: NSTemporaryDirectory())
        defer { geoclue.stop() }
        try MainActor.assumeIsolated {
            let harness = try Harness(attachLocation: true)
            defer { harness.close() }
            // Saving does not wait for the location.
            try save(harness, title: "Impatient")
            XCTAssertNil(try savedEntries(harness).first?.location)
            harness.waitUntil("the wait times out") { harness.form.locationState == .timedOut }
            XCTAssertEqual(harness.form.locationStatus.text, LocationStatus.timedOut.message)
        }
        XCTAssertTrue(geoclue.calls.contains("Start"))
    }

    func testSwitchingOffBeforeSavingLeavesTheLocationOut() throws {
        let geoclue = try GeoClueStandIn(.fix, logIn: NSTemporaryDirectory())
        defer { geoclue.stop() }
        try MainActor.assumeIsolated {
            let harness = try Harness(attachLocation: true)
            defer { harness.close() }
            harness.waitUntil("the fix arrives") { harness.form.locationState.location != nil }
            harness.form.locationSwitch.isOn = false
            XCTAssertFalse(harness.form.locationStatus.isVisible)
            XCTAssertFalse(harness.preferences.attachLocation)
            try save(harness, title: "Not here")
            XCTAssertNil(try savedEntries(harness).first?.location)
        }
        XCTAssertTrue(geoclue.calls.contains("Stop"), "the GeoClue client is stopped")
    }
}
