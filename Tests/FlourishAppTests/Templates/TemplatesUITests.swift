@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The forms' Template menu and Preferences → Templates, in a real window over a real journal.
final class TemplatesUITests: XCTestCase {
    /// The template menu's items, once the templates are read.
    @MainActor
    private func menu(_ harness: Harness) -> TemplateMenu {
        let menu = harness.form.fields.templateMenu
        harness.waitUntil("the templates are read") { menu.itemButtons.count == harness.model.templates.count && !harness.model.templates.isEmpty }
        return menu
    }

    @MainActor
    private func choose(_ name: String, in menu: TemplateMenu, _ harness: Harness) throws {
        menu.button.open()
        harness.waitUntil("the Template menu opens") { menu.button.isOpen }
        let index = try XCTUnwrap(harness.model.templates.firstIndex { $0.name == name })
        menu.itemButtons[index].click()
        harness.waitUntil("the menu closes") { !menu.button.isOpen }
    }

    @MainActor
    private func saveAndDismiss(_ harness: Harness) throws {
        harness.form.save()
        let dialog = try XCTUnwrap(harness.waitForDialog())
        try XCTUnwrap(dialog.button(for: Alerts.ok)).click()
        harness.waitUntil("the dialog goes") { harness.main.alerts.current == nil }
    }

    func testATemplateFillsAnEmptyFormAndGoesInAtTheCursorOfAWrittenOne() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness.withTags()
            defer { harness.close() }
            let menu = menu(harness)
            XCTAssertEqual(menu.itemButtons.map(\.label), ["Three good things", "Evening review", "Weekly review"])
            XCTAssertEqual(menu.button.accessibleName, "Template")

            let today = TemplatePlaceholders.fill("{{date}}", at: Date())
            try choose("Evening review", in: menu, harness)
            let form = harness.form
            XCTAssertEqual(form.titleField.text, "Evening review, \(today)", "the placeholder filled in the person's language")
            XCTAssertTrue(form.bodyField.text.hasPrefix("## What happened today\n\n"))
            XCTAssertTrue(form.bodyField.hasFocus, "the keyboard goes to the body")
            XCTAssertEqual(form.bodyField.cursorOffset, "## What happened today\n".count, "under the first heading")
            XCTAssertFalse(form.hasUnsavedText, "nothing written yet: closing loses nothing")
            form.bodyField.insertAtCursor("A long walk.")
            XCTAssertTrue(form.hasUnsavedText)
            XCTAssertTrue(form.bodyField.text.hasPrefix("## What happened today\nA long walk.\n"))

            // A second template into the written form: every word stays, its body at the cursor.
            form.titleField.text = "My own title"
            form.bodyField.placeCursor(at: "## What happened today\nA long walk.".count)
            try choose("Three good things", in: menu, harness)
            XCTAssertEqual(form.titleField.text, "My own title")
            let weekday = TemplatePlaceholders.fill("{{weekday}}", at: Date())
            XCTAssertTrue(form.bodyField.text.hasPrefix("## What happened today\nA long walk.\n\(weekday), \(today)\n\n1. \n2. \n3. \n"),
                          form.bodyField.text)
            XCTAssertTrue(form.bodyField.text.hasSuffix("## What I would do differently\n\n"), "the rest left alone")

