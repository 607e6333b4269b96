@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Templates in a real journal file: the three a journal starts with, made, changed, made the
/// default, deleted and put back; placeholders filled in a language; a template put into an
/// empty and into a written form; carried by the JSON export and import (and its Undo) and by
/// recovery.
final class TemplateTests: XCTestCase {
    private let folder = TemporaryFolder()

    private func journal(_ name: String = "journal.sqlite") throws -> JournalStore { try JournalStore(path: folder.file(name)) }

    func testAJournalStartsWithThreeTemplatesAndTheyAreMadeChangedAndDeletedWithUndo() throws {
        let store = try journal()
        XCTAssertEqual(try store.templates().map(\.name), ["Three good things", "Evening review", "Weekly review"])
        XCTAssertNil(try store.templates().first(where: \.isDefault), "none is the default to start with")

        let made = try store.createTemplate(TemplateDefinition(name: "  Gratitude\n", title: "Thanks,\n{{date}}", body: "- ", tags: ["Family", "family", " "]))
        XCTAssertEqual(made.definition.name, "Gratitude", "the name trimmed, on one line")
        XCTAssertEqual(made.definition.title, "Thanks, {{date}}", "the title on one line")
        XCTAssertEqual(made.definition.tags, ["Family"], "each tag once, in any case")
        XCTAssertEqual(try store.templates().last, made, "last in the order")
        XCTAssertThrowsError(try store.createTemplate(TemplateDefinition(name: " "))) { error in
            XCTAssertEqual((error as? JournalError)?.errorDescription, TemplateDefinition.Problem.emptyName.message)
        }
        XCTAssertThrowsError(try store.createTemplate(TemplateDefinition(name: String(repeating: "n", count: 101))))

        let changed = try store.updateTemplate(id: made.id, to: TemplateDefinition(name: "Gratitude", body: "1. ", mood: .reallyGood))
        XCTAssertEqual(try store.templates().first { $0.id == made.id }?.definition, changed.definition)

        try store.setDefaultTemplate(id: made.id)
        XCTAssertEqual(try store.templates().filter(\.isDefault).map(\.id), [made.id])
        let evening = try XCTUnwrap(try store.templates().first { $0.name == "Evening review" })
        try store.setDefaultTemplate(id: evening.id)
        XCTAssertEqual(try store.templates().filter(\.isDefault).map(\.id), [evening.id], "one default at a time")

        // Deleted and put back by Undo: where it stood, under its uuid, the default again.
        let gone = try store.deleteTemplate(id: evening.id)
        XCTAssertEqual(try store.templates().map(\.name), ["Three good things", "Weekly review", "Gratitude"])
        let back = try store.restoreTemplate(gone)
        XCTAssertEqual(back.uuid, evening.uuid)
        XCTAssertEqual(try store.templates().map(\.name), ["Three good things", "Evening review", "Weekly review", "Gratitude"])
        XCTAssertEqual(try store.templates().filter(\.isDefault).map(\.uuid), [evening.uuid])
        try store.setDefaultTemplate(id: nil)
        XCTAssertEqual(try store.templates().filter(\.isDefault), [])
        XCTAssertThrowsError(try store.setDefaultTemplate(id: 9_999))
    }

    func testPlaceholdersAreFilledInThePersonsLanguage() {
        // Monday 7 December 2026, 14:05 in Paris.
        let date = Date(timeIntervalSince1970: 1_796_648_700)
        let paris = TimeZone(identifier: "Europe/Paris")!
        let text = "{{weekday}} {{ Date }} at {{time}}; {{mood}} {{date"
        XCTAssertEqual(TemplatePlaceholders.fill(text, at: date, locale: Locale(identifier: "en_GB"), timeZone: paris),
                       "Monday 7 December 2026 at 14:05; {{mood}} {{date", "unknown names and an unclosed brace stay as written")
        XCTAssertEqual(TemplatePlaceholders.fill("{{weekday}} {{date}}", at: date, locale: Locale(identifier: "fr_FR"), timeZone: paris),
                       "lundi 7 décembre 2026")
        XCTAssertEqual(TemplatePlaceholders.fill("{{{date}}}", at: date, locale: Locale(identifier: "en_GB"), timeZone: paris),
                       "{7 December 2026}")
    }

