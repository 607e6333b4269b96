@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The Import window with another app's journal: a folder of Markdown notes, chosen as the
/// main menu's "Import a Folder of Notes…" does, previewed, then imported without moods.
final class ForeignImportUITests: XCTestCase {
    func testAFolderOfNotesIsPreviewedThenImportedWithoutMoods() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder()
            let notes = folder.file("Journal")
            try FileManager.default.createDirectory(atPath: notes, withIntermediateDirectories: true)
            try Data("# Rainy Monday\nStayed in.\n".utf8).write(to: URL(fileURLWithPath: (notes as NSString).appendingPathComponent("2022-01-03.md")))
            try Data("Walked.\n".utf8).write(to: URL(fileURLWithPath: (notes as NSString).appendingPathComponent("2022-01-04.md")))
            try Data("Ideas\n".utf8).write(to: URL(fileURLWithPath: (notes as NSString).appendingPathComponent("Ideas.md")))

            let harness = try Harness()
            defer { harness.close() }
            let importer = harness.main.importWindow()
            importer.read(notes)
            harness.waitUntil("the folder is read and summed up") { importer.importButton.isSensitive }
            let day = { (day: Int) in
                let formatter = DateFormatter()
                formatter.dateStyle = .long
                formatter.timeStyle = .none
                return formatter.string(from: Calendar.current.date(from: DateComponents(year: 2022, month: 1, day: day, hour: 12))!)
            }
            XCTAssertEqual(importer.summary.text, "A journal from Markdown notes. Journal: 2 entries, 0 tags, 0 already in your journal. "
                           + "From \(day(3)) to \(day(4)). 2 of them have no mood, and are kept without one. Not imported: 1 note not named by a date.")
            XCTAssertTrue(importer.importButton.containsFocus, "the keyboard on Import")
            importer.importButton.click()
            harness.waitUntil("imported", timeout: 10) { harness.model.count == 2 }
            let entries = try harness.journal.entries(ids: try harness.journal.entryIDs())
            XCTAssertEqual(Set(entries.map(\.title)), ["Rainy Monday", "Walked."])
            XCTAssertTrue(entries.allSatisfy { $0.mood == nil })
        }
    }
}