            harness.picker.set(.reallyGood)
            try saveAndDismiss(harness)
            let saved = try XCTUnwrap(try harness.journal.entries(ids: try harness.journal.entryIDs()).first)
            XCTAssertEqual(saved.title, "My own title")
            XCTAssertTrue(saved.body.contains("A long walk.\n\(weekday), \(today)"))
            XCTAssertEqual(form.titleField.text, "", "no default template: the form empties")
        }
    }

    func testTemplatesAreMadeEditedMadeTheDefaultAndDeletedWithUndo() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness.withTags()
            defer { harness.close() }
            _ = menu(harness)
            XCTAssertTrue(harness.main.window.activateAction("win.preferences"))
            try XCTUnwrap(harness.main.preferencesWindow).templatesButton.click()
            let window = try XCTUnwrap(harness.main.templatesWindow)
            harness.waitUntil("the window is shown, over Preferences") { window.window.isActive }
            XCTAssertEqual(window.listButtons.count, 3)
            XCTAssertEqual(window.nameField.text, "Three good things", "the first shown")

            window.newButton.click()
            harness.waitUntil("a new template is made and shown, the keyboard in its name") {
                window.listButtons.count == 4 && window.nameField.text == "New template" && window.nameField.containsFocus
            }
            XCTAssertEqual(window.undoLabel.text, "“New template” made")
            window.nameField.text = " "
            window.saveButton.click()
            XCTAssertEqual(window.problem.text, "Give the template a name.")
            window.nameField.text = "Morning"
            window.titleField.text = "Morning of {{weekday}}"
            window.bodyField.text = "Slept: "
            window.moodChoice.selected = Mood.okay.rawValue + 1
            try XCTUnwrap(window.tags.button(named: "good sleep")).click()
            window.nameField.activate()
            harness.waitUntil("kept") { harness.model.templates.last?.name == "Morning" }
            let morning = try XCTUnwrap(try harness.journal.templates().last)
            XCTAssertEqual(morning.definition, TemplateDefinition(name: "Morning", title: "Morning of {{weekday}}", body: "Slept: ",
                                                                  mood: .okay, tags: ["good sleep"]))
            XCTAssertEqual(window.undoLabel.text, "“Morning” changed")

            // Made the default: the empty New Entry form starts from it at once, and after each save.
            window.defaultCheck.isActive = true
            harness.waitUntil("the default") { harness.model.defaultTemplate?.uuid == morning.uuid }
            let weekday = TemplatePlaceholders.fill("{{weekday}}", at: Date())
            harness.waitUntil("the form starts from it") { harness.form.titleField.text == "Morning of \(weekday)" }
            XCTAssertEqual(harness.form.bodyField.text, "Slept: ")
            XCTAssertEqual(harness.picker.mood, .okay)
            XCTAssertEqual(harness.form.fields.tags.selected, [try harness.tagID("good sleep")])
            XCTAssertFalse(harness.form.hasUnsavedText)
            XCTAssertTrue(window.listButtons.last?.button.label == "Morning (default)")
            harness.form.bodyField.insertAtCursor("eight hours")
            try saveAndDismiss(harness)
            XCTAssertEqual(try harness.journal.entries(ids: try harness.journal.entryIDs()).first?.body, "Slept: eight hours")
            XCTAssertEqual(harness.form.titleField.text, "Morning of \(weekday)", "the next entry starts from it too")

            // Edits not kept yet stay through a change elsewhere (the default ticked off and on).
            window.bodyField.text = "Slept, then: "
            window.defaultCheck.isActive = false
            harness.waitUntil("no default") { harness.model.defaultTemplate == nil }
            XCTAssertEqual(window.bodyField.text, "Slept, then: ", "the editor keeps what was typed")
            XCTAssertEqual(harness.model.templates.last?.definition.body, "Slept, then: ", "kept first, then the default changed")
            window.defaultCheck.isActive = true
            harness.waitUntil("the default again") { harness.model.defaultTemplate?.uuid == morning.uuid }
            // A name cleared: another template is not shown until it has one, nothing lost.
            window.nameField.text = ""
            window.listButtons[0].button.click()
            XCTAssertEqual(window.problem.text, "Give the template a name.")
            XCTAssertEqual(window.shownID, harness.model.templates.last?.id, "still shown, its words in the editor")
            XCTAssertEqual(window.bodyField.text, "Slept, then: ")
            window.nameField.text = "Morning"

            // Edits not yet kept are kept when another template is shown.
            window.bodyField.text = "Slept well: "
            window.listButtons[0].button.click()
            harness.waitUntil("kept on the way") { harness.model.templates.last?.definition.body == "Slept well: " }
            XCTAssertEqual(window.nameField.text, "Three good things")

            // Deleted, and back with Undo, the default still.
            window.listButtons[3].button.click()
            window.deleteButton.click()
            harness.waitUntil("deleted") { harness.model.templates.count == 3 }
            XCTAssertEqual(window.undoLabel.text, "“Morning” deleted")
            window.undo()
            harness.waitUntil("back") { harness.model.templates.count == 4 }
            XCTAssertEqual(harness.model.defaultTemplate?.uuid, morning.uuid)
            XCTAssertEqual(window.nameField.text, "Morning", "shown again")
            window.undo()
            harness.waitUntil("the edit taken back") { harness.model.templates.last?.definition.body == "Slept, then: " }
        }
    }
}
