import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// A place that does what it likes with the files, without the key: plants files under a
/// machine's own name, withholds files, puts pipes, links and huge files under the names sync
/// reads. Each test plays one such place on a real folder; none of them may split, stall or
/// empty a journal, and each is told.
final class SyncHostilePlaceTests: XCTestCase {
    private let folder = TemporaryFolder()
    private let passphrase = "a long sync passphrase"

    private var place: FolderPlace { FolderPlace(path: folder.file("Flourish")) }

    private func machine(_ name: String) throws -> SyncMachine { try SyncMachine(folder.file("\(name).sqlite")) }

    private func setUp(_ machine: SyncMachine, every: Int = 100) throws {
        let (sync, _) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
        sync.snapshotEvery = every
        machine.sync = sync
    }

    private func id(_ machine: SyncMachine) throws -> String { try XCTUnwrap(try machine.store.syncState()).machine }

    private func path(_ name: String) -> String { (place.path as NSString).appendingPathComponent(name) }

    private func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: place.path).sorted() }

    private func ownFiles(_ machine: SyncMachine) throws -> [String] {
        let id = try id(machine)
        return try names().filter { $0.hasPrefix(id) }
    }

    /// Runs a sync on another thread and waits at most `seconds` for it: a sync the place
    /// can stall fails the test instead of hanging it. `unstick` frees it when it did stall.
    private func syncWithin(_ seconds: Double, _ machine: SyncMachine, unstick: () -> Void = {}) throws -> SyncReport {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<SyncReport, Error>?
        let sync = try XCTUnwrap(machine.sync)
        Thread.detachNewThread {
            result = Result { try sync.sync() }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else {
            unstick()
            _ = done.wait(timeout: .now() + 10)
            XCTFail("the sync was stalled by the place")
            throw SyncError.other(reason: "stalled")
        }
        return try XCTUnwrap(result).get()
    }

    // MARK: - Files planted under this machine's name

    func testABatchPlantedUnderThisMachinesNameNeitherMovesItsNumbersNorStopsItsChanges() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        try setUp(laptop)
        try laptop.syncNow()
        try setUp(desktop)
        try desktop.syncNow()
        let planted = "\(try id(laptop))-99999999.batch"
        FileManager.default.createFile(atPath: path(planted), contents: Data())

        let entry = try laptop.save("After the plant", at: 5_000)
        let report = try laptop.syncNow()
        XCTAssertEqual(report.refused, [planted], "opened before anything is believed of it, and reported")
        XCTAssertEqual(report.sent, 1)
        XCTAssertTrue(try ownFiles(laptop).allSatisfy { $0.count == "0123456789abcdef-00000000.batch".count }, "eight digits still")
        XCTAssertTrue(try names().contains(planted), "not this machine's to remove")

        try desktop.syncNow()
        XCTAssertNotNil(try desktop.entry(entry.uuid), "the change reached the other machine")
        let later = try laptop.save("And later still", at: 6_000)
        try laptop.syncNow()
        try desktop.syncNow()
        XCTAssertNotNil(try desktop.entry(later.uuid))
        XCTAssertEqual(try desktop.contents(), try laptop.contents())
    }

    func testASnapshotPlantedUnderThisMachinesNameRemovesNothingOfItsOwn() throws {
        let laptop = try machine("laptop"), tablet = try machine("tablet")
        try setUp(laptop, every: 4)
        try laptop.syncNow()
        for day in 1...2 {
            _ = try laptop.save("Day \(day)", at: Double(day) * 86_400)
            try laptop.syncNow()
        }
        let before = try ownFiles(laptop)
        XCTAssertEqual(before.count, 3, "three batches, no snapshot yet")
        let planted = "\(try id(laptop))-99999999.snapshot"
        FileManager.default.createFile(atPath: path(planted), contents: Data(repeating: 7, count: 300))

        let report = try laptop.syncNow()
        XCTAssertEqual(report.refused, [planted])
        XCTAssertEqual(try ownFiles(laptop), before + [planted], "its own batches are all still there")

        try setUp(tablet)
        try tablet.syncNow()
        XCTAssertEqual(try tablet.contents(), try laptop.contents(), "a machine joining finds every entry")
    }

    // MARK: - Files withheld

    func testABatchWithheldInTheMiddleIsToldAndAppliedWhenItComesBack() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        try setUp(laptop)
        try laptop.syncNow()
        try setUp(desktop)
        try desktop.syncNow()
        var entries: [Entry] = []
        for day in 1...3 {
            entries.append(try laptop.save("Day \(day)", at: Double(day) * 86_400))
            try laptop.syncNow()
        }
        let middle = try XCTUnwrap(try ownFiles(laptop).dropLast().last)
        try FileManager.default.moveItem(atPath: path(middle), toPath: folder.file("aside"))

        let report = try desktop.syncNow()
        XCTAssertEqual(report.missing, ["“\(ProcessInfo.processInfo.hostName)”"], "which computer's changes are missing")
        XCTAssertTrue(try XCTUnwrap(report.problem).contains("are missing"))
        XCTAssertNotNil(try desktop.entry(entries[0].uuid), "what came before the gap is kept")
        XCTAssertNil(try desktop.entry(entries[1].uuid))
        XCTAssertNil(try desktop.entry(entries[2].uuid), "what follows it waits for it")
        XCTAssertEqual(try desktop.syncNow().missing.count, 1, "told again until it comes")

        try FileManager.default.moveItem(atPath: folder.file("aside"), toPath: path(middle))
        let back = try desktop.syncNow()
        XCTAssertNil(back.problem)
        XCTAssertEqual(try desktop.contents(), try laptop.contents())
    }

    func testABatchWithheldAtTheEndIsToldOnceAnotherMachineSaysItHeardOfIt() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop"), tablet = try machine("tablet")
        for each in [laptop, desktop, tablet] {
            try setUp(each)
            try each.syncNow()
        }
        try laptop.syncNow()
        try desktop.syncNow()
        let newest = try laptop.save("The laptop's newest", at: 5_000)
        try laptop.syncNow()
        let withheld = try XCTUnwrap(try ownFiles(laptop).last)
        try tablet.syncNow()
        XCTAssertNotNil(try tablet.entry(newest.uuid))
        try FileManager.default.moveItem(atPath: path(withheld), toPath: folder.file("aside"))
        XCTAssertNil(try desktop.syncNow().problem, "nothing tells it yet")

        _ = try tablet.save("The tablet's, later", at: 6_000)
        try tablet.syncNow()
        let report = try desktop.syncNow()
        XCTAssertEqual(report.missing.count, 1, "the tablet's file says it had the laptop's newest")
        XCTAssertNil(try desktop.entry(newest.uuid))

        try FileManager.default.moveItem(atPath: folder.file("aside"), toPath: path(withheld))
        XCTAssertNil(try desktop.syncNow().problem)
        XCTAssertEqual(try desktop.contents(), try tablet.contents())
    }

    // MARK: - What is not a file sync wrote

    func testAPipeUnderABatchsNameIsSkippedWithoutWaiting() throws {
        let laptop = try machine("laptop")
        try setUp(laptop)
        try laptop.syncNow()
        let name = "00000000000000aa-00000001.batch"
        XCTAssertEqual(mkfifo(path(name), 0o600), 0)
        let report = try syncWithin(20, laptop) {
            // Frees a read stuck on the pipe: a writer comes and goes.
            let writer = open(self.path(name), O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        XCTAssertEqual(report.skipped, [name])
        XCTAssertTrue(try XCTUnwrap(report.problem).contains("not a file Flourish wrote"))
    }

    func testALinkToADeviceAndAHugeSparseFileAreSkippedUnread() throws {
        let laptop = try machine("laptop")
        try setUp(laptop)
        try laptop.syncNow()
        let link = "00000000000000aa-00000001.batch", huge = "00000000000000bb-00000001.batch"
        try FileManager.default.createSymbolicLink(atPath: path(link), withDestinationPath: "/dev/zero")
        XCTAssertEqual(truncate(path(huge), 0), -1)
        FileManager.default.createFile(atPath: path(huge), contents: Data())
        XCTAssertEqual(truncate(path(huge), 4 << 30), 0, "a sparse 4 GiB file")
        let report = try syncWithin(20, laptop)
        XCTAssertEqual(report.skipped.sorted(), [link, huge])
        XCTAssertEqual(report.refused, [], "skipped before anything was read, not refused after")
    }

    // MARK: - What sizes tell

    func testOneEntryBatchesOfTwentyAndTwoThousandCharactersAreTheSameSize() throws {
        var sizes: [Int] = []
        for (index, length) in [20, 2_000].enumerated() {
            let laptop = try machine("laptop\(index)")
            let place = FolderPlace(path: folder.file("place\(index)"))
            let (sync, _) = try JournalSync.setUp(laptop.store, at: place, passphrase: passphrase, cost: .interactive)
            try sync.sync()
            _ = try laptop.save("T", String(repeating: "x", count: length), at: 1_000)
            try sync.sync()
            let id = try XCTUnwrap(try laptop.store.syncState()).machine
            let newest = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: place.path).filter { $0.hasPrefix(id) }.max())
            sizes.append(try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: (place.path as NSString)
                    .appendingPathComponent(newest))[.size] as? Int))
        }
        XCTAssertEqual(sizes[0], sizes[1], "a one-entry batch's size gives away nothing of its length")
        XCTAssertEqual(sizes[0], 4096 + 44, "one 4 KiB bucket, sealed")
    }

    func testLargerFilesArePaddedToPadmeBucketsAtAFewPercentAtMost() throws {
        let key = JournalKey.random()
        let size = { (count: Int) in try key.seal(Data(count: count), name: "n", journal: "j").count - 44 }
        XCTAssertEqual(try size(99_000), try size(100_000), "one bucket: 100,352 bytes")
        XCTAssertEqual(try size(100_000), 100_352)
        for count in [70_000, 260_000, 1_000_000, 3_000_000] {
            XCTAssertGreaterThan(try size(count), count)
            XCTAssertLessThanOrEqual(try size(count), count + count / 8, "Padmé costs at most 12%")
        }
    }

    // MARK: - What a sealed file says, checked

    func testASealedSnapshotHoldingMoreThanAnyMachineWritesIsRefusedNotCountedOut() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        try setUp(laptop)
        try laptop.syncNow()
        let sync = try XCTUnwrap(laptop.sync)
        let journal = try XCTUnwrap(try laptop.store.syncState()).journal
        let other = "00000000000000cc"
        for (number, runs) in [(5, [[1, 99_999_999]]), (6, [[7, 3]]), (7, [[1, 2, 3]]), (8, [[-4, 2]])] {
            let name = "\(other)-\(String(format: "%08d", number)).snapshot"
            let json = try JSONSerialization.data(withJSONObject: ["machine": other, "number": number, "holds": [other: runs], "changes": []])
            try sync.journalKey.seal(json, name: name, journal: journal).write(to: URL(fileURLWithPath: path(name)))
        }
        try setUp(desktop)
        let report = try syncWithin(60, desktop)
        XCTAssertEqual(report.refused.count, 4, "each checked before use: \(report.refused)")
    }
}
