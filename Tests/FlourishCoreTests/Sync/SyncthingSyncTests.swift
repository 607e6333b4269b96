@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Sync through two real Syncthing instances keeping one folder in step (`SyncthingPair`): the
/// Flourish place is the Syncthing folder's root, `.stfolder` in it, and files arrive through
/// Syncthing's half-received `.syncthing.NAME.tmp` files renamed in, while the journals sync.
final class SyncthingSyncTests: XCTestCase {
    private let folder = TemporaryFolder()
    private var pair: SyncthingPair!
    private let passphrase = "a long sync passphrase"

    override func setUpWithError() throws {
        pair = try SyncthingPair(in: folder.file("syncthing"))
    }

    override func tearDown() {
        pair.stop()
    }

    private func machine(_ name: String, at place: String) throws -> SyncMachine {
        let machine = try SyncMachine(folder.file("\(name).sqlite"))
        (machine.sync, _) = try JournalSync.setUp(machine.store, at: FolderPlace(path: place), passphrase: passphrase, cost: .interactive)
        return machine
    }

    private func inStep() {
        XCTAssertNil(pair.waitInStep(timeout: 30), "Syncthing carried every file")
    }

    private func titles(_ machine: SyncMachine) throws -> [String] {
        try machine.store.entries(ids: try machine.store.entryIDs()).map(\.title).sorted()
    }

    /// Syncs each until a round brings nothing, Syncthing carrying each round's files.
    private func settle(_ machines: [SyncMachine]) throws {
        for _ in 0..<4 {
            var received = 0
            for machine in machines {
                let report = try machine.syncNow()
                XCTAssertEqual(report.refused + report.skipped, [], "nothing at the place is refused or skipped")
                XCTAssertNil(report.problem)
                received += report.received
                inStep()
            }
            if received == 0 { return }
        }
    }

    func testTwoAndThreeJournalsKeepInStepWhileSyncthingCarriesTheirFiles() throws {
        let laptop = try machine("laptop", at: pair.first)
        _ = try laptop.save("Written on the laptop first", at: 1_000)
        try laptop.syncNow()
        inStep()
        let desktop = try machine("desktop", at: pair.second)
        try settle([desktop, laptop])
        XCTAssertEqual(try titles(desktop), ["Written on the laptop first"])
        // Both write and sync while Syncthing carries the other's files, round after round.
        for round in 0..<8 {
            let entry = try laptop.save("Laptop, round \(round)", at: Double(2_000 + round))
            _ = try desktop.save("Desktop, round \(round)", at: Double(2_000 + round))
            if round % 3 == 0 { _ = try laptop.edit(entry, title: "Laptop, round \(round), edited", at: Double(3_000 + round)) }
            try laptop.syncNow()
            try desktop.syncNow()
        }
        inStep()
        // A third journal, on the second computer beside the desktop's.
        let tablet = try machine("tablet", at: pair.second)
        _ = try tablet.save("Written on the tablet", at: 4_000)
        try settle([tablet, laptop, desktop])
        XCTAssertEqual(try titles(laptop).count, 18)
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        XCTAssertEqual(try laptop.contents(), try tablet.contents())
        XCTAssertEqual(pair.names().filter { SyncToolFiles.conflictOriginal(of: $0) != nil }, [], "no name was written twice")
    }

    func testAConflictCopySyncthingMakesOfABatchIsAppliedSoNothingIsLost() throws {
        let laptop = try machine("laptop", at: pair.first)
        try laptop.syncNow()
        inStep()
        // The laptop's journal on a second computer, its sync identity kept (a disk cloned on
        // one installation: see SharedIdentityTests), writing through that computer's copy.
        let path = folder.file("twin.sqlite")
        try DatabaseQueue(path: laptop.store.file).backup(to: try DatabaseQueue(path: path))
        let twin = try SyncMachine(path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE sync_state SET value = ? WHERE key = 'file'", arguments: [twin.store.fileIdentity()])
        }
        twin.sync = try JournalSync.open(twin.store, at: FolderPlace(path: pair.second), passphrase: passphrase)
        // Both write the same next name while the two computers are apart.
        pair.pause()
        _ = try laptop.save("Written on the laptop", at: 2_000)
        _ = try twin.save("Written on its twin", at: 2_000)
        try laptop.syncNow()
        try twin.syncNow()
        pair.resume()
        inStep()
        let copies = pair.names().filter { SyncToolFiles.conflictOriginal(of: $0) != nil }
        XCTAssertEqual(copies.count, 1, "Syncthing kept one of the two as a conflict copy: \(pair.names())")
        XCTAssertTrue(copies.allSatisfy { $0.contains(".sync-conflict-") }, "\(copies)")
        let desktop = try machine("desktop", at: pair.first)
        try settle([desktop, laptop])
        XCTAssertEqual(try titles(desktop), ["Written on its twin", "Written on the laptop"])
        XCTAssertEqual(try titles(laptop), ["Written on its twin", "Written on the laptop"])
    }
}
