import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// The edges of a change of key: a shut-out cut off half-way, a file the old key sealed arriving
/// after it, a journal from before key ids were kept; and a backup put back in place of a
/// synced journal file.
final class SyncKeyChangeEdgeTests: XCTestCase {
    private let folder = TemporaryFolder()
    private let passphrase = "a long sync passphrase"
    private let newPassphrase = "another, newer sync passphrase"

    private func place(_ name: String = "Flourish") -> FolderPlace { FolderPlace(path: folder.file(name)) }
    private func machine(_ name: String) throws -> SyncMachine { try SyncMachine(folder.file("\(name).sqlite")) }

    private func sql(_ machine: SyncMachine, _ text: String) throws {
        let queue = try DatabaseQueue(path: machine.store.file)
        defer { try? queue.close() }
        try queue.write { db in try db.execute(sql: text) }
    }

    private func names(_ folderName: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.file(folderName)))
    }

    private func copy(_ name: String, from: String, to: String) throws {
        let target = folder.file("\(to)/\(name)")
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: folder.file("\(from)/\(name)"), toPath: target)
    }

    /// A journal from before this change (no 'key' in sync_state) that did not sync between
    /// the change being installed and another computer shutting the others out.
    func testALegacyJournalTakesTheNewKeyAsAChangedKey() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        _ = try laptop.save("Laptop's", at: 1_000)
        (laptop.sync, _) = try JournalSync.setUp(laptop.store, at: place(), passphrase: passphrase, cost: .interactive)
        try laptop.syncNow()
        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: place(), passphrase: passphrase, cost: .interactive)
        _ = try desktop.save("Desktop's", at: 2_000)
        try desktop.syncNow()
        try laptop.syncNow()
        // As a journal synced by the version before this change keeps it.
        try sql(desktop, "DELETE FROM sync_state WHERE key IN ('key', 'snapshot')")

        laptop.sync = try XCTUnwrap(laptop.sync).shutOutOthers(current: passphrase, new: newPassphrase, cost: .interactive)
        desktop.sync = try JournalSync.open(desktop.store, at: place(), passphrase: newPassphrase)
        let later = try desktop.save("Written on the desktop after the change", at: 3_000)
        let desktopReport = try desktop.syncNow()
        let laptopReport = try laptop.syncNow()
        XCTAssertNil(desktopReport.problem)
        XCTAssertEqual(laptopReport.missing, [], "the laptop waits forever for a desktop file sealed with the old key and removed")
        XCTAssertNotNil(try laptop.entry(later.uuid), "the desktop's change never arrives")
    }

    /// Two folders kept in step by a syncing tool (Syncthing): the desktop syncs into its copy
    /// while the laptop, not yet having that file, shuts the others out.
    func testAFileWrittenWithTheOldKeyWhileTheKeyChangedIsNeitherLostNorRefusedForever() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        _ = try laptop.save("Laptop's", at: 1_000)
        let tablet = place("A"), notebook = place("B")
        (laptop.sync, _) = try JournalSync.setUp(laptop.store, at: tablet, passphrase: passphrase, cost: .interactive)
        try laptop.syncNow()
        try? FileManager.default.removeItem(atPath: folder.file("B"))
        try FileManager.default.copyItem(atPath: folder.file("A"), toPath: folder.file("B"))
        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: notebook, passphrase: passphrase, cost: .interactive)
        try desktop.syncNow()
        for name in try names("B").subtracting(try names("A")) { try copy(name, from: "B", to: "A") }
        try laptop.syncNow()
        for name in try names("A").subtracting(try names("B")) { try copy(name, from: "A", to: "B") }

        // The desktop renames a tag and syncs into its folder; the tool has not carried it yet.
        let work = try XCTUnwrap(try desktop.store.tags(counted: false).first { $0.name == "work" })
        try desktop.store.renameTag(id: work.id, to: "Job")
        try desktop.syncNow()
        let before = try names("A")
        laptop.sync = try XCTUnwrap(laptop.sync).shutOutOthers(current: passphrase, new: newPassphrase, cost: .interactive)
        // The tool: the laptop's removals and new files to B, the desktop's new file to A.
        let after = try names("A")
        for name in before.subtracting(after) { try? FileManager.default.removeItem(atPath: folder.file("B/\(name)")) }
        for name in try names("B").subtracting(before).subtracting(after) { try copy(name, from: "B", to: "A") }
        for name in after { try copy(name, from: "A", to: "B") }

        XCTAssertThrowsError(try JournalSync.open(desktop.store, at: notebook, key: try XCTUnwrap(desktop.sync).journalKey))
        desktop.sync = try JournalSync.open(desktop.store, at: notebook, passphrase: newPassphrase)
        try desktop.syncNow()
        for name in try names("B").subtracting(try names("A")) { try copy(name, from: "B", to: "A") }
        try laptop.syncNow()
        let report = try laptop.syncNow()
        XCTAssertNil(report.problem, "a file of the old key, left at the place, refused on every sync from now on")
        XCTAssertEqual(try laptop.tagNames().sorted(), try desktop.tagNames().sorted(), "the rename is lost: the two journals differ")
    }

    /// A backup put back over the journal file (`cp backup journal.sqlite`: the same inode, so
    /// the same machine id) after its machine wrote more batches and a snapshot of them.
    func testABackupPutBackInPlaceDoesNotReuseNumbersItsMachineAlreadyWrote() throws {
        let path = folder.file("laptop.sqlite")
        var laptop = try SyncMachine(path)
        let desktop = try machine("desktop")
        _ = try laptop.save("Laptop's", at: 1_000)
        (laptop.sync, _) = try JournalSync.setUp(laptop.store, at: place(), passphrase: passphrase, cost: .interactive)
        try laptop.syncNow()
        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: place(), passphrase: passphrase, cost: .interactive)
        try desktop.syncNow()
        let key = try XCTUnwrap(laptop.sync).journalKey
        laptop.store.close()
        let backup = try Data(contentsOf: URL(fileURLWithPath: path))
        let inode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)

        laptop = try SyncMachine(path)
        laptop.sync = try JournalSync.open(laptop.store, at: place(), key: key)
        laptop.sync?.snapshotEvery = 2
        for second in 2...6 {
            _ = try laptop.save("After the backup \(second)", at: Double(second) * 1_000)
            try laptop.syncNow()
        }
        try desktop.syncNow()
        laptop.store.close()

        // Put back in place: the same file, the same inode.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: backup)
        try handle.close()
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int, inode)

        laptop = try SyncMachine(path)
        laptop.sync = try JournalSync.open(laptop.store, at: place(), key: key)
        let restored = try laptop.save("Written after the backup was put back", at: 9_000)
        try laptop.syncNow()
        try desktop.syncNow()
        XCTAssertNotNil(try desktop.entry(restored.uuid), "written under a number the desktop applied already, and never read")
        XCTAssertEqual(try laptop.contents().count, try desktop.contents().count)
    }

    /// The place drops off after the new key file is in place (a WebDAV server out of reach
    /// mid-way): the window keeps the old JournalSync, as SyncController.changeKey does.
    func testAShutOutCutOffAfterTheKeyFileWritesNothingMoreWithTheOldKey() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        _ = try laptop.save("Laptop's", at: 1_000)
        let flaky = DropsAfterReplace(place())
        (laptop.sync, _) = try JournalSync.setUp(laptop.store, at: flaky, passphrase: passphrase, cost: .interactive)
        try laptop.syncNow()
        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: place(), passphrase: passphrase, cost: .interactive)
        try desktop.syncNow()
        try laptop.syncNow()
        let old = try XCTUnwrap(laptop.sync)
        let journal = try XCTUnwrap(try laptop.store.syncState()).journal
        XCTAssertThrowsError(try old.shutOutOthers(current: passphrase, new: newPassphrase, cost: .interactive))
        flaky.down = false
        // The next timed sync in the window, with the JournalSync it kept.
        _ = try? old.sync()
        let mine = try XCTUnwrap(try laptop.store.syncState()).machine
        for name in try names("Flourish") where name.hasPrefix(mine) {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("Flourish/\(name)")))
            XCTAssertThrowsError(try old.journalKey.open(data, name: name, journal: journal),
                                 "\(name): the whole journal sealed with the key of the computers shut out")
        }
    }
}

final class DropsAfterReplace: SyncPlace, @unchecked Sendable {
    let real: FolderPlace
    var down = false
    init(_ real: FolderPlace) { self.real = real }
    var displayName: String { real.displayName }
    func prepare(create: Bool) throws(SyncError) { try real.prepare(create: create) }
    func list(_ folder: String) throws(SyncError) -> [String] {
        if down { throw .unreachable(place: displayName, reason: "cut off") }
        return try real.list(folder)
    }
    func read(_ name: String) throws(SyncError) -> Data? { try real.read(name) }
    func remove(_ name: String) throws(SyncError) { try real.remove(name) }
    func replace(_ name: String, contents: Data) throws(SyncError) {
        try real.replace(name, contents: contents)
        down = true
    }
    func create(_ name: String, contents: Data) throws(SyncError) { try real.create(name, contents: contents) }
}
