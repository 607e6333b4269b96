@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Acknowledged means durable: a process saving through the real store (`flourish-bench
/// save-loop`) is SIGKILLed at random moments, again and again on the same journal. After each
/// kill the journal passes `integrity_check`, and every entry whose save had returned is there,
/// whole. FLOURISH_CRASH_KILLS sets the count (200 by default, as in CI); a locked journal gets
/// half as many, each round costing an unlock more.
final class CrashTests: XCTestCase {
    let folder = TemporaryFolder()

    static var kills: Int { Int(ProcessInfo.processInfo.environment["FLOURISH_CRASH_KILLS"] ?? "") ?? 200 }

    /// The helper, built beside this test bundle by `swift build --build-tests`.
    private var helper: URL {
        Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("flourish-bench")
    }

    /// What the helper saves as entry `number`, worked out again here independently.
    private func expected(_ number: Int) -> (title: String, body: String, mood: Int) {
        // The form trims what it saves; so does the helper's draft.
        ("Crash test \(number)",
         String(repeating: "Entry \(number) says this. ", count: 1 + (number * 37) % 400).trimmingCharacters(in: .whitespaces),
         number % 6)
    }

    func testEveryAcknowledgedSaveSurvivesSIGKILL() throws {
        let path = folder.file("journal.sqlite")
        let acknowledged = try killRepeatedly(path, kills: Self.kills, lock: nil)
        print("crash test: \(Self.kills) kills, \(acknowledged) acknowledged entries, all present and whole")
    }

    /// The same on a locked journal: recovery after each kill reads the sealed log through the
    /// VFS (a frame the kill left half written must end the log, as in a plain one), and every
    /// page it merges is sealed again.
    func testEveryAcknowledgedSaveOfALockedJournalSurvivesSIGKILL() throws {
        let path = folder.file("journal.sqlite")
        // A new, empty journal, locked once: every round opens it with the passphrase.
        try JournalStore(path: path).close()
        let passphrase = "crash test passphrase"
        let locked = try JournalLock.lock(path: path, passphrase: passphrase, cost: .interactive)
        let kills = max(1, Self.kills / 2)
        let acknowledged = try killRepeatedly(path, kills: kills, lock: (passphrase, locked.cipher))
        XCTAssertTrue(JournalLock.isLocked(path), "the journal is still sealed")
        print("crash test, locked: \(kills) kills, \(acknowledged) acknowledged entries, all present and whole")
    }

    // MARK: - The kill loop

