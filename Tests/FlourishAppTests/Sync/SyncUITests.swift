@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The Sync window and syncing in the background, in real windows over real journal files,
/// through a real folder, the key kept in a real GNOME Keyring (scripts/with-keyring).
final class SyncUITests: XCTestCase {
    private let shared = TemporaryFolder()
    private let passphrase = "a long sync passphrase"
    private var place: String { shared.file("Flourish") }

    override func setUp() {
        MainActor.assumeIsolated { SyncController.afterChangeMilliseconds = 200 }
    }

    @MainActor
    private func setUp(_ harness: Harness, passphrase: String, again: String = "") -> SyncWindow {
        harness.setUpSync(through: place, passphrase: passphrase, again: again)
    }

    @MainActor
    private func waitSynced(_ harness: Harness, _ window: SyncWindow? = nil) { harness.waitSynced() }

    func testAJournalStartedInTheWindowIsJoinedFromAnotherAndTheirEntriesMeet() throws {
        try MainActor.assumeIsolated {
            let laptop = try Harness(), desktop = try Harness()
            defer { laptop.close(); desktop.close() }
            let first = try laptop.journal.save(try EntryDraft(title: "Written on the laptop", mood: .reallyGood).validated().get())
            XCTAssertFalse(laptop.main.syncStatus.isVisible, "no sync status while sync is off")

            let window = setUp(laptop, passphrase: passphrase, again: passphrase)
            XCTAssertFalse(window.problem.isVisible, window.problem.text)
            waitSynced(laptop)
            XCTAssertTrue(FileManager.default.fileExists(atPath: (place as NSString).appendingPathComponent(KeyFile.name)))
            XCTAssertTrue(laptop.main.syncStatus.isVisible)
            XCTAssertEqual(laptop.main.syncStatus.label, "Synced")
            XCTAssertTrue(window.statusLabel.text.hasPrefix("Synced at "), window.statusLabel.text)
            XCTAssertEqual(window.placeLabel.text, "Syncing through \(place).")
            XCTAssertEqual(window.passphraseField.text, "", "the passphrase is not kept in the window")
            XCTAssertNotNil(SyncKeyring.key(for: laptop.journal), "the key is in the keyring")

            let joined = setUp(desktop, passphrase: passphrase)
            XCTAssertFalse(joined.problem.isVisible, joined.problem.text)
            waitSynced(desktop)
            desktop.main.show(.journal)
            desktop.waitUntil("the laptop's entry is in the desktop's journal") {
                desktop.main.journal.rows.contains { $0.entry?.uuid == first.uuid }
            }

            // A save in the window is sent a moment later, and the other machine's Sync Now brings it.
            desktop.fill(title: "Written on the desktop", body: "", mood: .okay)
            desktop.form.save()
            _ = desktop.waitForDialog()?.button(for: Alerts.ok)?.click()
            desktop.waitUntil("the desktop's save is sent", timeout: 15) {
                (try? FileManager.default.contentsOfDirectory(atPath: self.place).filter { $0.hasSuffix(".batch") }.count) == 3
            }
            laptop.main.showSync()
            window.syncNowButton.click()
            laptop.main.show(.journal)
            laptop.waitUntil("the desktop's entry is in the laptop's journal", timeout: 15) {
                laptop.main.journal.rows.contains { $0.entry?.title == "Written on the desktop" }
            }
        }
    }

    func testAWrongPassphraseOrTwoDifferentNewOnesAreSaidInTheWindowAndChangeNothing() throws {
        try MainActor.assumeIsolated {
            let first = try Harness()
            defer { first.close() }
            let mismatch = setUp(first, passphrase: passphrase, again: "not the same")
            XCTAssertTrue(mismatch.problem.isVisible)
            XCTAssertTrue(mismatch.problem.text.contains("the two passphrases differ"), mismatch.problem.text)
            XCTAssertNil(try first.journal.syncState())
            XCTAssertFalse(FileManager.default.fileExists(atPath: place), "nothing made at the place")
            mismatch.againField.text = passphrase
            mismatch.setUpButton.click()
            waitSynced(first)

            let second = try Harness()
            defer { second.close() }
            let wrong = setUp(second, passphrase: "not the passphrase")
            XCTAssertTrue(wrong.problem.isVisible)
            XCTAssertEqual(wrong.problem.text, "That is not the passphrase of this journal. Nothing was changed.")
            XCTAssertNil(try second.journal.syncState())
            XCTAssertFalse(second.main.syncStatus.isVisible)
            XCTAssertEqual(second.main.sync?.status, .off)
        }
    }

