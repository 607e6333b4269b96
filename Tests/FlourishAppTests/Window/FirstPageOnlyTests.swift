@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// Start-up builds what the first page shows and no more: the Journal page's entry view and Edit
/// form, the Insights page and the main menu's items are made the first time they are needed,
/// and work as they did. The forms' tags and measures, read with the journal as it opens, are on
/// the form as it is built (not added in a second layout after the window appears).
final class FirstPageOnlyTests: XCTestCase {
    func testTheRestOfTheWindowIsMadeWhenFirstNeeded() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let main = harness.main
            XCTAssertNil(main.journal.entryViewIfMade, "no entry view before an entry is opened")
            XCTAssertNil(main.journal.editorIfMade, "no Edit form before an edit")
            XCTAssertNil(main.insightsIfMade, "no Insights page before it is asked for")
            XCTAssertEqual(main.mainMenu.menuItemCount, 0, "no menu items before the menu opens")

            // Alt+3, before the health check (1.5 s after the window appeared) makes Insights
            // ready in the background: the page is made as it is shown, once, and reads its figures.
            XCTAssertNil(main.insightsIfMade, "not made before Alt+3")
            XCTAssertEqual(main.insightsPage.childCount, 0)
            XCTAssertTrue(main.window.activateAction("win.show-insights"))
            let insights = try XCTUnwrap(main.insightsIfMade, "made as it is shown")
            XCTAssertEqual(main.insightsPage.childCount, 1)
            harness.waitUntil("the Insights page is on screen") { insights.view.isMapped }
            harness.waitUntil("its figures are read") { insights.insights != nil }
            XCTAssertTrue(main.insights === insights)
            XCTAssertEqual(main.insightsPage.childCount, 1, "made once")

            // The main menu opens (as F10 and a click open it) with its eleven items (no RedNotebook
            // journal in this home: no Import from RedNotebook).
            main.mainMenu.popup()
            XCTAssertEqual(main.mainMenu.menuItemCount, 11)
            harness.waitUntil("the main menu is on screen") { main.mainMenu.isOpen }
            main.mainMenu.popdown()
            harness.waitUntil("the main menu is closed") { !main.mainMenu.isOpen }
            main.mainMenu.popup()
            XCTAssertEqual(main.mainMenu.menuItemCount, 11, "its eleven items again at the next opening")
            harness.waitUntil("open again") { main.mainMenu.isOpen }
            main.mainMenu.popdown()

            // An entry opened: the entry view is made, shown, and goes on to its Edit form.
            let saved = try harness.journal.save(try EntryDraft(title: "First snow", body: "Cold", mood: .reallyGood).validated().get())
            harness.model.load()
            main.show(.journal)
            harness.waitUntil("listed") { main.journal.list.count == 1 }
            main.journal.open(saved.id)
            harness.waitUntil("the entry is shown") { main.journal.page == .entry && main.journal.entryView.view.isMapped }
            XCTAssertNotNil(main.journal.entryViewIfMade)
            XCTAssertNil(main.journal.editorIfMade, "the Edit form waits for Edit")
            main.journal.editOpenEntry()
            XCTAssertEqual(main.journal.page, .edit)
            harness.waitUntil("the Edit form is shown") { main.journal.editor.view.isMapped }
            XCTAssertEqual(main.journal.editor.fields.titleField.text, "First snow")
            main.journal.editor.cancel()
            harness.waitUntil("back on the entry") { main.journal.page == .entry }
        }
    }

    func testTagsAndMeasuresReadWithTheOpeningAreOnTheFormAsItIsBuilt() throws {
        try MainActor.assumeIsolated {
            Toolkit.initialize()
            let folder = TemporaryFolder()
            let store = try JournalStore(path: folder.file("journal.sqlite"))
            defer { store.close() }
            _ = try store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number, unit: "hours", range: 0...24))
            _ = try store.createMeasure(MeasureDefinition(name: "Energy", kind: .scale))
            let preferences = Preferences(path: folder.file("preferences"))
            @MainActor func window(_ model: JournalModel) -> MainWindow {
                MainWindow(application: Harness.sharedApplication(), model: model, journalPath: store.path,
                           location: GeoClueLocationProvider(desktopID: FlourishApplication.applicationID),
                           preferences: preferences, store: store)
            }

            // As the app opens a journal: the lists come with it, and the form is built with them.
            let opened = JournalModel(store: store)
            opened.begin(tags: try store.tags(counted: false), measures: try store.measures())
            let main = window(opened)
            defer { main.window.destroy() }
            XCTAssertEqual(main.form.fields.tags.buttons.count, 8, "a new journal's eight tags, before any main loop turn")
            XCTAssertEqual(main.form.fields.measures.fields.map(\.measure.name), ["Sleep", "Energy"])
            XCTAssertTrue(opened.hasListsFromOpening)

            // Without them, the form starts empty and the window reads them once it appears.
            let bare = JournalModel(store: store)
            let later = window(bare)
            defer { later.window.destroy() }
            XCTAssertEqual(later.form.fields.tags.buttons.count, 0)
            XCTAssertTrue(later.form.fields.measures.fields.isEmpty)
            later.present()
            XCTAssertTrue(MainLoop.run(until: { later.form.fields.measures.fields.count == 2 && later.form.fields.tags.buttons.count == 8 },
                                       timeout: 5), "read after the window appears")
        }
    }
}
