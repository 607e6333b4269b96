import Foundation

/// One machine's whole journal as it stood, and which files it had taken in by then. A machine
/// that joins, or one away so long that the batches it missed are gone, starts from a snapshot
/// instead of replaying years of batches; and each machine removes its own batches once a
/// snapshot of its own holds them, so the place does not grow a file per sync forever.
///
/// Named `<machine>-<number>.snapshot`, the number being the last batch of its own it holds
/// (batch numbers stay one unbroken run per machine). Sealed whole, written once, like a batch.
struct SyncSnapshot: SyncFileContents, Equatable {
    /// A machine writes a snapshot once this many batches of its own are not in one yet.
    static let everyBatches = 100
    /// Behind by more batches than this, a machine reads the snapshots first: one file, not
    /// dozens (a machine joining a journal of years, or back from months away).
    static let readWhenBehind = 20
    /// The most batches one snapshot may say it holds: a machine syncing every ten minutes for
    /// ten years writes about half a million. More is refused before it is counted out.
    static let mostHeld = 2_000_000

    var machine: String
    var number: Int
    /// The batches it holds, by machine, as runs of numbers ([first, last]).
    var holds: [String: [[Int]]]
    /// The journal as changes, in the order they apply: tags gone, tags, entries, deletions,
    /// earlier versions.
    var changes: [SyncChange]
    /// Every measure and every measure deleted, applied first (see `SyncBatch.measures`).
    var measures: [SyncChange]?
    /// Every template and every template deleted, and every word of one's own (see `SyncBatch`).
    var templates: [SyncChange]?
    var words: [String]?
    /// The writer's computer name, for messages; nil from before names were sealed in.
    var computer: String?

    init(machine: String, number: Int, holds: [String: [[Int]]], changes: [SyncChange], measures: [SyncChange]? = nil,
         computer: String? = nil) {
        self.machine = machine
        self.number = number
        self.holds = holds
        self.changes = changes
        self.measures = measures
        self.computer = computer
    }

    /// What it holds is what its writer had heard of: the last of each machine's runs.
    var heard: [String: Int] {
        holds.compactMapValues { runs in runs.compactMap(\.last).max() }
    }

    /// Every run is two numbers in order, within bounds, and all of them together are not more
    /// than `mostHeld`: `batches` counts them out one by one.
    var isBounded: Bool {
        guard (1...SyncLimits.highestNumber).contains(number) else { return false }
        var count = 0
        for (machine, runs) in holds {
            guard SyncFileName.isMachine(machine) else { return false }
            for run in runs {
                guard run.count == 2, 1 <= run[0], run[0] <= run[1], run[1] <= SyncLimits.highestNumber else { return false }
                count += run[1] - run[0] + 1
                guard count <= Self.mostHeld else { return false }
            }
        }
        return true
    }

    static func fileName(machine: String, number: Int) -> String {
        SyncFileName.make(machine: machine, number: number, kind: .snapshot)
    }

    /// Every (machine, batch) it holds.
    var batches: [(machine: String, number: Int)] {
        holds.flatMap { machine, runs in
            // Only ever called on a snapshot that `isBounded`.
            runs.flatMap { run in run.count == 2 && run[0] <= run[1] ? Array(run[0]...run[1]) : [] }.map { (machine, $0) }
        }
    }

    /// `batches` as runs, per machine.
    static func runs(of batches: [(machine: String, number: Int)]) -> [String: [[Int]]] {
        var runs: [String: [[Int]]] = [:]
        for (machine, number) in batches.sorted(by: { ($0.machine, $0.number) < ($1.machine, $1.number) }) {
            if let last = runs[machine]?.last, last[1] + 1 == number {
                runs[machine]![runs[machine]!.count - 1][1] = number
            } else if runs[machine]?.last?[1] != number {
                runs[machine, default: []].append([number, number])
            }
        }
        return runs
    }
}