    /// Starts the helper on `path` `kills` times, killing each at a random moment and checking the
    /// journal after each kill. With `lock`, the helper is given the passphrase on its standard
    /// input and the journal is read through the cipher. Returns how many saves were acknowledged.
    private func killRepeatedly(_ path: String, kills: Int, lock: (passphrase: String, cipher: JournalCipher)?) throws -> Int {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: helper.path), "flourish-bench is built: \(helper.path)")
        var acknowledged: [Int: String] = [:]
        // Anywhere from before the journal is open to dozens of saves in (about 2.5 ms a save).
        // How long the helper takes to its first save is measured on this machine by a run killed
        // right after it: the debug helper opens a journal in about 60 ms on an idle machine,
        // several times that on a busy one (whose load changes while the test runs, hence every
        // tenth round), and a locked journal's helper first derives its key from the passphrase.
        // The first round opens a journal no kill has left a log to recover: the second is
        // measured too.
        var firstSave = 0.0
        for round in 0..<kills {
            let next = (acknowledged.keys.max() ?? -1) + 1
            if round % 10 == 0 || round == 1 {
                firstSave = try run(path, from: next, lock: lock, killed: .afterFirstSave, into: &acknowledged, round: round)
            } else {
                let latest = UInt32(1.2 * firstSave * 1_000_000) + 100_000
                _ = try run(path, from: next, lock: lock, killed: .after(microseconds: UInt32.random(in: 1_000...latest)),
                            into: &acknowledged, round: round)
            }
            try verify(path, acknowledged, round: round, cipher: lock?.cipher)
        }
        XCTAssertGreaterThan(acknowledged.count, kills, "saves were acknowledged between the kills")
        return acknowledged.count
    }

    private enum KillMoment {
        case after(microseconds: UInt32)
        case afterFirstSave
    }

    /// One run of the helper, saving entries `from` on, SIGKILLed at `moment`; the saves it
    /// acknowledged are added to `acknowledged`. Returns the seconds from its start to the kill.
    private func run(_ path: String, from first: Int, lock: (passphrase: String, cipher: JournalCipher)?, killed moment: KillMoment,
                     into acknowledged: inout [Int: String], round: Int) throws -> Double {
        let process = Process()
        process.executableURL = helper
        process.arguments = ["save-loop", path, String(first)] + (lock == nil ? [] : ["--locked"])
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let start = Date()
        try process.run()
        if let lock { input.fileHandleForWriting.write(Data((lock.passphrase + "\n").utf8)) }
        try input.fileHandleForWriting.close()
        var printed = Data()
        switch moment {
        case .after(let microseconds):
            usleep(microseconds)
        case .afterFirstSave:
            // Until a whole line is out, or the helper ended (then its error says why).
            while !printed.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                printed += chunk
            }
        }
        let elapsed = Date().timeIntervalSince(start)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal,
                       "round \(round): the helper was killed, not finished: status \(process.terminationStatus), "
                       + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        printed += output.fileHandleForReading.readDataToEndOfFile()
        for line in String(decoding: printed, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            // A line cut short by the kill is no acknowledgement.
            guard fields.count == 3, fields[0] == "saved", let number = Int(fields[1]), fields[2].count == 36 else { continue }
            acknowledged[number] = String(fields[2])
        }
        return elapsed
    }

    /// Checks a copy of the journal as the kill left it (so the next round opens exactly that
    /// state): integrity, and every acknowledged entry present with its words and mood.
    private func verify(_ path: String, _ acknowledged: [Int: String], round: Int, cipher: JournalCipher?) throws {
        guard FileManager.default.fileExists(atPath: path) else { return XCTAssertTrue(acknowledged.isEmpty) }
        let copy = folder.file("check-\(round).sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
        let queue = try DatabaseQueue(path: JournalFile.location(copy, cipher: cipher), configuration: JournalFile.configuration(cipher))
        defer { try? queue.close() }
        try queue.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "PRAGMA integrity_check"), ["ok"], "round \(round)")
            // Killed while the new journal was being made (between its migrations): nothing was
            // acknowledged yet, and the next start finishes making it.
            guard try db.tableExists("entry"), try db.columns(in: "entry").contains(where: { $0.name == "uuid" }) else {
                return XCTAssertTrue(acknowledged.isEmpty, "round \(round)")
            }
            let rows = try Row.fetchAll(db, sql: "SELECT uuid, title, body, mood FROM entry")
            let byUUID = Dictionary(rows.map { ($0["uuid"] as String, $0) }, uniquingKeysWith: { first, _ in first })
            for (number, uuid) in acknowledged {
                guard let row = byUUID[uuid] else { return XCTFail("round \(round): acknowledged entry \(number) is gone") }
                let want = expected(number)
                XCTAssertEqual(row["title"] as String, want.title, "round \(round)")
                XCTAssertTrue(row["body"] as String == want.body, "round \(round): entry \(number) is whole")
                XCTAssertEqual(row["mood"] as Int, want.mood, "round \(round)")
            }
            try verifyPhotos(db, acknowledged, journal: path, round: round)
        }
    }

    /// What the helper attaches to every third entry, worked out again here independently.
    private func expectedPhoto(_ number: Int) -> Data {
        Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(String(repeating: "Photo \(number) of the crash test. ", count: 1 + (number * 53) % 3000).utf8)
    }

    /// No entry names a photo that is not whole in the photo folder, and every acknowledged
    /// entry that was given a photo has it.
    private func verifyPhotos(_ db: Database, _ acknowledged: [Int: String], journal: String, round: Int) throws {
        guard try db.tableExists("entry_photo") else { return XCTAssertTrue(acknowledged.isEmpty, "round \(round)") }
        let folder = PhotoFolder(journal: journal)
        let rows = try Row.fetchAll(db, sql: """
            SELECT e.title, e.uuid, p.name, k.key FROM entry_photo ep JOIN entry e ON e.id = ep.entry_id
              JOIN photo p ON p.name = ep.photo JOIN photo_key k ON k.id = p.key_id
            """)
        var withPhoto = Set<String>()
        for row in rows {
            let title: String = row["title"]
            let name: String = row["name"]
            let number = try XCTUnwrap(Int(title.dropFirst("Crash test ".count)), title)
            let sealed = try XCTUnwrap(folder.read(name), "round \(round): the photo of \(title) is on disk")
            XCTAssertEqual(PhotoSeal.open(sealed, key: Array(row["key"] as Data), name: name), expectedPhoto(number),
                           "round \(round): the photo of \(title) is whole")
            withPhoto.insert(row["uuid"])
        }
        for (number, uuid) in acknowledged where number % 3 == 0 {
            XCTAssertTrue(withPhoto.contains(uuid), "round \(round): acknowledged entry \(number) carries its photo")
        }
    }
}
