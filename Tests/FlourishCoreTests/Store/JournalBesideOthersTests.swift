import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// The journal file is shared: the reminder's service reads it while a window makes it, a
/// terminal's `flourish --import` writes it while a window is open. Another program's short
/// read or write is waited for, never taken for a journal that cannot be opened or saved.
final class JournalBesideOthersTests: XCTestCase {
    private let folder = TemporaryFolder()

    /// Holds a read of `path` open on a thread of its own (the lock another process would hold)
    /// until `release` is signalled. Returns once the read holds its lock.
    private func holdRead(of path: String, until release: DispatchSemaphore) throws -> DispatchGroup {
        var configuration = Configuration()
        configuration.readonly = true
        let reader = try DatabaseQueue(path: path, configuration: configuration)
        let holding = DispatchSemaphore(value: 0), done = DispatchGroup()
        done.enter()
        DispatchQueue.global().async {
            // A read of the file's first page takes SQLite's shared lock, kept until the read ends.
            try? reader.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
                holding.signal()
                release.wait()
            }
            try? reader.close()
            done.leave()
        }
        holding.wait()
        return done
    }

    /// What the reminder does when the file appears (its watch fires as the window makes the
    /// journal): it reads. The window's journal, made under that read, must still open.
    func testANewJournalIsMadeOnceAReadOfItsEmptyFileEnds() throws {
        let path = folder.file("journal.sqlite")
        // The file as the window's first step leaves it: made, empty.
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]))
        let release = DispatchSemaphore(value: 0)
        let reading = try holdRead(of: path, until: release)
        // The read ends a moment after the opening has met its lock.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { release.signal() }
        let store = try JournalStore(path: path)
        reading.wait()
        _ = try store.save(try EntryDraft(title: "Made beside a reader", mood: .okay).validated().get())
        XCTAssertEqual(try store.count(), 1)
        store.close()
    }

    /// A terminal's import writes while the window's journal is open: a save in the window waits
    /// for that write to end, then is kept.
    func testASaveWaitsForAnotherProgramsWrite() throws {
        let path = folder.file("journal.sqlite")
        let window = try JournalStore(path: path)
        _ = try window.save(try EntryDraft(title: "First", mood: .okay).validated().get())
        let terminal = try DatabaseQueue(path: path)
        let writing = DispatchSemaphore(value: 0), done = DispatchGroup()
        done.enter()
        DispatchQueue.global().async {
            try? terminal.inTransaction(.immediate) { _ in
                writing.signal()
                Thread.sleep(forTimeInterval: 0.3)
                return .commit
            }
            done.leave()
        }
        writing.wait()
        _ = try window.save(try EntryDraft(title: "Second", mood: .reallyGood).validated().get())
        done.wait()
        XCTAssertEqual(try window.count(), 2)
        try terminal.close()
        window.close()
    }
}
