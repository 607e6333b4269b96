import FlourishCore
import Foundation
import GRDB

/// What locking costs: the same journal plain and locked, measured in turn, round after round,
/// in one process, so that each round's ratio comes from the same moment of the machine. Each
/// round opens each journal afresh (SQLite's page cache empty, the system's file cache warm, as
/// at any start but the first after booting) and takes the store's steps as the app takes them.
/// Rounds alternate which journal goes first.
///
/// The locked journal is a copy locked by `JournalLock.lock` at the cost people get, under a
/// passphrase kept in this process. The plain one is a copy compacted by VACUUM, as locking
/// compacts its own, so that the two differ by their encryption only.
enum LockedFigures {
    /// Known to the bench alone: never on a command line, never in a file.
    private static let passphrase = "the bench's journal passphrase"
    private static let unlockRuns = 5
    private static let savesPerRound = 100
    /// A start-up takes under a millisecond, and a round's median of three swung from 0.9 to 1.4
    /// times the other journal's from round to round: fifteen make each round's figure steady.
    private static let startupsPerRound = 15

    static func measure(journal: String, folder: String, rounds: Int) throws -> [String: Any] {
        let plain = folder + "/plain/journal.sqlite", locked = folder + "/locked/journal.sqlite"
        for copy in [plain, locked] {
            let parent = (copy as NSString).deletingLastPathComponent
            try? FileManager.default.removeItem(atPath: parent)
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: journal, toPath: copy)
        }
        let compacting = try DatabaseQueue(path: plain)
        try compacting.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        try compacting.close()
        let (_, lock) = try timed { try JournalLock.lock(path: locked, passphrase: passphrase) }

        // Unlocking as a person would: Argon2id on the passphrase, then the store opened.
        var argon2: [Double] = [], unlock: [Double] = []
        var cipher: JournalCipher?
        for _ in 0..<unlockRuns {
            let start = DispatchTime.now().uptimeNanoseconds
            let (key, derived) = try timed { try JournalLock.unlock(path: locked, secret: passphrase) }
            let (store, _) = try timed { try JournalStore(path: locked, cipher: key) }
            unlock.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            argon2.append(derived)
            store.close()
            cipher = key
        }

        // Not counted: the first opening in a process pays for what the next ones find ready.
        for (path, key) in [(plain, nil), (locked, cipher)] { _ = try round(path, cipher: key, saves: 0) }
        var figures: [String: [String: [Double]]] = ["plain": [:], "locked": [:]]
        for index in 0..<rounds {
            FileHandle.standardError.write(Data("bench-lock: round \(index + 1)/\(rounds)\n".utf8))
            let order: [(String, String, JournalCipher?)] = [("plain", plain, nil), ("locked", locked, cipher)]
            for (name, path, key) in index % 2 == 0 ? order : order.reversed() {
                for (figure, value) in try round(path, cipher: key, saves: savesPerRound) {
                    figures[name, default: [:]][figure, default: []].append(value)
                }
            }
        }
        return ["rounds": rounds, "saves_per_round": savesPerRound, "startups_per_round": startupsPerRound, "plain": figures["plain"] ?? [:],
                "locked": figures["locked"] ?? [:], "lock_ms": lock, "argon2_ms": argon2, "unlock_ms": unlock,
                "bytes": ["generated": bytes(of: journal), "plain": bytes(of: plain), "locked": bytes(of: locked)]]
    }

    /// One journal's figures for one round: start-up `startupsPerRound` times (the median of each), then
    /// the other steps on the last store opened.
    private static func round(_ path: String, cipher: JournalCipher?, saves: Int) throws -> [String: Double] {
        var opens: [Double] = [], startups: [Double] = []
        var opened: (store: JournalStore, ids: [Int64])?
        for _ in 0..<startupsPerRound {
            opened?.store.close()
            let start = DispatchTime.now().uptimeNanoseconds
            let store = try JournalStore(path: path, cipher: cipher)
            try StoreSteps.opening(store)
            opens.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            let ids = try StoreSteps.firstPage(store)
            startups.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            opened = (store, ids)
        }
        guard let (store, ids) = opened else { return [:] }
        defer { store.close() }
        let scroll = try StoreSteps.scroll(store, ids: ids)
        let search = try StoreSteps.search(store, ids: ids)
        let insights = try StoreSteps.insights(store, rounds: 3)
        let check = milliseconds { _ = store.check() }
        let saved = try StoreSteps.save(store, count: saves)
        return ["open_ms": percentile(opens, 0.5), "startup_ms": percentile(startups, 0.5),
                "scroll_batch_p50_ms": percentile(scroll, 0.5),
                "search_p50_ms": percentile(search, 0.5), "search_p95_ms": percentile(search, 0.95),
                "insights_all_ms": percentile(insights.all, 0.5), "insights_year_ms": percentile(insights.year, 0.5),
                "check_ms": check, "save_p50_ms": percentile(saved, 0.5), "save_p95_ms": percentile(saved, 0.95)]
    }

    private static func bytes(of file: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
    }

    private static func timed<T>(_ work: () throws -> T) rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try work()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
}
