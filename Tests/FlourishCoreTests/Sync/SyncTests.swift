import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Two machines are two journals on real files, syncing through a real folder: set up and
/// join, edits on both, the same entry edited on both while apart, deletions and Undo, tags,
/// copies of a journal, and what the folder holds byte for byte.
final class SyncTests: XCTestCase {
    private let folder = TemporaryFolder()
    private let passphrase = "a long sync passphrase"

    private var place: FolderPlace { FolderPlace(path: folder.file("Flourish")) }

    private func machine(_ name: String) throws -> SyncMachine { try SyncMachine(folder.file("\(name).sqlite")) }

    private func setUp(_ machine: SyncMachine, expecting setup: JournalSync.Setup) throws {
        let (sync, done) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
        XCTAssertEqual(done, setup)
        machine.sync = sync
    }

    private func placeFiles() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: place.path) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: (place.path as NSString).appendingPathComponent(name)))
        }
        return files
    }

    // MARK: -

    func testAMachineStartsAJournalAnotherJoinsAndBothEndWithEveryEntryOfBoth() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let work = try XCTUnwrap(try laptop.store.tags().first { $0.name == "work" })
        _ = try laptop.save("Laptop one", "Written on the laptop", .reallyGood, tags: [work.id], at: 1_000)
        _ = try laptop.save("Laptop two", at: 2_000)
        _ = try desktop.save("Desktop one", "Written on the desktop\nwith two lines", .meh, at: 1_500)
        let desktopTag = try desktop.store.createTag(named: "Hiking")

        try setUp(laptop, expecting: .started)
        XCTAssertEqual(try laptop.syncNow().sent, 10, "8 tags and 2 entries")
        try setUp(desktop, expecting: .joined)
        let joined = try desktop.syncNow()
        XCTAssertEqual(joined.received, 2, "the laptop's two entries; its tags are the desktop's already")
        XCTAssertEqual(joined.sent, 10, "9 tags and its entry")
        let back = try laptop.syncNow()
        XCTAssertEqual(back.received, 2, "the desktop's entry and its new tag")
        XCTAssertEqual(back.sent, 0)
        XCTAssertEqual(try desktop.syncNow(), SyncReport(), "nothing left to do")

        XCTAssertEqual(try laptop.contents(), try desktop.contents(), "the same journal, entry for entry, byte for byte")
        XCTAssertEqual(try laptop.contents().count, 3)
        XCTAssertTrue(try laptop.tagNames().contains(desktopTag.name))
        XCTAssertEqual(try laptop.store.syncState()?.journal, try desktop.store.syncState()?.journal)
        XCTAssertNotEqual(try laptop.store.syncState()?.machine, try desktop.store.syncState()?.machine)
    }

    /// Two machines start a journal at one empty place at once, on a server that replaces a file
    /// whatever `If-None-Match` says: the one whose key file is not there joins the other's.
    func testTwoMachinesStartingAtOnceEndInOneJournalWhereTheServerReplacesFiles() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        _ = try laptop.save("Laptop's", at: 1_000)
        _ = try desktop.save("Desktop's", at: 2_000)
        // The desktop's key file, made at a place of its own, lands over the laptop's.
        let elsewhere = FolderPlace(path: folder.file("Desktop's start"))
        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: elsewhere, passphrase: passphrase, cost: .interactive)
        let desktopsKeyFile = try XCTUnwrap(try elsewhere.read(KeyFile.name))
        let racing = KeyFileOverwritten(place, later: desktopsKeyFile)
        let (sync, setup) = try JournalSync.setUp(laptop.store, at: racing, passphrase: passphrase, cost: .interactive)
        XCTAssertEqual(setup, .joined, "its key file was written over: it joins the one there")
        laptop.sync = sync
        XCTAssertEqual(try laptop.store.syncState()?.journal, try desktop.store.syncState()?.journal)
        desktop.sync = try JournalSync.open(desktop.store, at: place, passphrase: passphrase)
        XCTAssertEqual(try laptop.syncNow().refused, [])
        XCTAssertEqual(try desktop.syncNow().refused, [])
        try laptop.syncNow()
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        XCTAssertEqual(try laptop.contents().count, 2)
    }

    func testThePlaceHoldsNothingOfTheJournalInTheClear() throws {
        let laptop = try machine("laptop")
        _ = try laptop.save("Secret title Zanzibar", "A body about Quetzalcoatl", .theBest, at: 1_000)
        _ = try laptop.store.createTag(named: "Xylophone")
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        let files = try placeFiles()
        XCTAssertEqual(files.count, 2, "the key file and one batch")
        for (name, data) in files {
            for secret in ["Zanzibar", "Quetzalcoatl", "Xylophone", "work", "1970-01-01", passphrase, "title", "mood"] {
                XCTAssertNil(data.range(of: Data(secret.utf8)), "\(secret) in \(name)")
            }
        }
        let batch = try XCTUnwrap(files.keys.first { $0.hasSuffix(".batch") })
        XCTAssertEqual(Array(try XCTUnwrap(files[batch]).prefix(4)), Array("FLS2".utf8), "sealed and padded")
        XCTAssertEqual(try permissions(of: (place.path as NSString).appendingPathComponent(batch)), 0o600)
    }

    func testEditsOnBothMachinesMeetAndTheSameEntryEditedOnBothKeepsTheLoserAsAnEarlierVersion() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let shared = try laptop.save("Sunday", "The first words", at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()

        // Apart: each edits the same entry; the desktop's edit is the later one.
        _ = try laptop.edit(shared, title: "Sunday, laptop", at: 5_000)
        _ = try desktop.edit(shared, title: "Sunday, desktop", at: 6_000)
        _ = try laptop.save("Only on the laptop", at: 5_500)
        let laptopReport = try laptop.syncNow()
        let desktopReport = try desktop.syncNow()
        try laptop.syncNow()
        try desktop.syncNow()

        XCTAssertEqual(desktopReport.conflicts, 1, "the desktop kept the laptop's edit")
        XCTAssertEqual(laptopReport.conflicts, 0, "the laptop synced first: nothing to meet yet")
        XCTAssertEqual(try laptop.entry(shared.uuid)?.title, "Sunday, desktop", "the later edit wins")
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        XCTAssertEqual(try laptop.versions(), ["\(shared.uuid):Sunday, laptop"], "the lost edit is kept on the laptop")
        XCTAssertEqual(try desktop.versions(), try laptop.versions(), "and on the desktop")
        XCTAssertEqual(try laptop.contents().count, 2)
    }

    func testAnEarlierVersionTakenBackWinsEverywhereAndTheVersionItReplacedIsKeptEverywhere() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let shared = try laptop.save("Friday", at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        _ = try laptop.edit(shared, title: "Friday, laptop", at: 5_000)
        _ = try desktop.edit(try XCTUnwrap(try desktop.entry(shared.uuid)), title: "Friday, desktop", at: 6_000)
        for each in [laptop, desktop, laptop] { try each.syncNow() }
        let kept = try XCTUnwrap(try desktop.store.earlierVersions(of: shared.uuid).first)
        XCTAssertEqual(kept.title, "Friday, laptop")

        let id = try XCTUnwrap(try desktop.entry(shared.uuid)).id
        let taken = try desktop.store.useEarlierVersion(kept, forEntry: id, updatedAt: Date(timeIntervalSince1970: 7_000))
        XCTAssertEqual(taken.title, "Friday, laptop")
        XCTAssertEqual(try desktop.versions(), ["\(shared.uuid):Friday, desktop"], "the version it replaced is kept, the one taken back is not")
        for each in [desktop, laptop, desktop] { try each.syncNow() }
        XCTAssertEqual(try laptop.entry(shared.uuid)?.title, "Friday, laptop")
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        XCTAssertTrue(try laptop.versions().contains("\(shared.uuid):Friday, desktop"), "kept on the other machine too")
    }

    func testTheLaterEditWinsWhicheverMachineSyncsFirstAndALosingUnsentEditTravelsAsAnEarlierVersion() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop"), tablet = try machine("tablet")
        let shared = try laptop.save("Monday", at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        for other in [desktop, tablet] {
            try setUp(other, expecting: .joined)
            try other.syncNow()
        }
        _ = try laptop.edit(shared, title: "Monday, later", at: 9_000)
        _ = try desktop.edit(shared, title: "Monday, earlier", at: 8_000)
        try laptop.syncNow()
        let met = try desktop.syncNow()
        XCTAssertEqual(met.conflicts, 1)
        XCTAssertEqual(try desktop.entry(shared.uuid)?.title, "Monday, later")
        for each in [laptop, tablet, laptop, desktop] { try each.syncNow() }
        for each in [laptop, desktop, tablet] {
            XCTAssertEqual(try each.contents(), try laptop.contents())
            XCTAssertEqual(try each.versions(), ["\(shared.uuid):Monday, earlier"], "kept on every machine")
        }
    }

    func testAnEditOnAMachineWhoseClockIsHoursBehindStillReplacesTheVersionItWasMadeFrom() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let shared = try laptop.save("Tuesday", at: 1_000)
        _ = try laptop.edit(shared, title: "Tuesday, on the laptop", at: 20_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        // The desktop's clock is three hours behind the laptop's.
        let edited = try desktop.edit(try XCTUnwrap(try desktop.entry(shared.uuid)), title: "Tuesday, later on the desktop", at: 20_000 - 3 * 3_600)
        XCTAssertGreaterThan(edited.updatedAt ?? .distantPast, Date(timeIntervalSince1970: 20_000), "stamped after the version it replaces")
        try desktop.syncNow()
        XCTAssertEqual(try laptop.syncNow().conflicts, 0, "a later edit, not a conflict")
        XCTAssertEqual(try laptop.entry(shared.uuid)?.title, "Tuesday, later on the desktop")
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        XCTAssertEqual(try laptop.versions(), [])
    }

    func testDeletionsTravelAndUndoBringsTheEntryBackEverywhere() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let gone = try laptop.save("To delete", at: 1_000)
        let undone = try laptop.save("Deleted, then undone", "Keep me", .theBest, at: 2_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        XCTAssertEqual(try desktop.contents().count, 2)

        _ = try laptop.store.delete(id: gone.id)
        let deleted = try laptop.store.delete(id: undone.id)
        try laptop.syncNow()
        try desktop.syncNow()
        XCTAssertNil(try desktop.entry(gone.uuid))
        XCTAssertNil(try desktop.entry(undone.uuid))

        _ = try laptop.store.restore(deleted)
        try laptop.syncNow()
        XCTAssertEqual(try desktop.syncNow().received, 1)
        XCTAssertEqual(try desktop.entry(undone.uuid)?.body, "Keep me", "Undo travels as the entry coming back")
        XCTAssertEqual(try laptop.contents(), try desktop.contents())

        // A machine that never heard of the entry does not bring it back.
        try desktop.syncNow()
        try laptop.syncNow()
        XCTAssertNil(try laptop.entry(gone.uuid))
    }

    func testTagsTheirRenamesMergesAndDeletionsTravel() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let tags = try laptop.store.tags()
        let work = try XCTUnwrap(tags.first { $0.name == "work" }), friends = try XCTUnwrap(tags.first { $0.name == "friends" })
        let music = try XCTUnwrap(tags.first { $0.name == "music" })
        let one = try laptop.save("One", tags: [work.id, music.id], at: 1_000)
        let two = try laptop.save("Two", tags: [friends.id], at: 2_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()

        try laptop.store.renameTag(id: work.id, to: "Job")
        try laptop.store.mergeTag(id: music.id, into: friends.id)
        _ = try laptop.store.deleteTag(id: try XCTUnwrap(tags.first { $0.name == "reading" }).id)
        _ = try laptop.store.createTag(named: "Garden")
        try laptop.syncNow()
        try desktop.syncNow()

        XCTAssertEqual(Set(try desktop.tagNames()), Set(try laptop.tagNames()))
        XCTAssertTrue(try desktop.tagNames().contains("Job"))
        XCTAssertFalse(try desktop.tagNames().contains("reading"))
        XCTAssertFalse(try desktop.tagNames().contains("music"))
        let names = { (entry: Entry?) in try Set(desktop.store.tags(counted: false).filter { entry?.tagIDs.contains($0.id) == true }.map(\.name)) }
        XCTAssertEqual(try names(try desktop.entry(one.uuid)), ["Job", "friends"], "renamed, and merged into friends")
        XCTAssertEqual(try names(try desktop.entry(two.uuid)), ["friends"])
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
    }

    func testAnEditMadeApartFromARenameOrAMergeEndsUnderTheSameTagEverywhere() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop"), tablet = try machine("tablet")
        let tags = try laptop.store.tags()
        let work = try XCTUnwrap(tags.first { $0.name == "work" }), music = try XCTUnwrap(tags.first { $0.name == "music" })
        let one = try laptop.save("One", tags: [work.id], at: 1_000)
        let two = try laptop.save("Two", tags: [music.id], at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        for other in [desktop, tablet] {
            try setUp(other, expecting: .joined)
            try other.syncNow()
        }
        // The laptop renames work and merges music into friends; apart, the desktop edits both
        // entries, still tagged with the old names, and syncs first.
        try laptop.store.renameTag(id: work.id, to: "Job")
        try laptop.store.mergeTag(id: music.id, into: try XCTUnwrap(tags.first { $0.name == "friends" }).id)
        for (entry, title) in [(one, "One, edited"), (two, "Two, edited")] {
            let here = try XCTUnwrap(try desktop.entry(entry.uuid))
            _ = try desktop.edit(here, title: title, at: 9_000)
        }
        try desktop.syncNow()
        try laptop.syncNow()
        for each in [desktop, tablet, laptop, desktop, tablet] { try each.syncNow() }
        let names = { (machine: SyncMachine, entry: Entry) in
            try Set(machine.store.tags(counted: false).filter { (try machine.entry(entry.uuid))?.tagIDs.contains($0.id) == true }.map(\.name))
        }
        for each in [laptop, desktop, tablet] {
            XCTAssertEqual(try names(each, one), ["Job"])
            XCTAssertEqual(try names(each, two), ["friends"])
            XCTAssertEqual(Set(try each.tagNames()), Set(try laptop.tagNames()))
            XCTAssertEqual(try each.contents(), try laptop.contents())
        }
        XCTAssertFalse(try laptop.tagNames().contains("work"))
        XCTAssertFalse(try laptop.tagNames().contains("music"))
    }

    func testAKeyKeptForAnotherJournalIsRefusedBeforeAnythingIsWritten() throws {
        let laptop = try machine("laptop")
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        let before = try placeFiles()
        XCTAssertThrowsError(try JournalSync.open(laptop.store, at: place, key: .random())) {
            XCTAssertEqual($0 as? SyncError, .wrongPassphrase)
        }
        XCTAssertNoThrow(try JournalSync.open(laptop.store, at: place, key: try XCTUnwrap(laptop.sync).journalKey))
        XCTAssertEqual(try placeFiles(), before)
    }

    func testAWrongPassphraseOrAPlaceHoldingSomethingElseChangesNothingHereOrThere() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        _ = try laptop.save("Entry", at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        let placeBefore = try placeFiles()
        let journalBefore = try desktop.contents()

        XCTAssertThrowsError(try JournalSync.setUp(desktop.store, at: place, passphrase: "not it", cost: .interactive)) {
            XCTAssertEqual($0 as? SyncError, .wrongPassphrase)
        }
        XCTAssertNil(try desktop.store.syncState(), "not set up")
        XCTAssertEqual(try desktop.contents(), journalBefore)
        XCTAssertEqual(try placeFiles(), placeBefore, "nothing written at the place")

        let other = folder.file("Photos")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        FileManager.default.createFile(atPath: (other as NSString).appendingPathComponent("holiday.jpg"), contents: Data("jpeg".utf8))
        XCTAssertThrowsError(try JournalSync.setUp(desktop.store, at: FolderPlace(path: other), passphrase: passphrase, cost: .interactive)) {
            XCTAssertEqual($0 as? SyncError, .notAJournal(place: other))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: other), ["holiday.jpg"])
        XCTAssertNil(try desktop.store.syncState())
    }

    func testATamperedTruncatedOrSwappedFileIsRefusedByNameAndNothingOfItIsApplied() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        let first = try laptop.save("In the first batch", at: 1_000)
        try laptop.syncNow()
        let second = try laptop.save("In the second batch", at: 2_000)
        try laptop.syncNow()
        let batches = try placeFiles().keys.filter { $0.hasPrefix(try laptop.store.syncState()!.machine) }.sorted()
        XCTAssertEqual(batches.count, 3)
        let firstFile = (place.path as NSString).appendingPathComponent(batches[1])
        let original = try Data(contentsOf: URL(fileURLWithPath: firstFile))

        for (damage, bytes) in [("one byte changed", { var d = original; d[d.count - 5] ^= 0x20; return d }()),
                                ("cut short", original.prefix(original.count - 7)),
                                ("swapped for the next", try Data(contentsOf: URL(fileURLWithPath: (place.path as NSString).appendingPathComponent(batches[2]))))] {
            try bytes.write(to: URL(fileURLWithPath: firstFile))
            let report = try desktop.syncNow()
            XCTAssertEqual(report.refused, [batches[1]], damage)
            XCTAssertNil(try desktop.entry(first.uuid), "\(damage): nothing of it applied")
            XCTAssertNil(try desktop.entry(second.uuid), "\(damage): nor what that machine wrote after it")
        }
        try original.write(to: URL(fileURLWithPath: firstFile))
        XCTAssertEqual(try desktop.syncNow().refused, [])
        XCTAssertEqual(try desktop.contents(), try laptop.contents(), "once whole again, it is applied")
    }

    func testASyncStoppedAtAnyPointIsCompletedByTheNextWithNothingLostOrDoubled() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        for day in 0..<1_200 { _ = try laptop.save("Day \(day)", "Words of day \(day)", Mood(rawValue: day % 6)!, at: Double(day) * 86_400) }
        try setUp(laptop, expecting: .started)
        let machine = try XCTUnwrap(try laptop.store.syncState()).machine
        // The place fails after some files: the sync stops half-way, as if killed or cut off.
        for failAfter in [1, 2] {
            let faulty = FaultyPlace(place, failAfter: failAfter, afterWriting: failAfter == 2)
            let sync = try JournalSync.open(laptop.store, at: faulty, passphrase: passphrase)
            XCTAssertThrowsError(try sync.sync())
        }
        try laptop.syncNow()
        XCTAssertEqual(try laptop.store.syncState()?.machine, machine, "the file it wrote unrecorded is known as its own")
        try setUp(desktop, expecting: .joined)
        XCTAssertEqual(try desktop.syncNow().received, 1_200)
        XCTAssertEqual(try desktop.contents(), try laptop.contents())
        XCTAssertEqual(try desktop.store.count(), 1_200, "nothing doubled")
    }

    /// A write that timed out here landed at the place after the next sync had listed it: that
    /// sync wrote the name again (other bytes, refused) and went on to the next. The file the
    /// place kept is still known as this machine's own, not a twin's.
    func testAWriteThatLandedLateIsStillKnownAsItsOwn() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        _ = try laptop.save("Before the timeout", at: 1_000)
        try setUp(laptop, expecting: .started)
        let machine = try XCTUnwrap(try laptop.store.syncState()).machine
        let first = "\(machine)-00000001.batch"
        let cutOff = try JournalSync.open(laptop.store, at: FaultyPlace(place, failAfter: 1, afterWriting: true), passphrase: passphrase)
        XCTAssertThrowsError(try cutOff.sync())
        XCTAssertNotNil(try place.read(first), "written, the answer lost")
        _ = try laptop.save("After the timeout", at: 2_000)
        try JournalSync.open(laptop.store, at: ListsLate(place, hiding: first), passphrase: passphrase).sync()
        let counting = CountsReads(place)
        try JournalSync.open(laptop.store, at: counting, passphrase: passphrase).sync()
        XCTAssertEqual(try laptop.store.syncState()?.machine, machine, "its own file, not a twin's")
        XCTAssertEqual(counting.reads[first], 1, "read once, to apply it and to know it as its own")
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        XCTAssertEqual(try desktop.contents(), try laptop.contents())
        XCTAssertEqual(try desktop.contents().count, 2)
    }

    /// A journal from a Flourish that noted nothing of what it wrote: its own cut-off file, met
    /// after the upgrade, is taken as its own, as it was then.
    func testAfterAnUpgradeItsOwnCutOffFileIsStillItsOwn() throws {
        let laptop = try machine("laptop")
        _ = try laptop.save("Before the upgrade", at: 1_000)
        try setUp(laptop, expecting: .started)
        let machine = try XCTUnwrap(try laptop.store.syncState()).machine
        let cutOff = try JournalSync.open(laptop.store, at: FaultyPlace(place, failAfter: 1, afterWriting: true), passphrase: passphrase)
        XCTAssertThrowsError(try cutOff.sync())
        try DatabaseQueue(path: laptop.store.file).write { db in
            try db.execute(sql: "DELETE FROM sync_state WHERE key = 'digests' OR key LIKE 'writing %'")
        }
        try laptop.syncNow()
        XCTAssertEqual(try laptop.store.syncState()?.machine, machine)
    }

    func testTheFirstSyncOfABigJournalSaysHowFarItIsFileByFile() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        for day in 0..<1_200 { _ = try laptop.save("Day \(day)", at: Double(day) * 86_400) }
        try setUp(laptop, expecting: .started)
        var steps: [[Int]] = []
        _ = try XCTUnwrap(laptop.sync).sync { done, total in steps.append([done, total]) }
        XCTAssertEqual(steps, [[1, 3], [2, 3], [3, 3]], "1,208 changes sent as three files")
        try setUp(desktop, expecting: .joined)
        steps = []
        _ = try XCTUnwrap(desktop.sync).sync { done, total in steps.append([done, total]) }
        XCTAssertEqual(steps, [[1, 3], [2, 3], [3, 3], [4, 4]], "three files read, then its own tags sent")
    }

    func testACopyOfAJournalOrABackupPutBackWritesAsANewMachine() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        _ = try laptop.save("Before the copy", at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        laptop.store.close()
        try FileManager.default.copyItem(atPath: folder.file("laptop.sqlite"), toPath: folder.file("copy.sqlite"))
        let reopened = try machine("laptop")
        reopened.sync = try JournalSync.open(reopened.store, at: place, passphrase: passphrase)
        let copy = try machine("copy")
        copy.sync = try JournalSync.open(copy.store, at: place, passphrase: passphrase)

        let fromLaptop = try reopened.save("Laptop after the copy", at: 2_000)
        let fromCopy = try copy.save("Copy after the copy", at: 2_000)
        try reopened.syncNow()
        try copy.syncNow()
        XCTAssertNotEqual(try copy.store.syncState()?.machine, try reopened.store.syncState()?.machine, "a machine id of its own")
        try reopened.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        for each in [reopened, copy, desktop] {
            XCTAssertNotNil(try each.entry(fromLaptop.uuid))
            XCTAssertNotNil(try each.entry(fromCopy.uuid))
        }
        XCTAssertEqual(try desktop.contents(), try reopened.contents())
        XCTAssertEqual(try copy.contents(), try reopened.contents())
    }

    func testConflictedCopiesAndHalfWrittenFilesAtThePlaceAreLeftAlone() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        _ = try laptop.save("Entry", at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        let batch = try XCTUnwrap(try placeFiles().keys.first { $0.hasSuffix(".batch") })
        let source = (place.path as NSString).appendingPathComponent(batch)
        try FileManager.default.copyItem(atPath: source, toPath: source.replacingOccurrences(of: ".batch", with: " (conflicted copy 2026-11-26).batch"))
        try FileManager.default.copyItem(atPath: source, toPath: (place.path as NSString).appendingPathComponent(".syncthing.\(batch).tmp"))
        try setUp(desktop, expecting: .joined)
        let report = try desktop.syncNow()
        XCTAssertEqual(report.refused, [])
        XCTAssertEqual(try desktop.contents(), try laptop.contents())
    }

    func testTurningSyncOffForgetsThePlaceAndKeepsTheJournal() throws {
        let laptop = try machine("laptop")
        _ = try laptop.save("Entry", at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        let before = try laptop.contents()
        try laptop.store.stopSync()
        XCTAssertNil(try laptop.store.syncState())
        XCTAssertEqual(try laptop.contents(), before)
        XCTAssertThrowsError(try JournalSync.open(laptop.store, at: place, passphrase: passphrase)) {
            XCTAssertEqual($0 as? SyncError, .notSetUp)
        }
    }
}
