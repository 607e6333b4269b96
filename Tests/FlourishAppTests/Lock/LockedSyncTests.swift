@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// A locked journal syncing while its unlock page shows: with its key in a real GNOME Keyring
/// (scripts/with-keyring) it sends what the window had not sent and brings another computer's
/// entries in, through a real folder, and what it leaves there is sealed; without a kept key
/// nothing is opened and nothing moves.
final class LockedSyncTests: XCTestCase {
    private let laptopFolder = TemporaryFolder(), desktopFolder = TemporaryFolder(), shared = TemporaryFolder()
    private let lockPassphrase = "the laptop's lock passphrase"
    private let syncPassphrase = "a long sync passphrase"

    func testALockedJournalWithItsKeyKeptSyncsBothWaysAndWithoutItNothingMoves() throws {
        let laptop = laptopFolder.file("journal.sqlite"), place = shared.file("Flourish")
        let store = try JournalStore(path: laptop)
        try store.save(try EntryDraft(title: "Written before the lock", mood: .okay).validated().get())
        store.close()
        let locked = try JournalLock.lock(path: laptop, passphrase: lockPassphrase, cost: .interactive)
        let file = JournalLock.file(of: laptop)
        defer { LockKeyring.forget(file: file) }

        // Sync set up while unlocked; then one more entry that no sync has sent when it locks.
        let unlocked = try JournalStore(path: laptop, cipher: locked.cipher)
        let (sync, _) = try JournalSync.setUp(unlocked, at: try SyncTarget.place(place, password: nil),
                                              passphrase: syncPassphrase, cost: .interactive)
        XCTAssertTrue(SyncKeyring.keep(key: sync.journalKey, password: nil, for: unlocked), "a keyring runs here")
        defer { SyncKeyring.forget(for: unlocked) }
        try unlocked.save(try EntryDraft(title: "Unsent when it locked", mood: .reallyGood).validated().get())
        unlocked.close()
        let keptLockKey = locked.cipher.withExportedKey { $0 }
        locked.cipher.wipe()
        let placeBefore = try contents(of: place)

        // The desktop writes an entry and sends it.
        let desktop = try JournalStore(path: desktopFolder.file("journal.sqlite"))
        defer { desktop.close() }
        let (desktopSync, _) = try JournalSync.setUp(desktop, at: try SyncTarget.place(place, password: nil),
                                                     passphrase: syncPassphrase, cost: .interactive)
        try desktop.save(try EntryDraft(title: "Written on the desktop", mood: .okay).validated().get())
        _ = try desktopSync.sync()

        XCTAssertEqual(LockedSync.syncOnce(journalPath: laptop), .noKey, "no key kept: the journal is not opened")
        XCTAssertEqual(try titles(laptop), ["Unsent when it locked", "Written before the lock"], "nothing came in")
        let placeWithDesktop = try contents(of: place)
        XCTAssertEqual(placeWithDesktop.count, placeBefore.count + 1, "nothing was sent but the desktop's batch")

        XCTAssertTrue(LockKeyring.keep(try XCTUnwrap(JournalLock.unlock(path: laptop, keptKey: keptLockKey)),
                                       journalPath: laptop, file: file), "Unlock when I log in")
        guard case .synced(let report) = LockedSync.syncOnce(journalPath: laptop) else {
            return XCTFail("the locked journal synced")
        }
        XCTAssertGreaterThan(report.sent, 0, "the entry the window had not sent")
        XCTAssertGreaterThan(report.received, 0, "the desktop's entry")
        XCTAssertEqual(try titles(laptop), ["Unsent when it locked", "Written before the lock", "Written on the desktop"])
        XCTAssertTrue(JournalLock.isLocked(laptop), "still locked, on disk")

        // What it sent is sealed: no title of the laptop's in any file at the place.
        for (name, bytes) in try contents(of: place) where placeWithDesktop[name] == nil {
            for title in ["Unsent when it locked", "Written before the lock"] {
                XCTAssertNil(bytes.range(of: Data(title.utf8)), "\(name) holds “\(title)” in the clear")
            }
        }
        _ = try desktopSync.sync()
        XCTAssertTrue(try desktop.entries(ids: try desktop.entryIDs()).contains { $0.title == "Unsent when it locked" },
                      "the desktop has the entry the laptop sent while locked")
        guard case .synced(let again) = LockedSync.syncOnce(journalPath: laptop) else { return XCTFail("it synced again") }
        XCTAssertEqual([again.sent, again.received], [0, 0], "nothing more either way")
    }

    func testItRunsAsItStartsThenAsOftenAsTheWindowsSyncUntilStopped() throws {
        try MainActor.assumeIsolated {
            Toolkit.initialize()
            let laptop = laptopFolder.file("journal.sqlite")
            let running = DispatchGroup()
            let previous = SyncController.everyMilliseconds
            SyncController.everyMilliseconds = 100
            defer { SyncController.everyMilliseconds = previous }
            let lockedSync = LockedSync(journalPath: laptop, running: running)
            var outcomes: [LockedSync.Outcome] = []
            lockedSync.onRun = { outcomes.append($0) }
            lockedSync.start()
            XCTAssertTrue(lockedSync.isRunning, "a run as it locks")
            XCTAssertTrue(MainLoop.run(until: { outcomes.count >= 3 }, timeout: 10), "and again, as often as the window's sync")
            XCTAssertTrue(outcomes.allSatisfy { $0 == .noKey }, "a journal that is not there has no key: \(outcomes)")
            lockedSync.stop()
            XCTAssertEqual(running.wait(timeout: .now() + 10), .success, "the run in flight ends")
            let stopped = outcomes.count
            _ = MainLoop.run(until: { false }, timeout: 0.5)
            XCTAssertEqual(outcomes.count, stopped, "no run once it stopped")
        }
    }

    private func titles(_ path: String) throws -> [String] {
        let cipher = try JournalLock.unlock(path: path, secret: lockPassphrase)
        defer { cipher.wipe() }
        let store = try JournalStore(path: path, cipher: cipher)
        defer { store.close() }
        return try store.entries(ids: try store.entryIDs()).map(\.title).sorted()
    }

    private func contents(of folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }
}
