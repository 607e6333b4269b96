@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// A locked journal's write-ahead log as a crash or a bad disk leaves it: a frame cut short (the
/// journal opens with every save before it), a byte changed in a frame already committed (damage,
/// never a silent loss of the saves after it), and nothing crashes.
final class LockedLogFaultTests: XCTestCase {
    private let folder = TemporaryFolder()
    private lazy var path = folder.file("journal.sqlite")
    /// The journal as a crash would leave it: its file and its log, no wal-index.
    private lazy var crashed = folder.file("crashed/journal.sqlite")
    private let saves = 12

    private func entry(_ number: Int) -> NewEntry {
        try! EntryDraft(title: "Logged \(number)", body: String(repeating: "Words of entry \(number). ", count: 20 + number * 9),
                        mood: Mood(rawValue: number % 6)).validated().get()
    }

    /// A locked journal, open, with `saves` entries in its log (one transaction each) and none yet
    /// merged into its file.
    private func lockedJournalWithSavesInItsLog() throws -> (store: JournalStore, cipher: JournalCipher) {
        try JournalStore(path: path).close()
        let cipher = try JournalLock.lock(path: path, passphrase: "log fault passphrase", cost: .interactive).cipher
        let store = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(store.check(), .healthy)
        for number in 0..<saves { _ = try store.save(entry(number), createdAt: Date(timeIntervalSince1970: Double(number) * 86_400)) }
        let log = try LogFrames(path + "-wal")
        XCTAssertEqual(log.commits.count, saves, "each save is one transaction of the log, none merged yet")
        return (store, cipher)
    }

    /// Copies the open journal's file and log, as a crash leaves them (the wal-index is rebuilt
    /// from the log by the next open, so none is copied).
    private func copyAsCrashed() throws {
        try FileManager.default.createDirectory(atPath: (crashed as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: crashed + suffix) }
    }

    /// The titles of the store's entries, oldest first.
    private func titles(_ store: JournalStore) throws -> [String] {
        try store.entries(ids: try store.entryIDs()).sorted { $0.createdAt < $1.createdAt }.map(\.title)
    }

    private func expectedTitles(_ count: Int) -> [String] { (0..<count).map { "Logged \($0)" } }

    // MARK: - A torn frame

    /// The last frame cut in the middle of its page, as a crash during the last save leaves it:
    /// SQLite reads the log a whole frame at a time and stops before one that is not all there,
    /// so that save (whose commit is that frame) is gone and every one before it is whole.
    func testALogCutInItsLastFrameOpensWithEverySaveBeforeIt() throws {
        let (store, cipher) = try lockedJournalWithSavesInItsLog()
        try copyAsCrashed()
        store.close()
        let log = try LogFrames(crashed + "-wal")
        XCTAssertEqual(log.commits.last, log.count - 1, "the last frame is the last save's commit")
        try LogFrames.truncate(crashed + "-wal", to: log.offset(ofFrame: log.count - 1) + LogFrames.frameSize / 2)

        let reopened = try JournalStore(path: crashed, cipher: cipher)
        XCTAssertEqual(reopened.check(), .healthy)
        XCTAssertEqual(try titles(reopened), expectedTitles(saves - 1))
        let bodies = try reopened.entries(ids: try reopened.entryIDs()).map(\.body)
        XCTAssertTrue(bodies.allSatisfy { $0.hasPrefix("Words of entry") && $0.hasSuffix(".") }, "every entry whole")
        // Writable as any journal after a crash, and still sealed.
        _ = try reopened.save(entry(saves), createdAt: Date())
        reopened.close()
        let again = try JournalStore(path: crashed, cipher: cipher)
        XCTAssertEqual(try again.count(), saves)
        again.close()
        XCTAssertFalse(JournalFile.hasSQLiteHeader(crashed))
    }

    /// A power cut during the last save's commit: the log is synced only at commit, so any frame
    /// of that last transaction may be torn while its commit frame reached the disk whole. That
    /// transaction is dropped, as SQLite drops it in a plain log, and it is no damage: the journal
    /// opens with every save before it.
    func testAFrameTornInsideTheLastSaveOpensWithEverySaveBeforeIt() throws {
        let (store, cipher) = try lockedJournalWithSavesInItsLog()
        try copyAsCrashed()
        store.close()
        let log = try LogFrames(crashed + "-wal")
        let lastStart = log.commits[log.commits.count - 2] + 1
        XCTAssertLessThan(lastStart, log.count - 1, "the last save is several frames")
        try LogFrames.flipByte(crashed + "-wal", at: log.offset(ofFrame: lastStart) + LogFrames.headerSize + 1000)

        let reopened = try JournalStore(path: crashed, cipher: cipher)
        XCTAssertEqual(reopened.check(), .healthy)
        XCTAssertEqual(try titles(reopened), expectedTitles(saves - 1))
        reopened.close()
    }

    // MARK: - A changed byte in a committed frame