    func testATemplateFillsAnEmptyFormAndGoesInAtTheCursorOfAWrittenOne() throws {
        let store = try journal()
        let tags = try store.tags(counted: false)
        let sleep = try store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number))
        let energy = try store.createMeasure(MeasureDefinition(name: "Energy", kind: .scale))
        let family = try XCTUnwrap(tags.first { $0.name == "family" }), work = try XCTUnwrap(tags.first { $0.name == "work" })
        let template = try store.createTemplate(TemplateDefinition(name: "Evening", title: "Evening of {{weekday}}", body: "Today:\n1. \n2. ",
                                                                   mood: .okay, tags: ["FAMILY", "gone"], measures: [sleep.uuid: 8, "elsewhere": 1]))
        let date = Date(timeIntervalSince1970: 1_796_648_700)
        let fill = TemplateFill(template, at: date, tags: tags, measures: try store.measures(), locale: Locale(identifier: "en_GB"),
                                timeZone: TimeZone(identifier: "Europe/Paris")!)
        XCTAssertEqual(fill.title, "Evening of Monday")
        XCTAssertEqual(fill.tagIDs, [family.id], "by name in any case; a tag the journal lacks is left out")
        XCTAssertEqual(fill.measures, [sleep.id: 8])

        let empty = fill.applied(to: EntryDraft(tagIDs: [work.id], measures: [energy.id: 3]), cursor: 0)
        XCTAssertEqual(empty.draft.title, "Evening of Monday")
        XCTAssertEqual(empty.draft.body, "Today:\n1. \n2. ")
        XCTAssertEqual(empty.draft.mood, .okay)
        XCTAssertEqual(empty.draft.tagIDs, [work.id, family.id])
        XCTAssertEqual(empty.draft.measures, [energy.id: 3, sleep.id: 8])
        XCTAssertNil(empty.inserted)
        XCTAssertEqual(empty.cursor, "Today:\n1. ".count, "writing starts at the first prompt")

        let written = EntryDraft(title: "Mine", body: "First line.Last line.", mood: .theBest, measures: [sleep.id: 6])
        let put = fill.applied(to: written, cursor: "First line.".count)
        XCTAssertEqual(put.draft.title, "Mine", "the person's title stays")
        XCTAssertEqual(put.draft.mood, .theBest, "and their mood")
        XCTAssertEqual(put.draft.measures, [sleep.id: 6], "and their values")
        XCTAssertEqual(put.draft.body, "First line.\nToday:\n1. \n2. \nLast line.", "on lines of its own, every word kept")
        XCTAssertEqual(put.inserted, "\nToday:\n1. \n2. \n")
        XCTAssertEqual(put.cursor, "First line.\nToday:\n1. ".count)
        let atEnd = fill.applied(to: EntryDraft(body: "Done.\n"), cursor: 6)
        XCTAssertEqual(atEnd.draft.body, "Done.\nToday:\n1. \n2. ")
        XCTAssertEqual(atEnd.draft.title, "Evening of Monday", "a form without a title takes the template's")

        // Offsets are GTK's, in Unicode scalars: "👍🏽" is two of them, one Character.
        let emoji = fill.applied(to: EntryDraft(title: "t", body: "Ok 👍🏽\nfin"), cursor: 5)
        XCTAssertEqual(emoji.draft.body, "Ok 👍🏽\nToday:\n1. \n2. \nfin")
        XCTAssertEqual(emoji.cursor, 5 + 1 + "Today:\n1. ".unicodeScalars.count)
        // A template without a body (tags or values only) leaves the words as they are.
        let bare = try store.createTemplate(TemplateDefinition(name: "Tags only", tags: ["work"]))
        let tagsOnly = TemplateFill(bare, at: date, tags: tags, measures: []).applied(to: EntryDraft(body: "Hello world"), cursor: 5)
        XCTAssertEqual(tagsOnly.draft.body, "Hello world")
        XCTAssertEqual(tagsOnly.draft.tagIDs, [work.id])
        XCTAssertEqual(tagsOnly.cursor, 5)
    }

    func testTemplatesTravelInTheJSONExportAndImportWithUndo() throws {
        let source = try journal("source.sqlite")
        let sleep = try source.createMeasure(MeasureDefinition(name: "Sleep", kind: .number))
        let made = try source.createTemplate(TemplateDefinition(name: "Morning", title: "{{date}}", body: "Slept well?", mood: .meh,
                                                                tags: ["work"], measures: [sleep.uuid: 7.5]))
        try source.setDefaultTemplate(id: made.id)
        let path = folder.file("journal.json")
        _ = try source.export(.json, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("\"templates\": [{"), text)
        XCTAssertTrue(text.contains("\"measures\":{\"Sleep\":7.5}"), "values by the measure's name, as the entries give theirs")

        let file = try ImportFile.read(path: path)
        XCTAssertEqual(file.templates.map(\.definition.name), ["Three good things", "Evening review", "Weekly review", "Morning"])
        let target = try journal("target.sqlite")
        let before = try target.templates()
        let targetSleep = try target.createMeasure(MeasureDefinition(name: "sleep", kind: .number))
        let receipt = try target.importEntries(file.entries ?? [], tags: file.tags, measures: file.measures, templates: file.templates)
        XCTAssertEqual(receipt.templateIDs.count, 1, "the starters are there already, by uuid")
        let imported = try XCTUnwrap(try target.templates().first { $0.uuid == made.uuid })
        XCTAssertEqual(imported.definition.title, "{{date}}", "placeholders kept as written")
        XCTAssertEqual(imported.definition.measures, [targetSleep.uuid: 7.5], "on the journal's measure of that name")
        XCTAssertTrue(imported.isDefault, "the journal had no default: the file's becomes it")
        XCTAssertEqual(try target.importEntries(file.entries ?? [], tags: file.tags, measures: file.measures, templates: file.templates).templateIDs,
                       [], "imported twice, nothing new")
        try target.undoImport(receipt)
        XCTAssertEqual(try target.templates(), before, "Undo takes it back")
    }

    func testRecoveryKeepsTheTemplatesAsTheyWere() throws {
        let store = try journal()
        let kept = try store.createTemplate(TemplateDefinition(name: "Kept", body: "Body"))
        try store.setDefaultTemplate(id: kept.id)
        let weekly = try XCTUnwrap(try store.templates().first { $0.name == "Weekly review" })
        _ = try store.deleteTemplate(id: weekly.id)
        let before = try store.templates()
        store.close()
        let recovered = try JournalRescue.recover(from: folder.file("journal.sqlite"), to: folder.file("recovered.sqlite"))
        XCTAssertEqual(recovered.recovered, 0)
        let again = try journal("recovered.sqlite")
        XCTAssertEqual(try again.templates().map(\.uuid), before.map(\.uuid), "the same templates, the deleted one still gone")
        XCTAssertEqual(try again.templates().map(\.definition), before.map(\.definition))
        XCTAssertEqual(try again.templates().first(where: \.isDefault)?.uuid, kept.uuid)
    }
}
