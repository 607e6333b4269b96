@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// One real Flourish window over a real journal file, driven in process. Needs a display (the
/// test command runs the suite under Xvfb and a session bus).
@MainActor
final class Harness {
    private static var application: Application?

    let folder = TemporaryFolder()
    let journal: JournalStore
    let model: JournalModel
    let main: MainWindow

    var form: EntryFormController { main.form }
    var picker: MoodPicker { main.form.picker }

    let preferences: Preferences
    let location: GeoClueLocationProvider

    /// - Parameters:
    ///   - wrap: puts faults in front of the real store (the real store still saves).
    ///   - attachLocation: the remembered "Attach location" choice the form opens with.
    ///   - preferencesPath: a preferences file to share between harnesses (a restart).
    ///   - journalPath: an existing journal to open instead of a new one.
    ///   - clock: the model's now (today, for "On this day").
    ///   - load: reads the ids at once; without it, they are read as the app reads them, when
    ///     the Journal page is first shown.
    init(animations: Bool = false, attachLocation: Bool = false, preferencesPath: String? = nil,
         journalPath: String? = nil, load: Bool = true, wrap: (JournalStore) -> JournalStoring = { $0 },
         clock: @escaping @Sendable () -> Date = Date.init) throws {
        // Before anything can connect to the system bus: the location tests' private one.
        PrivateSystemBus.ensure()
        Toolkit.initialize()
        Toolkit.setAnimationsEnabled(animations)
        journal = try JournalStore(path: journalPath ?? folder.file("journal.sqlite"))
        model = JournalModel(store: wrap(journal), clock: clock)
        preferences = Preferences(path: preferencesPath ?? folder.file("preferences"))
        if attachLocation { preferences.attachLocation = true }
        // The real GeoClue client; a short wait so "no answer" tests finish quickly.
        location = GeoClueLocationProvider(desktopID: FlourishApplication.applicationID, timeoutMilliseconds: 1_500)
        main = MainWindow(application: Self.sharedApplication(), model: model, journalPath: journal.path,
                          location: location, preferences: preferences, store: journal)
        main.present()
        guard load else { return }
        model.load()
        // Loaded, or (for a store with faults) the journal page says why not.
        XCTAssertTrue(MainLoop.run(until: { self.model.isLoaded || self.main.journal.page == .problem }),
                      "the journal neither loaded nor reported a problem")
    }

    static func sharedApplication() -> Application {
        if let application { return application }
        let made = Application(id: FlourishApplication.applicationID + ".Tests", unique: false)
        XCTAssertTrue(made.register(), "GApplication did not register")
        application = made
        return made
    }

    /// Pumps the GTK loop until `condition` holds, failing the test after `timeout`.
    @discardableResult
    func waitUntil(_ what: String, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line,
                   _ condition: () -> Bool) -> Bool {
        let held = MainLoop.run(until: condition, timeout: timeout)
        XCTAssertTrue(held, "timed out waiting until \(what)", file: file, line: line)
        return held
    }

    /// Pumps the loop until the window has painted a frame begun after this call (one is asked
    /// for): whatever changed before it (a text, a class, a picture, a scroll, a page shown) is
    /// then styled, laid out and drawn. What a fixed wait for layout hoped for, on a busy machine too.
    func waitForFrame(_ what: String, file: StaticString = #filePath, line: UInt = #line) {
        var painted = false
        main.window.afterNextPaint { painted = true }
        main.window.queueDraw()
        waitUntil(what, file: file, line: line) { painted }
    }

    /// The dialog on screen, once it is there.
    func waitForDialog(file: StaticString = #filePath, line: UInt = #line) -> MessageDialog? {
        waitUntil("a dialog is shown", file: file, line: line) { main.alerts.current?.isShowing == true }
        return main.alerts.current
    }

    /// Fills the form as a person would, choosing the mood through the popover's own button.
    func fill(title: String, body: String, mood: Mood) {
        form.titleField.text = title
        form.bodyField.text = body
        picker.button.click()
        waitUntil("the mood popover opens") { picker.popover.isMapped }
        picker.choices[mood.rawValue].click()
        waitUntil("the mood popover closes") { !picker.popover.isOpen }
    }

    func close() {
        main.window.close()
        MainLoop.run(for: 0.05)
    }
}

extension Harness {
    /// A harness whose forms show the journal's tags (the eight a new journal starts with).
    static func withTags() throws -> Harness {
        let harness = try Harness()
        harness.waitUntil("the tags are read") { harness.form.fields.tags.buttons.count == 8 }
        return harness
    }

    /// The first day of `searching()`'s entries.
    nonisolated static let searchingStart = Date(timeIntervalSince1970: 1_700_000_000)

    /// Three tagged entries a day apart from `searchingStart`, the journal page shown, the search
    /// bar open: what the search tests and the Tags window's test start from.
    static func searching() throws -> (Harness, [String: Entry]) {
        let harness = try withTags()
        let work = try harness.tagID("work"), friends = try harness.tagID("friends")
        var entries: [String: Entry] = [:]
        for (index, (title, body, mood, tags)) in [("Café au lait", "Morning with friends", Mood.theBest, [friends]),
                                                   ("Walking the dog", "Rain at the cafe", Mood.meh, [work, friends]),
                                                   ("Long meeting", "Work all day", Mood.theWorst, [work])].enumerated() {
            entries[title] = try harness.journal.save(try EntryDraft(title: title, body: body, mood: mood, tagIDs: Set(tags)).validated().get(),
                                                      createdAt: searchingStart.addingTimeInterval(Double(index) * 86_400))
        }
        harness.model.load()
        harness.main.show(.journal)
        harness.waitUntil("listed") { harness.main.journal.list.count == 3 }
        XCTAssertTrue(harness.main.window.activateAction("win.find"), "Ctrl+F")
        XCTAssertTrue(harness.main.journal.search.isSearching)
        return (harness, entries)
    }

    func tagID(_ name: String) throws -> Int64 {
        try XCTUnwrap(model.tags.first { $0.name == name }).id
    }
}

extension XCTestCase {
    /// XCTest on Linux runs tests on the main thread; this says so to the compiler.
    @MainActor
    func onMain(_ body: @MainActor () throws -> Void) rethrows {
        try body()
    }
}
