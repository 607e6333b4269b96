@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// A sync place that withholds another computer's file: the window says whose changes are
/// missing, in words, and stops saying it once the file is back and applied.
final class SyncGapUITests: XCTestCase {
    private let shared = TemporaryFolder()
    private let passphrase = "a long sync passphrase"
    private var place: String { shared.file("Flourish") }

    func testTheSyncWindowSaysWhoseChangesAreMissingUntilTheyArrive() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let window = harness.setUpSync(through: place, passphrase: passphrase, again: passphrase)
            harness.waitSynced()

            // Another computer writes two batches; the place withholds the first of them.
            let other = TemporaryFolder()
            let store = try JournalStore(path: other.file("other.sqlite"))
            defer { store.close() }
            let (sync, _) = try JournalSync.setUp(store, at: FolderPlace(path: place), passphrase: passphrase, cost: .interactive)
            _ = try sync.sync()
            for title in ["Withheld", "After it"] {
                _ = try store.save(try EntryDraft(title: title, mood: .okay).validated().get())
                _ = try sync.sync()
            }
            let machine = try XCTUnwrap(try store.syncState()).machine
            let withheld = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: place).filter { $0.hasPrefix(machine) }.sorted().dropLast().last)
            let (file, aside) = ((place as NSString).appendingPathComponent(withheld), other.file("aside"))
            try FileManager.default.moveItem(atPath: file, toPath: aside)

            window.syncNowButton.click()
            harness.waitUntil("the window says it", timeout: 15) { window.statusLabel.text.contains("are missing at the sync place") }
            XCTAssertTrue(window.statusLabel.text.hasPrefix("Changes from “\(ProcessInfo.processInfo.hostName)”"), window.statusLabel.text)
            XCTAssertEqual(harness.main.syncStatus.label, "Sync problem")
            XCTAssertFalse(harness.main.journal.rows.contains { $0.entry?.title == "After it" }, "what follows the gap waits")

            try FileManager.default.moveItem(atPath: aside, toPath: file)
            window.syncNowButton.click()
            harness.waitSynced()
            harness.main.show(.journal)
            harness.waitUntil("both arrive once it is back", timeout: 15) {
                Set(harness.main.journal.rows.compactMap { $0.entry?.title }).isSuperset(of: ["Withheld", "After it"])
            }
        }
    }
}
