import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Daily backups beside the journal, their rotation, and `--restore`.
final class BackupTests: XCTestCase {
    let folder = TemporaryFolder()

    private func day(_ offset: Int) -> Date { Date(timeIntervalSince1970: 1_767_268_800 + Double(offset) * 86_400) } // from 2026-01-01 12:00 UTC

    private func entries(_ path: String) throws -> [Entry] {
        let store = try JournalStore(path: path)
        defer { store.close() }
        return try store.entries(ids: try store.entryIDs()).sorted { $0.id < $1.id }
    }

    func testABackupIsAWholePrivateCopyWrittenOnceADay() throws {
        let path = folder.file("journal.sqlite")
        let saved = try DamagedJournals.journal(at: path, count: 40)
        let store = try JournalStore(path: path)
        let backups = JournalBackups(journal: path)
        let written = try XCTUnwrap(try backups.backUpIfDue(from: store, now: day(0)))
        XCTAssertNil(try backups.backUpIfDue(from: store, now: day(0).addingTimeInterval(3_600)), "once a day")
        XCTAssertEqual(try permissions(of: written), 0o600)
        XCTAssertEqual(try permissions(of: backups.folder), 0o700)
        XCTAssertEqual((written as NSString).lastPathComponent.hasPrefix("journal-2026-01-0"), true)
        XCTAssertEqual(JournalRescue.check(path: written).healthy, true)
        XCTAssertEqual(try entries(written), saved, "every entry, every field")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: backups.folder).contains { $0.hasSuffix(".partial") })
    }

    func testAnEmptyJournalIsNotBackedUp() throws {
        let path = folder.file("journal.sqlite")
        let store = try JournalStore(path: path)
        XCTAssertNil(try JournalBackups(journal: path).backUpIfDue(from: store, now: day(0)))
    }

    func testSevenDailyAndFourWeeklyBackupsAreKept() throws {
        let path = folder.file("journal.sqlite")
        try DamagedJournals.journal(at: path, count: 3)
        let store = try JournalStore(path: path)
        let backups = JournalBackups(journal: path)
        for offset in 0..<60 { try backups.backUpIfDue(from: store, now: day(offset)) }
        let kept = backups.list()
        XCTAssertEqual(kept.count, JournalBackups.dailyKept + JournalBackups.weeklyKept)
        // The 7 newest days, one after another.
        let newest = kept.prefix(7).map(\.day)
        XCTAssertEqual(newest.first.map { Calendar.current.isDate($0, inSameDayAs: day(59)) }, true)
        for (later, earlier) in zip(newest, newest.dropFirst()) {
            XCTAssertEqual(later.timeIntervalSince(earlier), 86_400, accuracy: 3_600)
        }
        // Then four, each from an earlier week than the one before it.
        let weekly = kept.dropFirst(7).map { Calendar(identifier: .iso8601).component(.weekOfYear, from: $0.day) }
        XCTAssertEqual(weekly.count, 4)
        XCTAssertEqual(Set(weekly).count, 4)
    }

    func testRestoreBringsBackEveryEntryAndKeepsTheReplacedJournal() throws {
        let path = folder.file("journal.sqlite")
        let before = try DamagedJournals.journal(at: path, count: 25)
        let backup = try XCTUnwrap(try JournalBackups(journal: path).backUpIfDue(from: try JournalStore(path: path), now: day(0)))
        let later = try JournalStore(path: path)
        _ = try later.save(try EntryDraft(title: "After the backup", mood: .meh).validated().get(), createdAt: Date())
        later.close()
        let replaced = try entries(path)
        XCTAssertEqual(replaced.count, 26)

        let kept = try XCTUnwrap(try JournalRescue.restore(backup: backup, to: path))
        XCTAssertEqual(try entries(path), before, "the journal is the backup again, every field")
        XCTAssertEqual(try entries(kept), replaced, "the replaced journal is kept whole")
        XCTAssertEqual(try permissions(of: kept), 0o600)
        XCTAssertEqual(try permissions(of: path), 0o600)
    }

    func testRestoreRefusesADamagedBackupOrAnotherFileAndChangesNothing() throws {
        let path = folder.file("journal.sqlite")
        try DamagedJournals.journal(at: path, count: 300)
        let damaged = folder.file("damaged.sqlite")
        try DamagedJournals.journal(at: damaged, count: 300)
        try DamagedJournals.zeroMiddleLeafPage(of: damaged)
        let notes = folder.file("notes.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notes))
        let before = try DamagedJournals.snapshot(of: folder.path)
        XCTAssertThrowsError(try JournalRescue.restore(backup: damaged, to: path)) { error in
            XCTAssertEqual(error as? JournalError, .damaged(path: damaged))
        }
        XCTAssertThrowsError(try JournalRescue.restore(backup: notes, to: path))
        XCTAssertEqual(try DamagedJournals.snapshot(of: folder.path), before)
    }
}
