import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// A deletion made before an Undo or a re-creation elsewhere, and heard of after it: the later
/// act stands on every machine, whichever order the files reach them in. (A syncing tool can
/// hold a file back; the tests move one aside for a sync to play that.)
final class SyncHeardLateTests: XCTestCase {
    private let folder = TemporaryFolder()
    private let passphrase = "a long sync passphrase"

    private var place: FolderPlace { FolderPlace(path: folder.file("Flourish")) }

    private func machines() throws -> (SyncMachine, SyncMachine) {
        let laptop = try SyncMachine(folder.file("laptop.sqlite")), desktop = try SyncMachine(folder.file("desktop.sqlite"))
        return (laptop, desktop)
    }

    private func setUp(_ machine: SyncMachine) throws {
        (machine.sync, _) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
    }

    /// Runs `work` while `machine`'s newest batch is out of the place, then puts it back.
    private func withNewestBatchAside(of machine: SyncMachine, _ work: () throws -> Void) throws {
        let id = try XCTUnwrap(try machine.store.syncState()).machine
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: place.path).filter { $0.hasPrefix(id) }.max())
        let (file, aside) = ((place.path as NSString).appendingPathComponent(name), folder.file("aside"))
        try FileManager.default.moveItem(atPath: file, toPath: aside)
        try work()
        try FileManager.default.moveItem(atPath: aside, toPath: file)
    }

    /// Later than the last stamp this journal wrote (its stamps have milliseconds).
    private func tick() { usleep(5_000) }

    func testAnEntryDeletedOnBothMachinesAndPutBackOnOneStaysBackOnBoth() throws {
        let (laptop, desktop) = try machines()
        let entry = try laptop.save("Deleted twice, undone once", "Keep me", .theBest, at: 1_000)
        try setUp(laptop)
        try laptop.syncNow()
        try setUp(desktop)
        try desktop.syncNow()

        let deleted = try desktop.store.delete(id: try XCTUnwrap(try desktop.entry(entry.uuid)).id)
        tick()
        _ = try laptop.store.delete(id: entry.id)
        tick()
        _ = try desktop.store.restore(deleted)
        // Each sends before hearing of the other.
        try laptop.syncNow()
        try withNewestBatchAside(of: laptop) { try desktop.syncNow() }
        for each in [laptop, desktop, laptop] { try each.syncNow() }

        XCTAssertEqual(try desktop.entry(entry.uuid)?.body, "Keep me", "the Undo came after the other machine's deletion")
        XCTAssertEqual(try laptop.entry(entry.uuid)?.body, "Keep me")
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
    }

    func testATagMadeAgainAfterItsNameWasDeletedElsewhereStaysOnBothMachines() throws {
        let (laptop, desktop) = try machines()
        let entry = try laptop.save("Tagged", at: 1_000)
        try setUp(laptop)
        try laptop.syncNow()
        try setUp(desktop)
        try desktop.syncNow()

        let reading = { (machine: SyncMachine) in try XCTUnwrap(try machine.store.tags().first { $0.name == "reading" }) }
        _ = try desktop.store.deleteTag(id: try reading(desktop).id)
        tick()
        _ = try laptop.store.deleteTag(id: try reading(laptop).id)
        tick()
        // The desktop makes "reading" again, after the laptop's deletion, and uses it.
        let again = try desktop.store.createTag(named: "reading")
        let here = try XCTUnwrap(try desktop.entry(entry.uuid))
        _ = try desktop.store.update(id: here.id, with: try EntryDraft(title: here.title, body: here.body, mood: here.mood, tagIDs: [again.id])
            .validated().get(), updatedAt: Date(timeIntervalSince1970: 5_000))
        try desktop.syncNow()
        for each in [laptop, desktop, laptop] { try each.syncNow() }

        XCTAssertTrue(try desktop.tagNames().contains("reading"), "a deletion from before it was made leaves it")
        XCTAssertEqual(Set(try laptop.tagNames()), Set(try desktop.tagNames()))
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        XCTAssertEqual(try laptop.contents()[entry.uuid]?.last, "reading")
    }
}