    /// A byte changed in the page of a frame in the middle of the log, read by the next open's
    /// recovery. Recovery reads whole frames; the VFS opens each. A frame that does not open with
    /// a whole transaction after it is not a crash's torn end of the log: it is damage, and the
    /// saves after it are not dropped unsaid (SQLite alone would end the log at the commit before
    /// it, its checksum failing). The journal is not opened and left as it is; `--check` says it
    /// is damaged, and `--recover` salvages the saves committed before the damaged frame.
    func testAChangedFrameInTheMiddleOfTheLogIsDamageAndRecoverSalvagesTheSavesBeforeIt() throws {
        let (store, cipher) = try lockedJournalWithSavesInItsLog()
        try copyAsCrashed()
        store.close()
        let log = try LogFrames(crashed + "-wal")
        let damaged = log.count / 2
        let survivors = log.commits.filter { $0 < damaged }.count
        XCTAssertTrue((1..<saves).contains(survivors), "a frame of a save in the middle of the log")
        try LogFrames.flipByte(crashed + "-wal", at: log.offset(ofFrame: damaged) + LogFrames.headerSize + 1000)
        try FileManager.default.copyItem(atPath: path + ".key", toPath: crashed + ".key")
        let files = try [crashed, crashed + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }

        let refusedBefore = JournalCipher.refusedPages
        XCTAssertThrowsError(try JournalStore(path: crashed, cipher: cipher), "not opened as if the log ended there") {
            XCTAssertEqual($0 as? JournalError, .damaged(path: self.crashed))
        }
        XCTAssertGreaterThan(JournalCipher.refusedPages, refusedBefore, "the frame's tag refused it")
        XCTAssertFalse(JournalRescue.check(path: crashed, cipher: cipher).healthy)
        XCTAssertEqual(try [crashed, crashed + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, files, "left as it was")

        let output = folder.file("recovered.sqlite")
        let recovery = try JournalRescue.recover(from: crashed, to: output, cipher: cipher)
        XCTAssertEqual(recovery.recovered, survivors)
        let recovered = try JournalStore(path: output, cipher: cipher)
        XCTAssertEqual(try titles(recovered), expectedTitles(survivors))
        recovered.close()
    }

    /// The same damage while the journal is open: its wal-index already lists the frame, so no
    /// recovery runs and nothing ends the log. The page is read from the frame when needed, its
    /// tag refuses it, and the read fails with SQLITE_IOERR_DATA: the health check of another
    /// connection reports damage, and nothing crashes.
    func testAChangedFrameTheIndexListsIsDamageWhenRead() throws {
        let (store, cipher) = try lockedJournalWithSavesInItsLog()
        defer { store.close() }
        let log = try LogFrames(path + "-wal")
        // A frame no later one replaces: its page is read from it.
        let damaged = try XCTUnwrap((log.count / 2..<log.count).first { log.isLatest($0) })
        try LogFrames.flipByte(path + "-wal", at: log.offset(ofFrame: damaged) + LogFrames.headerSize + 1000)

        let refusedBefore = JournalCipher.refusedPages
        let second = try JournalStore(path: path, cipher: cipher)
        defer { second.close() }
        guard case .damaged(let report) = second.check() else { return XCTFail("a refused page is damage") }
        XCTAssertGreaterThan(JournalCipher.refusedPages, refusedBefore, "the frame's tag refused it")
        XCTAssertTrue(report.joined().localizedCaseInsensitiveContains("disk I/O error"), report.joined(separator: "; "))
    }

    /// A connection remembers where it last wrote a frame's header; another connection may have
    /// restarted the log since and written another page there. Read back, that frame opens as the
    /// page its header names now: no false damage.
    func testAFrameAnotherConnectionWroteSinceOpensAsItsOwnPage() throws {
        try JournalStore(path: path).close()
        let cipher = try JournalLock.lock(path: path, passphrase: "log fault passphrase", cost: .interactive).cipher
        let store = try JournalStore(path: path, cipher: cipher)
        for number in 0..<saves { _ = try store.save(entry(number), createdAt: Date(timeIntervalSince1970: Double(number) * 86_400)) }
        store.close()
        var configuration = JournalFile.configuration(cipher)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let first = try DatabaseQueue(path: cipher.location(of: path), configuration: configuration)
        let second = try DatabaseQueue(path: cipher.location(of: path), configuration: configuration)
        // The first writes a small transaction: it remembers its last frame's header.
        try first.write { db in try db.execute(sql: "UPDATE entry SET mood = 5 WHERE id = (SELECT min(id) FROM entry)") }
        let small = try LogFrames(path + "-wal").count
        // The second merges the log, starts it again from its first frame, and writes many pages.
        try second.writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(RESTART)") }
        try second.write { db in try db.execute(sql: "UPDATE entry SET body = body || ' Written again.'") }
        let log = try LogFrames(path + "-wal")
        XCTAssertGreaterThan(log.count, small, "the second's frames cover the first's")
        XCTAssertNotEqual(log.pages[small - 1], 0)
        // The first reads every page, that frame's among them.
        XCTAssertEqual(try first.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }, ["ok"])
        try first.close()
        try second.close()
    }
}

/// The frames of a write-ahead log, from their headers (which the VFS leaves in the clear).
struct LogFrames {
    static let headerSize = 24
    static let frameSize = headerSize + JournalCipher.pageSize
    private static let logHeaderSize = 32

    /// Each frame's page number, in order.
    let pages: [UInt32]
    /// The frames that end a transaction (their header gives the journal's size in pages).
    let commits: [Int]
    var count: Int { pages.count }

    init(_ log: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: log)))
        let count = max(0, bytes.count - Self.logHeaderSize) / Self.frameSize
        let word = { (offset: Int) in bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        pages = (0..<count).map { word(Self.logHeaderSize + $0 * Self.frameSize) }
        commits = (0..<count).filter { word(Self.logHeaderSize + $0 * Self.frameSize + 4) != 0 }
    }

    func offset(ofFrame index: Int) -> Int { Self.logHeaderSize + index * Self.frameSize }

    /// Whether no later frame holds the same page (so reads of the page go to this one).
    func isLatest(_ index: Int) -> Bool { !pages[(index + 1)...].contains(pages[index]) }

    static func truncate(_ file: String, to size: Int) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: file))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    /// Changes one bit in place: the same file (inode), as a bad disk would, so that a
    /// connection that has it open sees the change.
    static func flipByte(_ file: String, at offset: Int) throws {
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: file))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        let byte = try XCTUnwrap(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: [byte ^ 0x01])
    }
}
