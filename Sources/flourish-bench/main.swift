import FlourishCore
import Foundation
import GRDB

// Prints how Flourish's store behaves with a large journal: how long a save takes with
// synchronous=FULL, how long opening and listing take, and how much memory that costs.
// Figures only; nothing here passes or fails.
//
//   swift run -c release flourish-bench [ENTRIES] [--keep PATH]   (default 100000 entries)
//
// --keep leaves the seeded journal at PATH (for measuring the app itself on it: scripts/bench).

var arguments = Array(CommandLine.arguments.dropFirst())
var keepPath: String?
if let index = arguments.firstIndex(of: "--keep"), index + 1 < arguments.count {
    keepPath = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
}
let count = arguments.first.flatMap(Int.init) ?? 100_000
let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("flourish-bench-\(getpid())")
let path = (folder as NSString).appendingPathComponent("journal.sqlite")
defer { try? FileManager.default.removeItem(atPath: folder) }

func milliseconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func memory() -> (rss: Int, peak: Int) {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    func kilobytes(_ key: String) -> Int {
        status.split(separator: "\n").first { $0.hasPrefix(key) }
            .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    }
    return (kilobytes("VmRSS:") / 1024, kilobytes("VmHWM:") / 1024)
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }

let words = ["sun", "rain", "walk", "tired", "friends", "work", "sea", "slept", "late", "coffee", "calm", "busy"]
func sentence(_ seed: Int, _ length: Int) -> String {
    (0..<length).map { words[($0 &* 7 &+ seed) % words.count] }.joined(separator: " ")
}

do {
    print("Flourish store benchmark: \(count) entries, SQLite \(try DatabaseQueue().read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? "?")")

    // Seed years of entries in one transaction (the app itself saves one at a time, below).
    let seedTime = try milliseconds {
        _ = try JournalStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            let start = Date().addingTimeInterval(-Double(count) * 3_600)
            let insert = try db.makeStatement(sql: "INSERT INTO entry (title, body, mood, created_at, uuid) VALUES (?, ?, ?, ?, ?)")
            for index in 0..<count {
                try insert.execute(arguments: [sentence(index, 3), sentence(index, 12 + index % 60), index % 6,
                                               start.addingTimeInterval(Double(index) * 3_600), UUID().uuidString.lowercased()])
            }
        }
        try queue.close()
    }
    let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1024 / 1024
    print("seed            \(format(seedTime)) ms for \(count) entries in one transaction (file \(size) MiB)")

    var store: JournalStore!
    let openTime = try milliseconds { store = try JournalStore(path: path) }
    print("open            \(format(openTime)) ms (checks, migrations, WAL)")

    var ids: [Int64] = []
    let idsTime = try milliseconds { ids = try store.entryIDs() }
    print("list ids        \(format(idsTime)) ms for \(ids.count) ids, newest first (what the journal reads before its first frame)")

    var windowTimes: [Double] = []
    for trial in 0..<200 {
        let start = (trial &* 7919) % max(1, ids.count - 60)
        let window = Array(ids[start..<min(ids.count, start + 60)])
        windowTimes.append(try milliseconds { _ = try store.entries(ids: window) })
    }
    print("fetch 60 rows   p50 \(format(percentile(windowTimes, 0.5))) ms, p95 \(format(percentile(windowTimes, 0.95))) ms (one scroll's batch)")

    var saveTimes: [Double] = []
    for index in 0..<200 {
        let entry = try EntryDraft(title: "bench \(index)", body: sentence(index, 30), mood: Mood(rawValue: index % 6)).validated().get()
        saveTimes.append(try milliseconds { _ = try store.save(entry, createdAt: Date()) })
    }
    print("save            p50 \(format(percentile(saveTimes, 0.5))) ms, p95 \(format(percentile(saveTimes, 0.95))) ms, max \(format(saveTimes.max() ?? 0)) ms (synchronous=FULL, off the GTK thread in the app)")

    var cached: [Entry] = []
    let cacheTime = try milliseconds {
        for start in stride(from: 0, to: min(ids.count, 10_000), by: 500) {
            cached += try store.entries(ids: Array(ids[start..<min(ids.count, start + 500)]))
        }
    }
    let (rss, peak) = memory()
    print("scroll 10k rows \(format(cacheTime)) ms to read \(cached.count) entries in batches")
    print("memory          RSS \(rss) MiB, peak \(peak) MiB (ids of every entry plus 10k entries in memory)")
    if let keepPath {
        store = nil
        try? FileManager.default.removeItem(atPath: keepPath)
        try FileManager.default.copyItem(atPath: path, toPath: keepPath)
    }
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
