import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Acknowledged means durable: a process saving through the real store (`flourish-bench
/// save-loop`) is SIGKILLed at random moments, again and again on the same journal. After each
/// kill the journal passes `integrity_check`, and every entry whose save had returned is there,
/// whole. FLOURISH_CRASH_KILLS sets the count (200 by default, as in CI).
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
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: helper.path), "flourish-bench is built: \(helper.path)")
        let path = folder.file("journal.sqlite")
        var acknowledged: [Int: String] = [:]
        var next = 0
        for round in 0..<Self.kills {
            let process = Process()
            process.executableURL = helper
            process.arguments = ["save-loop", path, String(next)]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // Anywhere from before the journal is open to dozens of saves in: the debug helper
            // itself takes about 60 ms to open the journal here, then about 2.5 ms a save.
            usleep(UInt32.random(in: 1_000...100_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal,
                           "round \(round): the helper was killed, not finished: status \(process.terminationStatus), "
                           + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n")
            for line in lines {
                let fields = line.split(separator: " ")
                // A line cut short by the kill is no acknowledgement.
                guard fields.count == 3, fields[0] == "saved", let number = Int(fields[1]), fields[2].count == 36 else { continue }
                acknowledged[number] = String(fields[2])
                next = max(next, number + 1)
            }
            try verify(path, acknowledged, round: round)
        }
        XCTAssertGreaterThan(acknowledged.count, Self.kills, "saves were acknowledged between the kills")
        print("crash test: \(Self.kills) kills, \(acknowledged.count) acknowledged entries, all present and whole")
    }

    /// Checks a copy of the journal as the kill left it (so the next round opens exactly that
    /// state): integrity, and every acknowledged entry present with its words and mood.
    private func verify(_ path: String, _ acknowledged: [Int: String], round: Int) throws {
        guard FileManager.default.fileExists(atPath: path) else { return XCTAssertTrue(acknowledged.isEmpty) }
        let copy = folder.file("check-\(round).sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
        let queue = try DatabaseQueue(path: copy)
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
        }
    }
}
