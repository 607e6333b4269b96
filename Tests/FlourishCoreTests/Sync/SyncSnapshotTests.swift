import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Snapshots through a real folder: each machine compacts its own batches into one file every
/// so often; a machine that joins, or one that was away while the batches it missed were
/// removed, starts from a snapshot and ends with the same journal as the others.
final class SyncSnapshotTests: XCTestCase {
    private let folder = TemporaryFolder()
    private let passphrase = "a long sync passphrase"

    private var place: FolderPlace { FolderPlace(path: folder.file("Flourish")) }

    private func machine(_ name: String) throws -> SyncMachine { try SyncMachine(folder.file("\(name).sqlite")) }

    /// Sets `machine` up, writing a snapshot every `every` batches of its own.
    private func setUp(_ machine: SyncMachine, expecting setup: JournalSync.Setup, every: Int = 3) throws {
        let (sync, done) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
        XCTAssertEqual(done, setup)
        sync.snapshotEvery = every
        machine.sync = sync
    }

    private func placeNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: place.path).sorted()
    }

    private func file(_ name: String) -> String { (place.path as NSString).appendingPathComponent(name) }

    private func machineID(_ machine: SyncMachine) throws -> String { try XCTUnwrap(try machine.store.syncState()).machine }

    /// Saves an entry and syncs it: one batch of the machine's own.
    @discardableResult
    private func writeAndSync(_ machine: SyncMachine, _ title: String, at seconds: Double) throws -> Entry {
        let entry = try machine.save(title, at: seconds)
        try machine.syncNow()
        return entry
    }

    private func tombstones(_ machine: SyncMachine) throws -> [String] {
        let queue = try DatabaseQueue(path: machine.store.file, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: "SELECT uuid FROM sync_tombstone ORDER BY uuid") }
    }

    // MARK: -

    func testAMachineWritesASnapshotEverySoOftenAndRemovesItsOwnBatchesThatItHolds() throws {
        let laptop = try machine("laptop")
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        let id = try machineID(laptop)
        for day in 1...7 { try writeAndSync(laptop, "Day \(day) in Zanzibar", at: Double(day) * 86_400) }

        // Batches 1 to 8: a snapshot at 3 (1–3 removed), at 6 (4–6 and the first snapshot
        // removed); 7 and 8 wait for the next.
        XCTAssertEqual(try placeNames(), ["\(id)-00000006.snapshot", "\(id)-00000007.batch", "\(id)-00000008.batch", "flourish-sync.json"])
        let sealed = try Data(contentsOf: URL(fileURLWithPath: file("\(id)-00000006.snapshot")))
        XCTAssertEqual(Array(sealed.prefix(4)), Array("FLS2".utf8), "sealed like a batch")
        for secret in ["Zanzibar", "work", "title", "1970-01-01", passphrase] {
            XCTAssertNil(sealed.range(of: Data(secret.utf8)), "\(secret) in the snapshot")
        }
        try writeAndSync(laptop, "Day 8", at: 8 * 86_400)
        XCTAssertEqual(try placeNames(), ["\(id)-00000009.snapshot", "flourish-sync.json"])
    }

    func testAMachineThatJoinsStartsFromTheSnapshotAndEndsWithTheSameJournal() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop"), tablet = try machine("tablet")
        let tags = try laptop.store.tags()
        let work = try XCTUnwrap(tags.first { $0.name == "work" }), music = try XCTUnwrap(tags.first { $0.name == "music" })
        let shared = try laptop.save("Shared", "Edited on both", .theBest, tags: [work.id, music.id], at: 1_000)
        let doomed = try laptop.save("Deleted later", at: 2_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()

        // A conflict (an earlier version kept), a deletion, a rename, a merge and a deleted tag.
        _ = try laptop.edit(shared, title: "Shared, laptop", at: 5_000)
        _ = try desktop.edit(try XCTUnwrap(try desktop.entry(shared.uuid)), title: "Shared, desktop", at: 6_000)
        _ = try laptop.store.delete(id: doomed.id)
        try laptop.store.renameTag(id: work.id, to: "Job")
        try laptop.store.mergeTag(id: music.id, into: try XCTUnwrap(tags.first { $0.name == "friends" }).id)
        _ = try laptop.store.deleteTag(id: try XCTUnwrap(tags.first { $0.name == "reading" }).id)
        for each in [laptop, desktop, laptop] { try each.syncNow() }
        for day in 1...4 {
            try writeAndSync(laptop, "Laptop \(day)", at: 10_000 + Double(day))
            try writeAndSync(desktop, "Desktop \(day)", at: 20_000 + Double(day))
        }
        try laptop.syncNow()
        let names = try placeNames()
        XCTAssertEqual(names.filter { $0.hasSuffix(".snapshot") }.count, 2, "one of each machine's: \(names)")
        XCTAssertLessThan(names.filter { $0.hasSuffix(".batch") }.count, 6, "most batches removed: \(names)")

        try setUp(tablet, expecting: .joined)
        var steps: [(Int, Int)] = []
        let report = try XCTUnwrap(tablet.sync).sync { steps.append(($0, $1)) }
        XCTAssertEqual(report.refused, [])
        XCTAssertEqual(steps.last?.0, steps.last?.1, "every file it counted was read")
        XCTAssertEqual(try tablet.contents(), try laptop.contents(), "the same journal, entry for entry")
        XCTAssertEqual(try desktop.syncNow().received, 0)
        XCTAssertEqual(try desktop.contents(), try laptop.contents())
        XCTAssertEqual(Set(try tablet.tagNames()), Set(try laptop.tagNames()))
        XCTAssertFalse(try tablet.tagNames().contains("reading"))
        XCTAssertEqual(try tablet.versions(), ["\(shared.uuid):Shared, laptop"], "the earlier version travels in the snapshot")
        XCTAssertEqual(try tablet.versions(), try laptop.versions())
        XCTAssertEqual(try tombstones(tablet), [doomed.uuid], "so a machine that still has it does not bring it back")
        XCTAssertEqual(try XCTUnwrap(tablet.sync).sync(), SyncReport(), "nothing left to do")
    }

    func testAMachineAwayWhileTheBatchesItMissedWereRemovedCatchesUpFromTheSnapshot() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let apart = try laptop.save("Edited apart", at: 1_000)
        let later = try laptop.save("Edited on the laptop only", at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()

        // The desktop edits one entry and stays away; the laptop edits both, then writes on
        // until its batches holding those edits are removed.
        _ = try desktop.edit(try XCTUnwrap(try desktop.entry(apart.uuid)), title: "Apart, desktop", at: 5_000)
        _ = try laptop.edit(apart, title: "Apart, laptop", at: 6_000)
        _ = try laptop.edit(later, title: "Later, laptop", at: 6_000)
        try laptop.syncNow()
        for day in 1...5 { try writeAndSync(laptop, "Day \(day)", at: 10_000 + Double(day)) }
        let laptopID = try machineID(laptop)
        XCTAssertFalse(try placeNames().contains("\(laptopID)-00000002.batch"), "the batch with the edits is gone")

        let report = try desktop.syncNow()
        XCTAssertEqual(report.refused, [])
        XCTAssertEqual(report.conflicts, 1, "its own unsent edit, made beside the laptop's")
        XCTAssertEqual(try desktop.entry(apart.uuid)?.title, "Apart, laptop", "the later edit wins")
        XCTAssertEqual(try desktop.entry(later.uuid)?.title, "Later, laptop", "an older version here is simply replaced")
        try laptop.syncNow()
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        XCTAssertEqual(try desktop.versions(), ["\(apart.uuid):Apart, desktop"], "no earlier version but the one made apart")
        XCTAssertEqual(try laptop.versions(), try desktop.versions(), "kept on both")
    }

    func testASyncStoppedWhileItCompactsIsCompletedByTheNextWithNothingLostOrDoubled() throws {
        let laptop = try machine("laptop"), tablet = try machine("tablet")
        try setUp(laptop, expecting: .started, every: 2)
        try writeAndSync(laptop, "Day 1", at: 86_400)
        let id = try machineID(laptop)
        // Cut off before the snapshot is written, then just after it (before the batches it
        // holds are removed): the next sync writes or finds it, and removes them.
        for (day, afterWriting) in [(2, false), (4, true)] {
            if afterWriting { try writeAndSync(laptop, "Day \(day - 1)", at: Double(day - 1) * 86_400) }
            _ = try laptop.save("Day \(day)", at: Double(day) * 86_400)
            let faulty = FaultyPlace(place, failAfter: afterWriting ? 2 : 1, afterWriting: afterWriting)
            let sync = try JournalSync.open(laptop.store, at: faulty, passphrase: passphrase)
            sync.snapshotEvery = 2
            XCTAssertThrowsError(try sync.sync())
            try laptop.syncNow()
        }
        XCTAssertEqual(try placeNames(), ["\(id)-00000004.snapshot", "flourish-sync.json"])
        try setUp(tablet, expecting: .joined)
        try tablet.syncNow()
        XCTAssertEqual(try tablet.contents(), try laptop.contents())
        XCTAssertEqual(try tablet.store.count(), 4, "nothing doubled")
    }

    func testATamperedSnapshotIsRefusedByNameAndNothingOfItIsApplied() throws {
        let laptop = try machine("laptop"), tablet = try machine("tablet")
        try setUp(laptop, expecting: .started)
        for day in 1...4 { try writeAndSync(laptop, "Day \(day)", at: Double(day) * 86_400) }
        let id = try machineID(laptop)
        let name = "\(id)-00000003.snapshot"
        let original = try Data(contentsOf: URL(fileURLWithPath: file(name)))
        var tampered = original
        tampered[tampered.count - 20] ^= 0x01
        try tampered.write(to: URL(fileURLWithPath: file(name)))

        try setUp(tablet, expecting: .joined)
        let report = try tablet.syncNow()
        XCTAssertEqual(report.refused, [name])
        XCTAssertEqual(report.missing, [], "the refused file is what is said")
        XCTAssertEqual(try tablet.contents().count, 0, "nor the batch after it, which follows what the snapshot holds")

        try original.write(to: URL(fileURLWithPath: file(name)))
        XCTAssertEqual(try tablet.syncNow().refused, [])
        XCTAssertEqual(try tablet.contents(), try laptop.contents(), "read again, and whole, once it is whole")
    }

    func testAnEntryAsFirstWrittenIsNeverKeptAsAnEarlierVersionWhicheverOrderTheVersionsArrive() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop"), tablet = try machine("tablet")
        let entry = try laptop.save("Written on the laptop", at: 1_000)
        try setUp(laptop, expecting: .started, every: 100)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined, every: 100)
        try desktop.syncNow()
        _ = try desktop.edit(try XCTUnwrap(try desktop.entry(entry.uuid)), title: "Edited on the desktop", at: 5_000)
        try desktop.syncNow()

        // The tablet is handed the desktop's edit before the laptop's entry (a syncing tool
        // brings files in any order).
        let laptopBatch = "\(try machineID(laptop))-00000001.batch"
        let aside = folder.file("aside.batch")
        try FileManager.default.moveItem(atPath: file(laptopBatch), toPath: aside)
        try setUp(tablet, expecting: .joined, every: 100)
        try tablet.syncNow()
        XCTAssertEqual(try tablet.entry(entry.uuid)?.title, "Edited on the desktop")
        try FileManager.default.moveItem(atPath: aside, toPath: file(laptopBatch))
        XCTAssertEqual(try tablet.syncNow().conflicts, 0)
        XCTAssertEqual(try tablet.versions(), [], "the entry as first written is where the edit came from")
        XCTAssertEqual(try tablet.contents(), try desktop.contents())
    }
}
