@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The Export and Import windows in a real window over a real journal: an export runs in the
/// background with its progress and says what it wrote; a Daylio file shows its moods with
/// their counts and proposals, a changed mapping is what is saved, the notice's Undo takes the
/// import back, and a bad file is refused with its line and nothing imported. A Daylio backup
/// says which photos and voice notes stay behind, a CSV without its header says so, and the
/// backup of entries imported from the CSV adds nothing. (Photos: ExportImportUITests+Photos.)
final class ExportImportUITests: XCTestCase {
    func testExportWritesTheChosenFormatAndSaysSo() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            _ = try harness.journal.save(try EntryDraft(title: "One", body: "Two, \"three\"", mood: .okay).validated().get(), createdAt: Date())
            XCTAssertTrue(harness.main.window.activateAction("win.export"))
            let export = try XCTUnwrap(harness.main.exportWindow)
            XCTAssertTrue(export.json.isActive, "JSON, the lossless one, is the default")
            XCTAssertFalse(export.byYear.isSensitive)
            export.csv.isActive = true
            XCTAssertEqual(export.format, .csv)
            export.markdown.isActive = true
            XCTAssertTrue(export.byYear.isSensitive, "one file a year is a Markdown choice")
            export.csv.isActive = true
            let path = harness.folder.file("journal.csv")
            var finished = false
            export.export(export.format, to: path) { finished = true }
            let dialog = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(dialog.title, "Journal Exported")
            XCTAssertEqual(dialog.message, "1 entry written to \(path).")
            try XCTUnwrap(dialog.button(for: Alerts.ok)).click()
            harness.waitUntil("done") { finished }
            let text = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(text.hasPrefix("date,time,weekday,mood,mood title,tags,title,body,latitude,longitude\r\n"))
            XCTAssertTrue(text.contains(",2,okay,,One,\"Two, \"\"three\"\"\",,\r\n"), text)
        }
    }

    func testADaylioImportMapsItsMoodsAndCanBeUndone() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let path = harness.folder.file("daylio.csv")
            try Data("""
                full_date,date,weekday,time,mood,activities,note_title,note
                2024-03-02,March 2,Saturday,9:30 am,rad,"hiking | friends",Summit,"Windy<br>but clear"
                2024-03-01,March 1,Friday,21:00,sleepy,reading,,
                2024-03-01,March 1,Friday,07:10,sleepy,,,

                """.utf8).write(to: URL(fileURLWithPath: path))
            let importer = harness.main.importWindow()
            importer.read(path)
            harness.waitUntil("the file is read and summed up") { importer.importButton.isSensitive }
            XCTAssertEqual(importer.summary.text, "daylio.csv: 3 entries, 3 tags, 0 already in your journal.")
            XCTAssertEqual(importer.moodChoices.map(\.name), ["rad", "sleepy"])
            XCTAssertEqual(importer.moodChoices.map { $0.choice.selected }, [Mood.theBest.rawValue, Mood.okay.rawValue])
            harness.waitUntil("the keyboard is on the first mood's choice") { importer.moodChoices[0].choice.containsFocus }
            importer.moodChoices[1].choice.selected = Mood.meh.rawValue
            importer.importButton.click()
            harness.waitUntil("imported, and the journal read again") { harness.model.count == 3 }
            let notice = harness.main.notice
            XCTAssertTrue(notice.isShowing)
            XCTAssertEqual(notice.label.text, "3 entries imported")
            let saved = try harness.journal.entries(ids: try harness.journal.entryIDs())
            XCTAssertEqual(saved.map(\.mood), [.theBest, .meh, .meh], "newest first; sleepy became meh")
            XCTAssertEqual(saved.first?.body, "Windy\nbut clear")
            XCTAssertTrue(try harness.journal.tags().contains { $0.name == "hiking" })

            // The same file again: nothing new.
            importer.read(path)
            harness.waitUntil("read again") { importer.summary.text.contains("3 already") }
            XCTAssertFalse(importer.importButton.isSensitive)
            XCTAssertTrue(importer.summary.text.hasSuffix("There is nothing new to import."))
            importer.cancelButton.click()

            notice.undoButton.click()
            harness.waitUntil("Undo takes the import back") { harness.model.count == 0 && !notice.isShowing }
            XCTAssertFalse(try harness.journal.tags().contains { $0.name == "hiking" }, "the tag it made goes too")
        }
    }

    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/Daylio").standardized

    func testADaylioBackupSaysWhatStaysBehindAndProposesEachMoodByItsStep() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let path = Self.fixtures.appendingPathComponent("en-backup.daylio").path
            let importer = harness.main.importWindow()
            importer.read(path)
            harness.waitUntil("the backup is read and summed up") { importer.importButton.isSensitive }
            XCTAssertEqual(importer.summary.text, "en-backup.daylio: 5 entries, 3 tags, 0 already in your journal. "
                           + "2 photos are left behind: they are missing from the file or are not pictures. "
                           + "Not imported (Flourish keeps no sound): 1 voice note.", "its stand-in photos are text")
            XCTAssertEqual(importer.moodChoices.map(\.name), ["rad", "love it", "sleepy", "so-so", "awful"])
            XCTAssertEqual(importer.moodChoices.map { $0.choice.selected },
                           [Mood.theBest, .theBest, .notSoGreat, .okay, .theWorst].map(\.rawValue), "each custom mood on its own step")
            harness.waitUntil("the keyboard is on the first mood's choice") { importer.moodChoices[0].choice.containsFocus }
            importer.importButton.click()
            harness.waitUntil("imported") { harness.model.count == 5 }
            XCTAssertEqual(harness.main.notice.label.text, "5 entries imported")
            let saved = try harness.journal.entries(ids: try harness.journal.entryIDs())
            XCTAssertTrue(saved.contains { $0.body == "First bold line\n\nAfter a blank line\none\ntwo & three" }, "HTML as plain text")
            XCTAssertTrue(try harness.journal.tags().contains { $0.name == "Yoga 🧘" })
        }
    }

    func testACSVWithoutItsHeaderSaysSoAndItsBackupAfterItAddsNothing() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let importer = harness.main.importWindow()
            importer.read(Self.fixtures.appendingPathComponent("no-header.csv").path)
            harness.waitUntil("read") { importer.importButton.isSensitive }
            XCTAssertEqual(importer.summary.text, "no-header.csv: 2 entries, 1 tag, 0 already in your journal. "
                           + "The file has no header line: its columns were recognised from its entries.")
            importer.cancelButton.click()
            XCTAssertEqual(try harness.journal.count(), 0, "nothing is written before Import")

            // The German CSV, then Daylio's backup of the same two entries.
            importer.read(Self.fixtures.appendingPathComponent("de-pair.csv").path)
            harness.waitUntil("the CSV is read") { importer.summary.text.hasPrefix("de-pair.csv: 2 entries") }
            XCTAssertEqual(importer.moodChoices.map(\.name), ["super", "müde"])
            XCTAssertEqual(importer.moodChoices[0].choice.selected, Mood.theBest.rawValue, "German rad")
            importer.importButton.click()
            harness.waitUntil("imported") { harness.model.count == 2 }
            importer.read(Self.fixtures.appendingPathComponent("de-pair-backup.daylio").path)
            harness.waitUntil("the backup is read") { importer.summary.text.contains("2 already") }
            XCTAssertEqual(importer.summary.text, "de-pair-backup.daylio: 2 entries, 0 tags, 2 already in your journal. There is nothing new to import.")
            XCTAssertFalse(importer.importButton.isSensitive)
        }
    }

    func testTheFileChooserOffersDaylioBackupsAndEveryFile() {
        MainActor.assumeIsolated {
            XCTAssertEqual(ImportWindow.filters.map(\.suffixes), [["csv", "daylio", "json", "zip", "md", "xml", "txt"], []])
            XCTAssertEqual(ImportWindow.filters.map(\.name), ["Journals to import (Flourish, Daylio, Day One, Diaro, Journey, jrnl, Markdown)", "All files"])
        }
    }

    func testABadFileIsRefusedWithItsLineAndNothingIsImported() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let path = harness.folder.file("broken.csv")
            try Data("full_date,date,weekday,time,mood,activities,note_title,note\n2024-03-02,March 2,Saturday,9:30 am,rad,,,\n2024-03-01,March 1,Friday,half past nine,rad,,,\n"
                .utf8).write(to: URL(fileURLWithPath: path))
            harness.main.importWindow().read(path)
            let dialog = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(dialog.title, "This File Cannot Be Imported")
            XCTAssertEqual(dialog.message, "broken.csv: Line 3: the time “half past nine” is not a time (20:15 or 8:15 pm). Nothing was imported.")
            try XCTUnwrap(dialog.button(for: Alerts.ok)).click()
            XCTAssertEqual(try harness.journal.count(), 0)

            // A backup that is not one: said in a sentence, without a line.
            let fake = harness.folder.file("fake.daylio")
            try Data("not a zip".utf8).write(to: URL(fileURLWithPath: fake))
            harness.main.importWindow().read(fake)
            let refusal = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(refusal.message, "fake.daylio: This is not a Daylio backup: it is not a ZIP file. Nothing was imported.")
            try XCTUnwrap(refusal.button(for: Alerts.ok)).click()
            XCTAssertEqual(try harness.journal.count(), 0)
        }
    }
}