    func testTurningSyncOffForgetsThePlaceAndTheKeyAndKeepsTheJournal() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            _ = try harness.journal.save(try EntryDraft(title: "Kept", mood: .okay).validated().get())
            let window = setUp(harness, passphrase: passphrase, again: passphrase)
            waitSynced(harness)
            XCTAssertTrue(window.turnOffButton.isVisible)
            window.turnOffButton.click()
            harness.waitUntil("sync is off") { harness.main.sync?.status == .off }
            XCTAssertNil(try harness.journal.syncState())
            XCTAssertNil(SyncKeyring.key(for: harness.journal), "the key is out of the keyring")
            XCTAssertFalse(harness.main.syncStatus.isVisible)
            XCTAssertTrue(window.setUpButton.isVisible, "the window offers to set it up again")
            XCTAssertEqual(try harness.journal.count(), 1)
        }
    }

    func testWhereNoKeyringKeepsTheKeyTheWindowAsksForThePassphraseOnce() throws {
        try MainActor.assumeIsolated {
            // Set up elsewhere (the core alone keeps nothing in the keyring), then opened.
            let folder = TemporaryFolder()
            let journal = folder.file("journal.sqlite")
            let store = try JournalStore(path: journal)
            _ = try JournalSync.setUp(store, at: FolderPlace(path: place), passphrase: passphrase, cost: .interactive)
            store.close()
            let harness = try Harness(journalPath: journal)
            defer { harness.close() }
            harness.waitUntil("the passphrase is asked for", timeout: 15) { harness.main.sync?.status == .needsPassphrase }
            XCTAssertEqual(harness.main.syncStatus.label, "Sync problem")
            harness.main.showSync()
            let window = try XCTUnwrap(harness.main.syncWindow)
            XCTAssertTrue(window.unlockButton.isVisible)
            XCTAssertFalse(window.setUpButton.isVisible)
            XCTAssertTrue(window.statusLabel.text.contains("Type the sync passphrase"), window.statusLabel.text)
            window.passphraseField.text = "not it"
            window.unlockButton.click()
            harness.waitUntil("refused") { window.problem.isVisible }
            XCTAssertEqual(window.problem.text, "That is not the passphrase of this journal. Nothing was changed.")
            window.passphraseField.text = passphrase
            window.unlockButton.click()
            waitSynced(harness)
            XCTAssertNotNil(SyncKeyring.key(for: harness.journal), "kept in the keyring from now on")
            XCTAssertTrue(window.syncNowButton.isVisible)
        }
    }

    func testTheEntryPageOffersTheVersionMadeOnAnotherComputerAndTakesItBack() throws {
        try MainActor.assumeIsolated {
            // Two journals edit the same entry apart, then sync: the desktop's edit is the later.
            let folder = TemporaryFolder()
            let laptop = try JournalStore(path: folder.file("laptop.sqlite")), desktopPath = folder.file("desktop.sqlite")
            let desktop = try JournalStore(path: desktopPath)
            let entry = try laptop.save(try EntryDraft(title: "Saturday", mood: .okay).validated().get(), createdAt: Date(timeIntervalSince1970: 1_000))
            let (laptopSync, _) = try JournalSync.setUp(laptop, at: FolderPlace(path: place), passphrase: passphrase, cost: .interactive)
            _ = try laptopSync.sync()
            let (desktopSync, _) = try JournalSync.setUp(desktop, at: FolderPlace(path: place), passphrase: passphrase, cost: .interactive)
            _ = try desktopSync.sync()
            let draft = { (title: String) in try EntryDraft(title: title, mood: .meh).validated().get() }
            _ = try laptop.update(id: entry.id, with: try draft("Saturday, on the laptop"), updatedAt: Date(timeIntervalSince1970: 5_000))
            let desktopID = try XCTUnwrap(try desktop.entries(ids: try desktop.entryIDs()).first).id
            _ = try desktop.update(id: desktopID, with: try draft("Saturday, on the desktop"), updatedAt: Date(timeIntervalSince1970: 6_000))
            _ = try laptopSync.sync()
            XCTAssertEqual(try desktopSync.sync().conflicts, 1)
            desktop.close()
            laptop.close()

            let harness = try Harness(journalPath: desktopPath)
            defer { harness.close() }
            harness.main.show(.journal)
            let journal = harness.main.journal
            harness.waitUntil("the row") { journal.rows.contains { $0.entry?.id == desktopID } }
            journal.open(desktopID)
            let view = journal.entryView
            harness.waitUntil("the other computer's version is offered") { view.versionsBox.isVisible }
            XCTAssertEqual(view.titleLabel.text, "Saturday, on the desktop")
            XCTAssertEqual(view.versionButtons.map(\.version.title), ["Saturday, on the laptop"])
            XCTAssertTrue(view.versionButtons.first?.button.accessibleName?.hasPrefix("Use This Version: “Saturday, on the laptop”, ") ?? false,
                          view.versionButtons.first?.button.accessibleName ?? "")
            view.versionButtons.first?.button.click()
            harness.waitUntil("taken back") { view.titleLabel.text == "Saturday, on the laptop" }
            harness.waitUntil("the version it replaced is offered in its place") {
                view.versionButtons.map(\.version.title) == ["Saturday, on the desktop"]
            }
            XCTAssertEqual(try harness.journal.entries(ids: [desktopID]).first?.title, "Saturday, on the laptop")
            XCTAssertEqual(try harness.journal.earlierVersions(of: entry.uuid).map(\.title), ["Saturday, on the desktop"])
        }
    }

    func testAJournalSetUpDuringTheRunSyncsEveryFewMinutesWithoutBeingAsked() throws {
        try MainActor.assumeIsolated {
            SyncController.everyMilliseconds = 300
            defer { SyncController.everyMilliseconds = 300_000 }
            let harness = try Harness()
            defer { harness.close() }
            let window = setUp(harness, passphrase: passphrase, again: passphrase)
            XCTAssertFalse(window.problem.isVisible, window.problem.text)
            waitSynced(harness)
            // Another computer writes to the place; nobody touches this window.
            let other = TemporaryFolder()
            let store = try JournalStore(path: other.file("other.sqlite"))
            defer { store.close() }
            _ = try store.save(try EntryDraft(title: "From the other computer", mood: .okay).validated().get())
            let (sync, _) = try JournalSync.setUp(store, at: FolderPlace(path: place), passphrase: passphrase, cost: .interactive)
            _ = try sync.sync()
            harness.main.show(.journal)
            harness.waitUntil("the other computer's entry arrives on its own", timeout: 15) {
                harness.main.journal.rows.contains { $0.entry?.title == "From the other computer" }
            }
        }
    }

    func testTheSyncWindowSaysHowFarTheFirstSyncOfABigJournalIs() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            for day in 0..<1_200 {
                _ = try harness.journal.save(try EntryDraft(title: "Day \(day)", mood: .okay).validated().get(),
                                             createdAt: Date(timeIntervalSince1970: Double(day) * 86_400))
            }
            var said: [String] = []
            harness.main.sync?.observe { said.append(harness.main.sync?.sentence ?? "") }
            let window = setUp(harness, passphrase: passphrase, again: passphrase)
            XCTAssertFalse(window.problem.isVisible, window.problem.text)
            waitSynced(harness)
            XCTAssertEqual(said.filter { $0.hasPrefix("Syncing… ") && $0.hasSuffix(" files.") },
                           ["Syncing… 1 of 3 files.", "Syncing… 2 of 3 files.", "Syncing… 3 of 3 files."])
            XCTAssertTrue(window.statusLabel.text.hasPrefix("Synced at "), window.statusLabel.text)
        }
    }

    /// A WebDAV server that says it is busy (503, Retry-After: 3) is waited for, and the Sync
    /// window says so while it waits, counting down; then the sync goes on and ends synced.
    func testTheSyncWindowSaysWhenTheServerIsBusyAndSyncsOnceItIsFree() throws {
        try MainActor.assumeIsolated {
            let server = try WebDAVServer(in: shared.file("server"))
            let proxy = try BusyProxy(in: shared.file("proxy"), before: server)
            defer { proxy.stop(); server.stop() }
            let harness = try Harness()
            defer { harness.close() }
            XCTAssertTrue(harness.main.window.activateAction("win.sync"))
            let window = try XCTUnwrap(harness.main.syncWindow)
            window.serverChoice.isActive = true
            window.addressField.text = proxy.url("/dav/Flourish/")
            window.passwordField.text = WebDAVServer.password
            window.passphraseField.text = passphrase
            window.againField.text = passphrase
            window.setUpButton.click()
            harness.waitUntil("the setup is done", timeout: 30) { !window.isWorking }
            XCTAssertFalse(window.problem.isVisible, window.problem.text)
            harness.waitSynced()
            var said: [String] = []
            harness.main.sync?.observe { said.append(window.statusLabel.text) }
            try proxy.answerBusy([(503, "3")])
            window.syncNowButton.click()
            harness.waitUntil("the window says the server is busy", timeout: 15) {
                window.statusLabel.text == "The server is busy; trying again in 3 s."
            }
            harness.waitSynced()
            XCTAssertTrue(window.statusLabel.text.hasPrefix("Synced at "), window.statusLabel.text)
            XCTAssertEqual(try proxy.requests().filter { $0.status == 503 }.count, 1)
            // The seconds said, in order, each once: from 3, counting down.
            let seconds = said.compactMap { $0.hasPrefix("The server is busy; trying again in ") ? Int($0.filter(\.isNumber)) : nil }
                .reduce(into: [Int]()) { if $0.last != $1 { $0.append($1) } }
            XCTAssertEqual(seconds.first, 3, "\(said)")
            XCTAssertGreaterThan(seconds.count, 1, "the wait counts down: \(said)")
            XCTAssertEqual(seconds, seconds.sorted(by: >), "\(said)")
        }
    }

    /// A machine joining a journal with photos says how far it is in photos.
    func testAJoiningMachineSaysWhichPhotoItIsAt() throws {
        try MainActor.assumeIsolated {
            // The first machine, from a terminal's point of view: the core alone.
            let first = try JournalStore(path: shared.file("first.sqlite"))
            let photos = try (1...3).map { try first.addPhoto(Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: UInt8($0), count: 50_000),
                                                             fileName: "IMG_\($0).jpg", thumbnail: nil) }
            let entry = try first.save(try EntryDraft(title: "Three photos", mood: .okay, photos: photos).validated().get(), createdAt: Date())
            let (sync, _) = try JournalSync.setUp(first, at: FolderPlace(path: place), passphrase: passphrase, cost: .interactive)
            XCTAssertEqual(try sync.sync().photosSent, 3)
            first.close()

            let harness = try Harness()
            defer { harness.close() }
            var said: [String] = []
            harness.main.sync?.observe { said.append(harness.main.sync?.sentence ?? "") }
            let window = setUp(harness, passphrase: passphrase)
            XCTAssertFalse(window.problem.isVisible, window.problem.text)
            waitSynced(harness)
            XCTAssertEqual(said.filter { $0.contains("photo") }, ["Syncing… photo 1 of 3.", "Syncing… photo 2 of 3."])
            let arrived = try XCTUnwrap(try harness.journal.entries(ids: try harness.journal.entryIDs()).first { $0.uuid == entry.uuid })
            XCTAssertEqual(arrived.photos.map(\.fileName), ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg"])
        }
    }
}
