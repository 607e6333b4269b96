@testable import FlourishCore
import CSodium
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Once a locked journal closes, nothing of it stays in the process's memory in the clear:
/// SQLite's page cache and every other buffer it freed are wiped (`journal_cipher.c`), and so
/// are the VFS's own. Read here from the process's memory itself (/proc/self/mem), every
/// writable mapping, for a title that only SQLite ever held whole.
final class LockedMemoryTests: XCTestCase {
    private let folder = TemporaryFolder()
    private lazy var path = folder.file("journal.sqlite")
    // The title, in two halves: joined only inside SQLite, so no copy of it whole is the test's.
    private let halves = ("QXZVKWMPLRTA", "JHGFDSYUIOPN")

    func testNothingOfALockedJournalStaysInMemoryOnceItCloses() throws {
        XCTAssertTrue(JournalCipher.wipesSQLiteMemory, "SQLite's allocator wipes what it frees")
        let store = try JournalStore(path: path)
        for day in 0..<30 {
            _ = try store.save(try EntryDraft(title: "Day \(day)", body: "Words of day \(day).", mood: .okay).validated().get(),
                           createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(day) * 86_400))
        }
        store.close()
        let cipher = try JournalLock.lock(path: path, passphrase: "a passphrase for the memory", cost: .interactive).cipher

        let locked = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(locked.check(), .healthy)
        let queue = try DatabaseQueue(path: cipher.location(of: path), configuration: JournalFile.configuration(cipher))
        try queue.write { db in
            try db.execute(sql: "UPDATE entry SET title = ? || ? WHERE id = (SELECT min(id) FROM entry)", arguments: [halves.0, halves.1])
        }
        let found = try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE title = ? || ?", arguments: [halves.0, halves.1])
        }
        XCTAssertEqual(found, 1)
        XCTAssertGreaterThan(try memoryHolds(halves), 0, "open, the journal's pages are in memory in the clear (the search finds them)")

        try queue.close()
        locked.close()
        cipher.wipe()
        XCTAssertEqual(try memoryHolds(halves), 0, "closed, no copy of the title is left in memory")
    }

    /// The VFS's copies of the key, one for each file a connection opens (taken from cells of
    /// one locked allocation, not a mapping each: see `key_copy`), are wiped as the files close.
    /// Once the journal is closed and its key let go, no copy of the key is left in memory.
    func testNoCopyOfTheKeyStaysInMemoryOnceTheJournalCloses() throws {
        let store = try JournalStore(path: path)
        _ = try store.save(try EntryDraft(title: "A day", body: "Words.", mood: .okay).validated().get(), createdAt: Date())
        store.close()
        let cipher = try JournalLock.lock(path: path, passphrase: "a passphrase for the key's copies", cost: .interactive).cipher
        // The key in two halves, each in an array of its own: no copy of it whole is the test's.
        var key = cipher.withKey { key in (Array(key[0..<16]), Array(key[16...])) }
        defer {
            sodium_memzero(&key.0, key.0.count)
            sodium_memzero(&key.1, key.1.count)
        }
        let locked = try JournalStore(path: path, cipher: cipher)
        XCTAssertEqual(locked.check(), .healthy)
        _ = try locked.save(try EntryDraft(title: "Another", body: "More words.", mood: .reallyGood).validated().get(), createdAt: Date())
        XCTAssertGreaterThan(try memoryHolds((key.0, key.1)), 1, "open, the key is in its slot and in its files' copies")
        locked.close()
        cipher.wipe()
        XCTAssertEqual(try memoryHolds((key.0, key.1)), 0, "closed and let go, no copy of the key is left")
    }

    /// A file of /proc read to its end: it says it has no size, and a process with many mappings
    /// (the whole test run's) lists more than one read gives.
    private func whole(_ path: String) throws -> String {
        guard let bytes = LocalFiles.bytes(of: path) else { throw CocoaError(.fileReadNoSuchFile) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func memoryHolds(_ halves: (String, String)) throws -> Int {
        try memoryHolds((Array(halves.0.utf8), Array(halves.1.utf8)))
    }

    /// How many times the two halves, one right after the other, are in the process's writable
    /// memory. The buffer the memory is read into is wiped after each read.
    private func memoryHolds(_ halves: ([UInt8], [UInt8])) throws -> Int {
        let (first, second) = halves
        let maps = try whole("/proc/self/maps")
        let memory = open("/proc/self/mem", O_RDONLY | O_CLOEXEC)
        guard memory >= 0 else { throw XCTSkip("/proc/self/mem cannot be read") }
        defer { close(memory) }
        let chunk = 8 << 20, overlap = first.count + second.count
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk + overlap, alignment: 16)
        defer {
            memset(buffer, 0, chunk + overlap)
            buffer.deallocate()
        }
        var count = 0
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("rw"), !line.hasSuffix("[vvar]"), !line.hasSuffix("[vsyscall]") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard bounds.count == 2 else { continue }
            var start = bounds[0]
            while start < bounds[1] {
                let length = Int(min(UInt(chunk + overlap), bounds[1] - start))
                let read = pread(memory, buffer, length, Int(bitPattern: start))
                var at = 0
                // Each place the first byte is, then the rest of both halves after it.
                while read > 0, at + overlap <= read, let hit = memchr(buffer + at, Int32(first[0]), read - overlap + 1 - at) {
                    let offset = hit - buffer
                    if memcmp(hit, first, first.count) == 0, memcmp(hit + first.count, second, second.count) == 0 { count += 1 }
                    at = offset + 1
                }
                memset(buffer, 0, chunk + overlap)
                start += UInt(chunk)
            }
        }
        return count
    }
}
