@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import GRDB
import GtkKit
import XCTest

/// The window over a damaged journal and over rows edited by hand: what can be read is shown,
/// the damage is said in words with "Recover…" and "Quit", and nothing is written.
final class DamagedJournalTests: XCTestCase {
    let folder = TemporaryFolder()

    func testADamagedJournalShowsTheBarRefusesSavesKeepsTheFormAndRecovers() throws {
        let path = folder.file("journal.sqlite")
        try DamagedJournals.journal(at: path, count: 300)
        try DamagedJournals.zeroMiddleLeafPage(of: path)
        let before = try DamagedJournals.snapshot(of: folder.path)
        try MainActor.assumeIsolated {
            let harness = try Harness(journalPath: path)
            defer { harness.close() }
            let bar = harness.main.damageBar
            XCTAssertFalse(bar.view.isVisible, "nothing is said before the check has a verdict")
            harness.model.checkHealth()
            harness.waitUntil("the check finds the damage") { bar.view.isVisible }
            XCTAssertTrue(bar.message.text.contains(path), "the bar names the file")
            XCTAssertEqual(bar.recoverButton.label, "_Recover…")
            XCTAssertEqual(bar.quitButton.label, "_Quit")

            harness.fill(title: "Still mine", body: "Every word.", mood: .okay)
            harness.form.saveButton.click()
            let error = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(error.message, JournalError.damagedJournal(path: path).errorDescription)
            XCTAssertEqual(harness.form.titleField.text, "Still mine", "a refused save keeps the form")
            error.button(for: Alerts.ok)?.click()
            harness.waitUntil("the dialog goes") { harness.main.alerts.current == nil }

            // The entries that can be read are listed; the rest say why, in words.
            harness.main.show(.journal)
            harness.waitUntil("rows appear") { harness.main.journal.rows.contains { $0.entry != nil } }

            bar.recoverButton.click()
            let recovered = try XCTUnwrap(harness.waitForDialog())
            XCTAssertEqual(recovered.title, "Entries Recovered")
            let output = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .first { $0.contains("-recovered-") })
            XCTAssertTrue(recovered.message.contains(output))
            let copy = try JournalStore(path: folder.file(output))
            let count = try copy.count()
            XCTAssertGreaterThan(count, 200)
            XCTAssertLessThan(count, 300)
            XCTAssertEqual(copy.check(), .healthy)
            recovered.button(for: Alerts.ok)?.click()
        }
        var after = try DamagedJournals.snapshot(of: folder.path)
        after = after.filter { !$0.key.contains("-recovered-") }
        XCTAssertEqual(after, before, "the damaged journal, its side files and its mode as they were")
    }

    func testAnUnreadableRowSaysSoWithItsReasonAndItsNeighboursReadNormally() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let saved = try (0..<3).map { index in
                try harness.journal.save(try EntryDraft(title: "Day \(index)", mood: .okay).validated().get(),
                                         createdAt: Date(timeIntervalSince1970: Double(index) * 86_400))
            }
            let queue = try DatabaseQueue(path: harness.journal.file)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "UPDATE entry SET created_at = 'garbage' WHERE id = ?", arguments: [saved[1].id])
            }
            try queue.close()
            harness.model.load()
            harness.main.show(.journal)
            harness.waitUntil("every row is bound") {
                harness.main.journal.rows.filter { $0.entry != nil }.count == 2
                    && harness.main.journal.rows.contains { $0.titleLabel.text == "This entry could not be read" }
            }
            let bad = try XCTUnwrap(harness.main.journal.rows.first { $0.entryID == saved[1].id })
            XCTAssertEqual(bad.bodyLabel.text, "Its date is not a valid date.")
            XCTAssertTrue(bad.bodyLabel.isVisible)
            XCTAssertFalse(bad.metaLabel.isVisible, "no empty label for a screen reader to read as nothing")
            XCTAssertFalse(Mood.allCases.contains { bad.view.hasClass(Theme.moodClass($0)) }, "no mood colour it does not have")
            XCTAssertFalse(harness.main.journal.banner.isVisible, "one bad row is no failed read")
            let good = try XCTUnwrap(harness.main.journal.rows.first { $0.entryID == saved[2].id })
            XCTAssertEqual(good.titleLabel.text, "Day 2")
        }
    }
}
