@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Two computers with one sync identity, and what the syncing tools leave at the place: a journal
/// on a cloned disk in another computer takes a machine id of its own; a conflict copy a tool made
/// of a file two computers wrote at once is opened and applied, so nothing either wrote is lost;
/// the tools' own files are ignored in silence.
final class SharedIdentityTests: XCTestCase {
    private let folder = TemporaryFolder()
    private let passphrase = "a long sync passphrase"
    private var place: FolderPlace { FolderPlace(path: folder.file("Flourish")) }
    private let machineIDFiles = ComputerIdentity.machineIDFiles

    override func tearDown() {
        ComputerIdentity.machineIDFiles = machineIDFiles
    }

    private func machine(_ name: String) throws -> SyncMachine { try SyncMachine(folder.file("\(name).sqlite")) }

    private func join(_ machine: SyncMachine, at place: SyncPlace) throws {
        (machine.sync, _) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
    }

    /// `name`: a copy of `original`'s journal file that kept its sync identity, as the same file
    /// on a cloned disk does (its device and inode recorded as they are now).
    private func clone(_ original: SyncMachine, as name: String) throws -> SyncMachine {
        let path = folder.file("\(name).sqlite")
        try DatabaseQueue(path: original.store.file).backup(to: try DatabaseQueue(path: path))
        let clone = try machine(name)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE sync_state SET value = ? WHERE key = 'file'", arguments: [clone.store.fileIdentity()])
        }
        clone.sync = try JournalSync.open(clone.store, at: place, passphrase: passphrase)
        return clone
    }

    private func titles(_ machine: SyncMachine) throws -> Set<String> {
        Set(try machine.store.entries(ids: try machine.store.entryIDs()).map(\.title))
    }

    /// This computer's machine id, as the system keeps it.
    private func onComputer(_ id: String) throws {
        let file = folder.file("machine-id-\(id)")
        try Data("\(id)\n".utf8).write(to: URL(fileURLWithPath: file))
        ComputerIdentity.machineIDFiles = [file]
    }

    func testAJournalOnAClonedDiskInAnotherComputerTakesAMachineIdOfItsOwn() throws {
        try onComputer("0f1e2d3c4b5a69788796a5b4c3d2e1f0")
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        try join(laptop, at: place)
        _ = try laptop.save("Before the disk was cloned", at: 1_000)
        try laptop.syncNow()
        let twin = try clone(laptop, as: "new-laptop")
        // The clone goes on in a new computer; the old one goes on writing.
        try onComputer("aa11bb22cc33dd44ee55ff6600112233")
        _ = try twin.save("Written on the new computer", at: 2_000)
        try twin.syncNow()
        try onComputer("0f1e2d3c4b5a69788796a5b4c3d2e1f0")
        _ = try laptop.save("Written on the old computer", at: 2_000)
        try laptop.syncNow()
        XCTAssertNotEqual(try twin.store.syncState()?.machine, try laptop.store.syncState()?.machine, "a machine id of its own")
        try join(desktop, at: place)
        try desktop.syncNow()
        XCTAssertEqual(try titles(desktop), ["Before the disk was cloned", "Written on the new computer", "Written on the old computer"])
        let names = try FileManager.default.contentsOfDirectory(atPath: place.path)
        XCTAssertEqual(names.filter { SyncToolFiles.conflictOriginal(of: $0) != nil }, [], "no name was written twice")
    }

    /// A laptop synced once, a desktop not yet joined, and the laptop's twin: its journal file
    /// cloned with its identity, sharing its machine id.
    private func copiedWhole() throws -> (laptop: SyncMachine, desktop: SyncMachine, twin: SyncMachine, shared: String) {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        try join(laptop, at: place)
        _ = try laptop.save("Before the machine was copied", at: 1_000)
        try laptop.syncNow()
        let twin = try clone(laptop, as: "twin")
        return (laptop, desktop, twin, try XCTUnwrap(try laptop.store.syncState()).machine)
    }

    /// A virtual machine copied whole keeps the machine id of its computer and the file's device
    /// and inode: nothing tells the copy from the journal until one reads a file under its name
    /// that it did not write.
    func testATwinWithTheVerySameIdentityIsToldByAFileUnderItsNameItDidNotWrite() throws {
        let (laptop, desktop, twin, shared) = try copiedWhole()
        XCTAssertEqual(try twin.store.syncState()?.machine, shared)
        _ = try twin.save("Written on the copy", at: 2_000)
        try twin.syncNow()
        _ = try laptop.save("Written on the laptop", at: 2_000)
        try laptop.syncNow()
        let own = try XCTUnwrap(try laptop.store.syncState()).machine
        XCTAssertNotEqual(own, shared, "a file under its name that it did not write: it takes a machine id of its own")
        try twin.syncNow()
        _ = try twin.save("Written on the copy again", at: 3_000)
        try twin.syncNow()
        try laptop.syncNow()
        XCTAssertEqual(try laptop.store.syncState()?.machine, own, "one new id, kept")
        try join(desktop, at: place)
        try desktop.syncNow()
        let all: Set = ["Before the machine was copied", "Written on the copy", "Written on the laptop", "Written on the copy again"]
        XCTAssertEqual(try titles(desktop), all)
        XCTAssertEqual(try titles(laptop), all)
        try twin.syncNow()
        XCTAssertEqual(try titles(twin), all)
    }

    /// The twin's first file the journal meets may be a snapshot, its batch already removed:
    /// under a number the journal wrote too, it would hold other batches than the journal's, and
    /// the journal's compaction would remove its own on its word.
    func testATwinsSnapshotUnderANumberItAlsoWroteIsNotTakenForItsOwn() throws {
        let (laptop, desktop, twin, shared) = try copiedWhole()
        // The twin writes in a copy of the folder, and compacts: a snapshot, its batch removed.
        let elsewhere = FolderPlace(path: folder.file("Twin's copy of the folder"))
        try FileManager.default.copyItem(atPath: place.path, toPath: elsewhere.path)
        twin.sync = try JournalSync.open(twin.store, at: elsewhere, passphrase: passphrase)
        twin.sync?.snapshotEvery = 1
        _ = try twin.save("Written on the copy", at: 2_000)
        try twin.syncNow()
        for day in 3...4 {
            _ = try laptop.save("Written on the laptop \(day)", at: Double(day) * 1_000)
            try laptop.syncNow()
        }
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).filter { $0.hasSuffix(".snapshot") }
        XCTAssertEqual(snapshots.count, 1)
        let snapshot = try XCTUnwrap(snapshots.first)
        XCTAssertTrue(snapshot.hasPrefix(shared))
        // A tool carries the snapshot to the laptop's folder.
        try FileManager.default.copyItem(atPath: (elsewhere.path as NSString).appendingPathComponent(snapshot),
                                         toPath: (place.path as NSString).appendingPathComponent(snapshot))
        try laptop.syncNow()
        XCTAssertNotEqual(try laptop.store.syncState()?.machine, shared, "not its own snapshot: a twin's")
        try join(desktop, at: place)
        try desktop.syncNow()
        let all: Set = ["Before the machine was copied", "Written on the laptop 3", "Written on the laptop 4"]
        XCTAssertTrue(all.isSubset(of: try titles(desktop)), "nothing the laptop wrote is lost")
    }

    func testAJournalRecordedBeforeItsComputerWasKeepsItsMachineId() throws {
        let laptop = try machine("laptop")
        try join(laptop, at: place)
        try laptop.syncNow()
        let machine = try XCTUnwrap(try laptop.store.syncState()).machine
        let file = laptop.store.fileIdentity()
        let at = try XCTUnwrap(file.firstIndex(of: "@"))
        let recorded = String(file[..<at])
        try DatabaseQueue(path: laptop.store.file).write { db in
            try db.execute(sql: "UPDATE sync_state SET value = ? WHERE key = 'file'", arguments: [recorded])
        }
        _ = try laptop.save("After the upgrade", at: 2_000)
        try laptop.syncNow()
        XCTAssertEqual(try laptop.store.syncState()?.machine, machine, "the same file on the same disk: the same machine")
        XCTAssertEqual(try laptop.store.syncState()?.file, file, "now recorded with its computer")
    }

    func testAConflictCopyOfABatchIsAppliedSoNothingEitherComputerWroteIsLost() throws {
        try conflictCopyKeepsBoth(twinKeepsTheName: false)
    }

    /// The tool may keep either under the name: the laptop, which recorded writing that name,
    /// reads the file there again when a copy of it appears.
    func testAConflictCopyOfItsOwnBatchBringsTheOtherVersionToTheMachineThatWroteTheName() throws {
        try conflictCopyKeepsBoth(twinKeepsTheName: true)
    }

    /// The tool carries the photo the twin sent beside its batch; the copy waits for nothing.
    func testAConflictCopyBringsThePhotosItsEntriesName() throws {
        try conflictCopyKeepsBoth(twinKeepsTheName: false, withPhoto: true)
    }

    private func conflictCopyKeepsBoth(twinKeepsTheName: Bool, withPhoto: Bool = false) throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        try join(laptop, at: place)
        try laptop.syncNow()
        try join(desktop, at: place)
        try desktop.syncNow()
        // Two computers sharing one machine id, each with its own copy of the folder that a
        // tool keeps in step (as Syncthing does), write one name before the tool carries either.
        let twin = try clone(laptop, as: "twin")
        let elsewhere = FolderPlace(path: folder.file("Twin's copy of the folder"))
        try FileManager.default.copyItem(atPath: place.path, toPath: elsewhere.path)
        twin.sync = try JournalSync.open(twin.store, at: elsewhere, passphrase: passphrase)
        _ = try laptop.save("Written on the laptop", at: 2_000)
        let picture = PhotoStoreTests.picture(41, size: 60_000)
        if withPhoto {
            let photo = try twin.store.addPhoto(picture, fileName: "IMG_0001.jpg")
            let draft = try EntryDraft(title: "Written on its twin", mood: .reallyGood, photos: [photo]).validated().get()
            _ = try twin.store.save(draft, createdAt: Date(timeIntervalSince1970: 2_000))
        } else {
            _ = try twin.save("Written on its twin", at: 2_000)
        }
        try laptop.syncNow()
        try twin.syncNow()
        let machine = try XCTUnwrap(try laptop.store.syncState()).machine
        let written = try FileManager.default.contentsOfDirectory(atPath: place.path).filter { $0.hasPrefix(machine) }.sorted()
        let twins = try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).filter { $0.hasPrefix(machine) }.sorted()
        let name = try XCTUnwrap(written.last)
        XCTAssertEqual(twins.last, name, "one name, two files")
        // The tool keeps one under the name, and the other as Syncthing's copy beside it.
        let copy = name.replacingOccurrences(of: ".batch", with: ".sync-conflict-20261207-034512-7QXKMZP.batch")
        let (mine, theirs) = ((place.path as NSString).appendingPathComponent(name), (elsewhere.path as NSString).appendingPathComponent(name))
        let (kept, copied) = twinKeepsTheName ? (theirs, mine) : (mine, theirs)
        try FileManager.default.copyItem(atPath: copied, toPath: (place.path as NSString).appendingPathComponent(copy))
        // The tool carries the twin's photos as it carries every file.
        let photos = (elsewhere.path as NSString).appendingPathComponent("photos")
        try FileManager.default.createDirectory(atPath: (place.path as NSString).appendingPathComponent("photos"), withIntermediateDirectories: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: photos)) ?? [] {
            let to = (place.path as NSString).appendingPathComponent("photos/\(name)")
            if !FileManager.default.fileExists(atPath: to) { try FileManager.default.copyItem(atPath: photos + "/" + name, toPath: to) }
        }
        if twinKeepsTheName {
            try FileManager.default.removeItem(atPath: mine)
            try FileManager.default.copyItem(atPath: kept, toPath: mine)
        }
        let report = try desktop.syncNow()
        XCTAssertEqual(report.refused, [])
        XCTAssertEqual(try titles(desktop), ["Written on the laptop", "Written on its twin"])
        if withPhoto {
            XCTAssertEqual(report.photosReceived, 1)
            let entry = try XCTUnwrap(try desktop.store.entries(ids: try desktop.store.entryIDs()).first { $0.title == "Written on its twin" })
            XCTAssertEqual(try entry.photos.map { try desktop.store.photo($0) }, [picture], "its photo came with it")
        }
        XCTAssertEqual(try desktop.syncNow().received, 0, "the copy is applied once")
        try laptop.syncNow()
        XCTAssertEqual(try titles(laptop), ["Written on the laptop", "Written on its twin"])
        XCTAssertNotEqual(try laptop.store.syncState()?.machine, machine, "a copy of its own file: a twin writes as it")
    }

    func testAConflictCopyThatDoesNotOpenIsNamed() throws {
        let laptop = try machine("laptop")
        try join(laptop, at: place)
        _ = try laptop.save("Entry", at: 1_000)
        try laptop.syncNow()
        let machine = try XCTUnwrap(try laptop.store.syncState()).machine
        let copy = "\(machine)-00000001 (Anna's conflicted copy 2026-12-07 (1)).batch"
        try Data("not sealed with the key".utf8).write(to: URL(fileURLWithPath: (place.path as NSString).appendingPathComponent(copy)))
        XCTAssertEqual(try laptop.syncNow().refused, [copy])
    }

    func testEachToolsConflictCopiesAreKnownByTheirNames() {
        let name = "0123456789abcdef-00000042.batch"
        for copy in ["0123456789abcdef-00000042.sync-conflict-20261207-034512-7QXKMZP.batch",
                     "0123456789abcdef-00000042.sync-conflict-20261207-034512.batch",
                     "0123456789abcdef-00000042 (conflicted copy 2026-12-07 034512).batch",
                     "0123456789abcdef-00000042_conflict-20261207-034512.batch",
                     "0123456789abcdef-00000042 (Anna's conflicted copy 2026-12-07).batch",
                     "0123456789abcdef-00000042 (Anna's conflicted copy 2026-12-07 (1)).batch"] {
            XCTAssertEqual(SyncToolFiles.conflictOriginal(of: copy), name, copy)
        }
        for other in [name, "flourish-sync.json", "0123456789abcdef-00000042.batch.sync-conflict", "(conflicted copy).batch",
                      "notes (copy).batch"] {
            XCTAssertEqual(SyncToolFiles.conflictOriginal(of: other).flatMap(SyncFileName.parse), nil, other)
        }
    }

    func testTheSyncingToolsOwnFilesLeaveAFolderEmptyAndAreNeverReported() throws {
        let laptop = try machine("laptop")
        try FileManager.default.createDirectory(atPath: folder.file("Flourish/.stfolder"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("Flourish/.stversions"), withIntermediateDirectories: true)
        for name in [".stignore", ".syncthing.flourish-sync.json.tmp", "~syncthing~0123456789abcdef-00000001.batch.tmp",
                     ".sync_4f2a9c1d8e7b.db", ".sync_4f2a9c1d8e7b.db-wal", "._sync_4f2a9c1d8e7b.db", ".owncloudsync.log",
                     ".0123456789abcdef-00000001.batch.~1a2b3c4d", "desktop.ini"] {
            try Data("a tool's".utf8).write(to: URL(fileURLWithPath: folder.file("Flourish/\(name)")))
        }
        (laptop.sync, _) = try JournalSync.setUp(laptop.store, at: place, passphrase: passphrase, cost: .interactive)
        _ = try laptop.save("Entry", at: 1_000)
        let report = try laptop.syncNow()
        XCTAssertEqual(report.refused + report.skipped, [])
        XCTAssertNil(report.problem)
    }
}
