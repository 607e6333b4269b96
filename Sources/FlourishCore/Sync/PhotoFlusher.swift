import Foundation

/// How many photos, and how many of their bytes, sync writes to the disk together.
enum PhotoBatch {
    static let photos = 8
    static let bytes = 32 << 20
}

/// Where sync's photo files go to the disk: gathered into batches (`PhotoBatch`), each batch written and flushed by `write` on a thread of its own while
/// the photos after it are still being read, hashed and sealed. Each file is flushed before it
/// gets its name (or, here, its row), as everywhere; but the disk writes the megabytes of one
/// batch while the processors seal the next, so the first sync of hundreds of photos takes about
/// the longer of the two, not their sum (one flush after another left the disk idle while the
/// photos were sealed, and the processors idle while they were flushed).
///
/// `add` and `finish` are called from one thread, the sync's own. A batch is written only after
/// the ones before it succeeded; the first failure is thrown by the next `add` or by `finish`.
/// At most `ahead` batches wait, so what is held in memory stays bounded.
final class PhotoFlusher<Item: Sendable>: @unchecked Sendable {
    private let write: @Sendable ([Item]) throws(SyncError) -> Void
    private let queue = DispatchQueue(label: "flourish.sync.photo-flush")
    private let room: DispatchSemaphore
    private let lock = NSLock()
    // Guarded by `lock`.
    private var failure: SyncError?
    // Only touched from the calling thread.
    private var gathered: [Item] = []
    private var gatheredBytes = 0

    init(ahead: Int = 2, write: @escaping @Sendable ([Item]) throws(SyncError) -> Void) {
        room = DispatchSemaphore(value: ahead)
        self.write = write
    }

    /// Gathers `item` (of `bytes` bytes) into the batch being made; a full batch goes to be written.
    func add(_ item: Item, bytes: Int) throws(SyncError) {
        gathered.append(item)
        gatheredBytes += bytes
        if gathered.count >= PhotoBatch.photos || gatheredBytes >= PhotoBatch.bytes { try submit() }
    }

    /// Writes what is gathered, waits for every batch, and throws the first failure.
    func finish() throws(SyncError) {
        try submit()
        try wait()
    }

    /// Waits for the batches under way, and writes nothing more: the sync failed elsewhere.
    func abandon() {
        gathered = []
        try? wait()
    }

    private func submit() throws(SyncError) {
        if let failure = lock.withLock({ failure }) { throw failure }
        let batch = gathered
        gathered = []
        gatheredBytes = 0
        guard !batch.isEmpty else { return }
        room.wait()
        queue.async { [self] in
            defer { room.signal() }
            guard lock.withLock({ failure }) == nil else { return }
            if case let .failure(error) = Result(catching: { () throws(SyncError) in try write(batch) }) {
                lock.withLock { failure = failure ?? error }
            }
        }
    }

    private func wait() throws(SyncError) {
        queue.sync {}
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}
