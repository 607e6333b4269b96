import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// The passphrase changed, and the key changed to shut other computers out, through a real
/// folder: what the place holds after each, read byte for byte, and what each computer can do.
final class SyncKeyChangeTests: XCTestCase {
    private let folder = TemporaryFolder()
    private let passphrase = "a long sync passphrase"
    private let newPassphrase = "another, newer sync passphrase"

    private var place: FolderPlace { FolderPlace(path: folder.file("Flourish")) }

    private func machine(_ name: String) throws -> SyncMachine { try SyncMachine(folder.file("\(name).sqlite")) }

    private func setUp(_ machine: SyncMachine) throws {
        (machine.sync, _) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
    }

    private func keyFile() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: folder.file("Flourish/flourish-sync.json"))) }

    private func syncFiles() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: place.path) where name != "flourish-sync.json" {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder.file("Flourish/\(name)")))
        }
        return files
    }

    /// Two computers with a few entries each, in step.
    private func twoInStep() throws -> (SyncMachine, SyncMachine) {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        _ = try laptop.save("Laptop's", "Secret Zanzibar", .reallyGood, at: 1_000)
        _ = try desktop.save("Desktop's", at: 2_000)
        try setUp(laptop)
        try laptop.syncNow()
        try setUp(desktop)
        try desktop.syncNow()
        try laptop.syncNow()
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        return (laptop, desktop)
    }

    func testAChangedPassphraseOpensTheJournalAndTheOldOneNothing() throws {
        let (laptop, desktop) = try twoInStep()
        let before = try keyFile()
        let sync = try XCTUnwrap(laptop.sync)
        XCTAssertThrowsError(try sync.changePassphrase(current: "not the passphrase", new: newPassphrase, cost: .interactive)) {
            XCTAssertEqual($0 as? SyncError, .wrongPassphrase)
        }
        XCTAssertThrowsError(try sync.changePassphrase(current: passphrase, new: "short", cost: .interactive))
        XCTAssertEqual(try keyFile(), before, "nothing changed by a refused change")

        try sync.changePassphrase(current: passphrase, new: newPassphrase, cost: .interactive)
        let after = try keyFile()
        XCTAssertNotEqual(after, before)
        let salt = { (data: Data) in try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])["salt"] as? String }
        XCTAssertNotEqual(try salt(after), try salt(before), "new salt")
        XCTAssertNil(after.range(of: Data(newPassphrase.utf8)))

        // The desktop keeps the key in its keyring: it carries on.
        let kept = try JournalSync.open(desktop.store, at: place, key: try XCTUnwrap(desktop.sync).journalKey)
        let entry = try desktop.save("After the change", at: 3_000)
        XCTAssertNil(try kept.sync().problem)
        try laptop.syncNow()
        XCTAssertNotNil(try laptop.entry(entry.uuid))

        // Typing the old passphrase opens nothing, here or on a computer joining.
        XCTAssertThrowsError(try JournalSync.open(desktop.store, at: place, passphrase: passphrase)) {
            XCTAssertEqual($0 as? SyncError, .wrongPassphrase)
        }
        let tablet = try machine("tablet")
        XCTAssertThrowsError(try JournalSync.setUp(tablet.store, at: place, passphrase: passphrase, cost: .interactive)) {
            XCTAssertEqual($0 as? SyncError, .wrongPassphrase)
        }
        XCTAssertNoThrow(try JournalSync.open(desktop.store, at: place, passphrase: newPassphrase))
        (tablet.sync, _) = try JournalSync.setUp(tablet.store, at: place, passphrase: newPassphrase, cost: .interactive)
        try tablet.syncNow()
        XCTAssertEqual(try tablet.contents(), try laptop.contents())
    }

    func testShuttingOutOthersSealsTheJournalAnewAndTheUnsentChangesOfAnotherComputerArriveOnceItHasTheNewKey() throws {
        let (laptop, desktop) = try twoInStep()
        let journal = try XCTUnwrap(try laptop.store.syncState()).journal
        let oldKey = try XCTUnwrap(laptop.sync).journalKey
        // The desktop writes while the laptop shuts the others out: not sent yet.
        let unsent = try desktop.save("Written on the desktop, not sent", at: 4_000)

        XCTAssertThrowsError(try XCTUnwrap(laptop.sync).shutOutOthers(current: "not the passphrase", new: newPassphrase, cost: .interactive))
        let next = try XCTUnwrap(laptop.sync).shutOutOthers(current: passphrase, new: newPassphrase, cost: .interactive)
        laptop.sync = next
        XCTAssertNotEqual(next.journalKey, oldKey)

        // The place: the new key file and one snapshot, opening only with the new key.
        let files = try syncFiles()
        XCTAssertEqual(files.count, 1, "the whole journal, sealed anew as one snapshot: \(files.keys)")
        for (name, data) in files {
            XCTAssertTrue(name.hasSuffix(".snapshot"))
            XCTAssertNoThrow(try next.journalKey.open(data, name: name, journal: journal))
            XCTAssertThrowsError(try oldKey.open(data, name: name, journal: journal), "nothing the old key opens")
            XCTAssertNil(data.range(of: Data("Zanzibar".utf8)))
        }
        XCTAssertThrowsError(try JournalSync.setUp(try machine("thief").store, at: place, passphrase: passphrase, cost: .interactive)) {
            XCTAssertEqual($0 as? SyncError, .wrongPassphrase, "the old passphrase opens nothing")
        }

        // The desktop still holds the old key: it is told, and asked for the new passphrase.
        XCTAssertThrowsError(try JournalSync.open(desktop.store, at: place, key: oldKey)) {
            XCTAssertEqual($0 as? SyncError, .keyChanged)
        }
        XCTAssertThrowsError(try JournalSync.open(desktop.store, at: place, passphrase: passphrase)) {
            XCTAssertEqual($0 as? SyncError, .wrongPassphrase)
        }
        desktop.sync = try JournalSync.open(desktop.store, at: place, passphrase: newPassphrase)
        XCTAssertNil(try desktop.syncNow().problem)
        try laptop.syncNow()
        XCTAssertNotNil(try laptop.entry(unsent.uuid), "what the desktop had not sent arrived")
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        XCTAssertEqual(try laptop.contents().count, 3)

        let tablet = try machine("tablet")
        (tablet.sync, _) = try JournalSync.setUp(tablet.store, at: place, passphrase: newPassphrase, cost: .interactive)
        try tablet.syncNow()
        XCTAssertEqual(try tablet.contents(), try laptop.contents())
    }
}
