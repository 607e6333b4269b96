@testable import FlourishCore
import CSodium
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// A locked journal's pages belong to their file, and its log tells nothing of them. Every file
/// sealed by the journal's key (the journal, each backup, each recovered copy) has an identity of
/// its own bound into every page, so a page of one never opens in another: someone who can write
/// to the folder cannot put an older page of an entry back from a backup. And the checksums each
/// frame of the log carries, which SQLite sums over the page in the clear, are masked with the key.
final class PageFormatTests: XCTestCase {
    private let folder = TemporaryFolder()
    private lazy var path = folder.file("journal.sqlite")
    private let passphrase = "a passphrase of the page format"
    private static let page = JournalCipher.pageSize

    private func entry(_ title: String) -> NewEntry {
        try! EntryDraft(title: title, body: "Words of \(title), long enough to fill a page or two. " + String(repeating: "More. ", count: 40),
                        mood: .okay).validated().get()
    }

    /// The person's locked journal, 60 entries, closed: compact, as locking leaves it.
    private func lockedJournal() throws -> JournalCipher {
        let store = try JournalStore(path: path)
        for day in 0..<60 {
            try store.save(entry("Day \(day)"), createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(day) * 86_400))
        }
        store.close()
        return try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive).cipher
    }

    // MARK: - Pages belong to their file

    func testAPageOfABackupDoesNotOpenInTheJournal() throws {
        let cipher = try lockedJournal()
        // Today's backup, then an entry changed: the backup's pages hold the entry as it was.
        let store = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(store.check(), .healthy)
        let backups = JournalBackups(journal: path)
        let backup = backups.folder + "/journal-2024-01-01.sqlite"
        try backups.write(from: store, to: backup)
        let first = try XCTUnwrap(store.entries(ids: try store.matches(JournalQuery(text: "Day 7"))).first)
        _ = try store.update(id: first.id, with: entry("Day 7 as it is now"), updatedAt: Date())
        store.close()
        XCTAssertEqual(cipher.format(of: path), JournalCipher.format)
        XCTAssertEqual(cipher.format(of: backup), JournalCipher.format)

        // Every page of the backup but its first put in place of the journal's, where both have
        // one: the same layout (both are compact copies), every page sealed by the same key.
        try splice(pagesOf: backup, into: path, from: 2)
        assertRefused(path, cipher: cipher, "the backup's pages")
    }

    func testAPageOfARecoveredCopyDoesNotOpenInTheJournal() throws {
        let cipher = try lockedJournal()
        let recovered = folder.file("journal-recovered-2024-01-01.sqlite")
        let result = try JournalRescue.recover(from: path, to: recovered, cipher: cipher)
        XCTAssertEqual(result.recovered, 60)
        try splice(pagesOf: recovered, into: path, from: 2)
        assertRefused(path, cipher: cipher, "the recovered copy's pages")
    }

    /// Copies every page of `source` from page `first` on over the same page of `target`, where
    /// `target` has one.
    private func splice(pagesOf source: String, into target: String, from first: Int) throws {
        let theirs = try Data(contentsOf: URL(fileURLWithPath: source))
        var ours = try Data(contentsOf: URL(fileURLWithPath: target))
        let pages = min(theirs.count, ours.count) / Self.page
        XCTAssertGreaterThan(pages, first + 10, "both files hold many pages")
        for index in (first - 1)..<pages {
            ours.replaceSubrange(index * Self.page..<(index + 1) * Self.page, with: theirs[index * Self.page..<(index + 1) * Self.page])
        }
        try ours.write(to: URL(fileURLWithPath: target))
    }

    /// The pages spliced into `file` are refused as they are read: the check says damaged,
    /// `--check` too, and no page of another file opened.
    private func assertRefused(_ file: String, cipher: JournalCipher, _ what: String, line: UInt = #line) {
        let refused = JournalCipher.refusedPages
        XCTAssertFalse(JournalRescue.check(path: file, cipher: cipher).healthy, "\(what): damage", line: line)
        XCTAssertGreaterThan(JournalCipher.refusedPages, refused, "\(what): refused as they were read", line: line)
        let store = try? JournalStore(path: file, cipher: cipher)
        if let store {
            if case .damaged = store.check() {} else { XCTFail("\(what): the store's check says damaged", line: line) }
            store.close()
        }
    }

    // MARK: - The log tells nothing of its pages

    func testTheLogsChecksumsAreNotSumsOfThePagesInTheClear() throws {
        let cipher = try lockedJournal()
        var configuration = JournalFile.configuration(cipher)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let writer = try DatabaseQueue(path: cipher.location(of: path), configuration: configuration)
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        for day in 0..<8 {
            try writer.write { db in
                try db.execute(sql: "UPDATE entry SET body = body || ? WHERE id = ?", arguments: [" Written again.", day + 1])
            }
        }
        let log = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
        // A crash's image, taken while the writer still holds the log: it opens with every change.
        let crashed = folder.file("crashed/journal.sqlite")
        try FileManager.default.createDirectory(atPath: folder.file("crashed"), withIntermediateDirectories: true)
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: crashed + suffix) }
        try writer.close()

        let frames = (log.count - 32) / (24 + Self.page)
        XCTAssertGreaterThanOrEqual(frames, 8, "the changes are in the log")
        let journalPage = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(Self.page))
        let identity = Array(journalPage[(Self.page - 40)..<(Self.page - 32)])
        // SQLite's running checksum, seeded by the log header's, over each frame's first 8
        // bytes and its page in the clear (the page opened here with the key, as the format says).
        var sums = (word(log, 24, bigEndian: true), word(log, 28, bigEndian: true))
        var plainSums = 0
        for frame in 0..<frames {
            let start = 32 + frame * (24 + Self.page)
            let number = word(log, start, bigEndian: true)
            let page = try XCTUnwrap(open(Array(log[(start + 24)..<(start + 24 + Self.page)]), page: number, identity: identity, cipher: cipher),
                                     "frame \(frame) opens with the journal's identity")
            sums = checksum(Array(log[start..<(start + 8)]) + page, sums)
            if (word(log, start + 16, bigEndian: true), word(log, start + 20, bigEndian: true)) == sums { plainSums += 1 }
        }
        XCTAssertEqual(plainSums, 0, "no frame's checksums, as written, are the sums of its page in the clear")

        // The journal, opened from the crash's image, has every change (the checksums unmasked as
        // the log is read back).
        let store = try JournalStore(path: crashed, cipher: cipher)
        XCTAssertEqual(store.check(), .healthy)
        let rewritten = try store.entries(ids: try store.matches(JournalQuery(text: "again"))).count
        XCTAssertEqual(rewritten, 8)
        store.close()
    }

    private func word(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool) -> UInt32 {
        let four = bytes[offset..<offset + 4]
        return bigEndian ? four.reduce(0) { $0 << 8 | UInt32($1) } : four.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// SQLite's log checksum (little-endian words, as it writes them on this machine).
    private func checksum(_ bytes: [UInt8], _ start: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (first, second) = start
        for offset in stride(from: 0, to: bytes.count, by: 8) {
            first = first &+ word(bytes, offset, bigEndian: false) &+ second
            second = second &+ word(bytes, offset + 4, bigEndian: false) &+ first
        }
        return (first, second)
    }

    /// A sealed page opened as the format says: its first 4056 bytes, under the nonce and tag
    /// after them, bound to "FLJ2", the file's identity and the page's number; the 40 reserved
    /// bytes zero.
    private func open(_ sealed: [UInt8], page: UInt32, identity: [UInt8], cipher: JournalCipher) -> [UInt8]? {
        let content = Self.page - 40
        let data = Array("FLJ2".utf8) + identity + [UInt8(page >> 24), UInt8((page >> 16) & 0xff), UInt8((page >> 8) & 0xff), UInt8(page & 0xff)]
        var plain = [UInt8](repeating: 0, count: Self.page)
        let opened = cipher.withKey { key in
            crypto_aead_xchacha20poly1305_ietf_decrypt_detached(&plain, nil, sealed, UInt64(content), Array(sealed[(content + 24)...]),
                                                               data, UInt64(data.count), Array(sealed[content..<(content + 24)]), key)
        }
        return opened == 0 ? plain : nil
    }

    // MARK: - A journal locked in the first format

    /// The first locked journals' format (pages bound to their number only, the log's checksums
    /// in the clear), as a Flourish of that time left one: 40 entries, a change still in the log
    /// after a crash, a backup. Its passphrase is "locked fixture passphrase".
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/locked-format-1").standardized.path

    func testAJournalLockedInTheFirstFormatIsRewrittenInTodaysWithEveryRow() throws {
        let files = FileManager.default
        let journal = folder.file("journal.sqlite"), before = folder.file("before/journal.sqlite")
        _ = try fixtureCopy(in: folder.file("before"))
        let cipher = try fixtureCopy().cipher
        let backup = folder.file("backups/journal-2023-12-25.sqlite")
        XCTAssertEqual(cipher.format(of: journal), 1)
        XCTAssertEqual(cipher.format(of: backup), 1)
        XCTAssertGreaterThan(JournalFile.size(of: journal + "-wal"), 0, "a change is still in the log")
        let rowsBefore = try everyRow(before, cipher: cipher)
        let backupBefore = try everyRow(backup, cipher: cipher)
        XCTAssertEqual(rowsBefore["entry"]?.count, 40)
        XCTAssertTrue(rowsBefore["entry"]?.contains { $0.contains("text:'Day 0, changed in the log'") } ?? false, "the log is read")

        let store = try JournalStore(path: journal, cipher: cipher)
        XCTAssertEqual(store.check(), .healthy)
        XCTAssertEqual(try JournalLock.sealPlainCopies(path: journal, cipher: cipher).removed, [])
        store.close()
        XCTAssertEqual(try files.contentsOfDirectory(atPath: folder.path).sorted(), ["backups", "before", "journal.sqlite", "journal.sqlite.key", "journal.sqlite.newest"],
                       "no copy of the old file is left")

        XCTAssertEqual(cipher.format(of: journal), JournalCipher.format, "the journal is in today's format")
        XCTAssertEqual(cipher.format(of: backup), JournalCipher.format, "its backup too")
        // Opened, the journal has had the schema's upgrades since (each adds its own row only).
        var rowsAfter = try everyRow(journal, cipher: cipher)
        let since = [JournalSchema.optionalMoodMigration, JournalSchema.ownWordsMigration, JournalSchema.templatesMigration]
        rowsAfter["grdb_migrations"]?.removeAll { since.map { ["text:'\($0)'"] }.contains($0) }
        XCTAssertEqual(rowsAfter.removeValue(forKey: "own_word"), [], "v12's tables, empty")
        XCTAssertEqual(rowsAfter.removeValue(forKey: "journal_setting"), [])
        XCTAssertEqual(rowsAfter.removeValue(forKey: "template")?.count, 3, "v13's three templates to start with")
        XCTAssertEqual(rowsAfter.removeValue(forKey: "sync_template_gone"), [])
        rowsAfter["sqlite_sequence"]?.removeAll { $0.first == "text:'template'" }
        XCTAssertEqual(rowsAfter, rowsBefore, "every row of every table, as it was")
        XCTAssertEqual(try everyRow(backup, cipher: cipher), backupBefore, "the backup's too")
        XCTAssertEqual(try JournalLock.unlock(path: journal, secret: "locked fixture passphrase").keyID, cipher.keyID,
                       "the same passphrase opens it")
    }

    /// An opening learns the format from the connection that looked at the journal (its VFS
    /// opened page 1), not from a read of its own: with no log left to read first, that
    /// connection is the one kept, and the rewrite still comes before any write.
    func testAJournalInTheFirstFormatWithItsLogMergedIsRewrittenAtItsOpening() throws {
        let (journal, cipher) = try fixtureCopy()
        // Merged as a Flourish of that time would merge it: in the file's own format.
        let merging = try DatabaseQueue(path: cipher.location(of: journal), configuration: JournalFile.configuration(cipher))
        try merging.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        XCTAssertEqual(JournalCipher.format(of: merging), 1, "the connection says the format its pages opened in")
        try merging.close()
        XCTAssertEqual(JournalFile.size(of: journal + "-wal"), 0, "nothing left in the log")
        XCTAssertEqual(cipher.format(of: journal), 1)
        let rowsBefore = try everyRow(journal, cipher: cipher)

        let store = try JournalStore(path: journal, cipher: cipher)
        XCTAssertEqual(cipher.format(of: journal), JournalCipher.format, "rewritten before the store reads from it")
        XCTAssertEqual(store.check(), .healthy)
        XCTAssertEqual(try store.matches(JournalQuery(text: "changed in the log")).count, 1)
        store.close()
        var rowsAfter = try everyRow(journal, cipher: cipher)
        XCTAssertEqual(rowsAfter.removeValue(forKey: "entry"), rowsBefore["entry"], "every entry, as it was")
        XCTAssertEqual(rowsAfter.removeValue(forKey: "tag"), rowsBefore["tag"])
    }

    func testAConnectionSaysItsJournalsFormatOnlyThroughTheCipher() throws {
        let cipher = try lockedJournal()
        let locked = try DatabaseQueue(path: cipher.location(of: path), configuration: JournalFile.configuration(cipher))
        XCTAssertEqual(JournalCipher.format(of: locked), JournalCipher.format)
        try locked.close()
        let plain = try DatabaseQueue(path: folder.file("plain.sqlite"))
        try plain.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        XCTAssertNil(JournalCipher.format(of: plain), "a plain connection has no page format to say")
        try plain.close()
    }

    func testAJournalInTheFirstFormatOpenElsewhereOpensAsItIsAndIsRewrittenLater() throws {
        let (journal, cipher) = try fixtureCopy()
        // Another program reading it: its lock keeps the log from being merged, so the file cannot
        // be swapped under it.
        let other = try DatabaseQueue(path: cipher.location(of: journal), configuration: JournalFile.configuration(cipher))
        try other.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM entry"), 40)
            let store = try JournalStore(path: journal, cipher: cipher)
            XCTAssertEqual(store.check(), .healthy)
            _ = try store.save(entry("Written in the first format"))
            store.close()
            XCTAssertEqual(cipher.format(of: journal), 1, "left as it was, and written in its own format")
        }
        try other.close()
        let store = try JournalStore(path: journal, cipher: cipher)
        XCTAssertEqual(cipher.format(of: journal), JournalCipher.format, "rewritten at the next opening")
        XCTAssertEqual(try store.matches(JournalQuery(text: "first format")).count, 1)
        store.close()
    }

    func testAJournalOpenForWritingElsewhereIsNeverSwappedUnderIt() throws {
        let (journal, cipher) = try fixtureCopy()
        // Another program's writer, its log merged and emptied: nothing on disk says it is there
        // but its locks.
        let other = try DatabaseQueue(path: cipher.location(of: journal), configuration: JournalFile.configuration(cipher))
        try other.writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        XCTAssertEqual(JournalFile.size(of: journal + "-wal"), 0)
        let store = try JournalStore(path: journal, cipher: cipher)
        XCTAssertEqual(cipher.format(of: journal), 1, "not rewritten while another program has it open")
        store.close()
        try other.write { db in
            try db.execute(sql: "UPDATE entry SET title = 'Saved by the other program' WHERE title = 'Day 1 of the locked fixture'")
        }
        try other.close()
        let reopened = try JournalStore(path: journal, cipher: cipher)
        XCTAssertEqual(cipher.format(of: journal), JournalCipher.format, "rewritten once nobody else has it open")
        XCTAssertEqual(try reopened.matches(JournalQuery(text: "other program")).count, 1, "with the other program's save")
        reopened.close()
    }

    func testALockFinishedAfterACutKeepsABackupSealedInTheFirstFormat() throws {
        let files = FileManager.default
        let backup = folder.file("backups/journal-2023-12-25.sqlite")
        let (journal, cipher) = try fixtureCopy()
        let backupRows = try everyRow(backup, cipher: cipher)
        // Half locked: the journal plain again beside its key file, as a lock cut short leaves it.
        let plain = folder.file("plain.sqlite")
        var configuration = JournalFile.configuration(cipher)
        configuration.readonly = true
        let queue = try DatabaseQueue(path: cipher.location(of: journal), configuration: configuration)
        try JournalFile.vacuum(queue, intoNewFile: plain, cipher: nil)
        try queue.close()
        for suffix in ["-wal", "-shm"] { try? files.removeItem(atPath: journal + suffix) }
        XCTAssertEqual(rename(plain, journal), 0)
        XCTAssertTrue(JournalLock.isHalfLocked(journal))

        let done = try JournalLock.finishLocking(path: journal, cipher: cipher)
        XCTAssertEqual(done.backupsRemoved, [], "a backup sealed in the first format is no plain copy: kept")
        XCTAssertEqual(try everyRow(backup, cipher: cipher), backupRows)
        _ = try JournalLock.sealPlainCopies(path: journal, cipher: cipher)
        XCTAssertEqual(cipher.format(of: backup), JournalCipher.format, "then rewritten in today's format")
        XCTAssertEqual(try everyRow(backup, cipher: cipher), backupRows)
    }

    /// The fixture's files copied into `target` (the test's folder unless said), and its key.
    private func fixtureCopy(in target: String? = nil) throws -> (journal: String, cipher: JournalCipher) {
        let files = FileManager.default, target = target ?? folder.path
        try files.createDirectory(atPath: target, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: Self.fixture) {
            try files.copyItem(atPath: Self.fixture + "/" + name, toPath: target + "/" + name)
        }
        let journal = target + "/journal.sqlite"
        return (journal, try JournalLock.unlock(path: journal, secret: "locked fixture passphrase"))
    }

    /// Every row of every table (the search index's own included), as text.
    private func everyRow(_ file: String, cipher: JournalCipher) throws -> [String: [[String]]] {
        var configuration = JournalFile.configuration(cipher)
        configuration.readonly = true
        let queue = try DatabaseQueue(path: cipher.location(of: file), configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            var tables: [String: [[String]]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'") {
                let columns = try db.columns(in: table).map { "typeof(\($0.name.quotedDatabaseIdentifier)) || ':' || quote(\($0.name.quotedDatabaseIdentifier))" }
                tables[table] = try Row.fetchAll(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table.quotedDatabaseIdentifier)")
                    .map { row in (0..<row.count).map { row[$0] as String } }.sorted { $0.lexicographicallyPrecedes($1) }
            }
            return tables
        }
    }
}
