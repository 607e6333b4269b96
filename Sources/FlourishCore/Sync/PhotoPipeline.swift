import Foundation

/// How sync works through many photos: each photo's own work (the cipher and the hashes over its
/// megabytes, and keeping it here) runs on other threads, two photos at a time, while the calling
/// thread, in order, reads what the next ones need from the place and does what must be done one
/// at a time (writing at the place, the report). The first sync of hundreds of photos keeps two
/// cores busy and the disk writing meanwhile, rather than one core that waits for each flush.
///
/// The work never touches the place: it is read from the calling thread, and written from there
/// or, a batch at a time, from the `PhotoFlusher`'s thread, never from both at once. At most two
/// rounds of photos are in memory at once: the one being finished and the one being worked on.
enum PhotoPipeline {
    /// Photos worked on at once.
    static let width = 2

    /// For each of `items`, in rounds of `width`: `load` on the calling thread (what the work
    /// needs from the place), then `work` on another thread, then `finish` on the calling
    /// thread, in the order of `items`. The next round is loaded and worked on while this one is
    /// finished. When `load` or `finish` throws, nothing more starts, and the work under way
    /// ends before the error is thrown on.
    static func run<Item: Sendable, Loaded: Sendable, Done: Sendable>(
        _ items: [Item],
        load: (Item) throws(SyncError) -> Loaded,
        work: @escaping @Sendable (Item, Loaded) -> Done,
        finish: (Item, Done) throws(SyncError) -> Void
    ) throws(SyncError) {
        let rounds = stride(from: 0, to: items.count, by: width).map { $0..<min($0 + width, items.count) }
        guard let first = rounds.first else { return }
        var current = try start(items, first, load: load, work: work)
        for (number, round) in rounds.enumerated() {
            var next: Round<Done>?
            do {
                if number + 1 < rounds.count { next = try start(items, rounds[number + 1], load: load, work: work) }
                current.group.wait()
                for (slot, index) in round.enumerated() {
                    // Every slot is filled once the group is done.
                    try finish(items[index], current.results.value(slot)!)
                }
            } catch {
                current.group.wait()
                next?.group.wait()
                throw error
            }
            if let next { current = next }
        }
    }

    /// One round under way: its work's group, and where each item's result lands.
    private struct Round<Done: Sendable> {
        let group: DispatchGroup
        let results: Results<Done>
    }

    private static func start<Item: Sendable, Loaded: Sendable, Done: Sendable>(
        _ items: [Item], _ round: Range<Int>, load: (Item) throws(SyncError) -> Loaded,
        work: @escaping @Sendable (Item, Loaded) -> Done
    ) throws(SyncError) -> Round<Done> {
        let group = DispatchGroup()
        let results = Results<Done>(count: round.count)
        for (slot, index) in round.enumerated() {
            let item = items[index]
            let loaded: Loaded
            do {
                loaded = try load(item)
            } catch {
                // What this round started ends before the error goes on.
                group.wait()
                throw error
            }
            DispatchQueue.global().async(group: group) { results.set(slot, work(item, loaded)) }
        }
        return Round(group: group, results: results)
    }

    /// The results of a round's work, each written once from its own thread.
    private final class Results<Done: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Done?]

        init(count: Int) { values = Array(repeating: nil, count: count) }

        func set(_ slot: Int, _ value: Done) { lock.withLock { values[slot] = value } }

        func value(_ slot: Int) -> Done? { lock.withLock { values[slot] } }
    }
}
