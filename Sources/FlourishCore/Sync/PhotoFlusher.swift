import Foundation

/// Where sync's photo files go to the disk: batch after batch on a thread of its own, while the
/// photos after them are still being read, hashed and sealed. Each file is flushed before it
/// gets its name (or, here, its row), as everywhere; but the disk writes the megabytes of one
/// batch while the processors seal the next, so the first sync of hundreds of photos takes about
/// the longer of the two, not their sum (one flush after another left the disk idle while the
/// photos were sealed, and the processors idle while they were flushed).
///
/// A batch runs only after the ones before it succeeded; the first failure is thrown by the next
/// `submit` or by `finish`. At most `ahead` batches wait, so what is held in memory stays bounded.
final class PhotoFlusher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "flourish.sync.photo-flush")
    private let room: DispatchSemaphore
    private let lock = NSLock()
    // Guarded by `lock`.
    private var failure: SyncError?

    init(ahead: Int = 2) { room = DispatchSemaphore(value: ahead) }

    /// Runs `batch` after those submitted before it, waiting first while `ahead` are unfinished.
    func submit(_ batch: @escaping @Sendable () throws(SyncError) -> Void) throws(SyncError) {
        if let failure = lock.withLock({ failure }) { throw failure }
        room.wait()
        queue.async { [self] in
            defer { room.signal() }
            guard lock.withLock({ failure }) == nil else { return }
            if case let .failure(error) = Result(catching: { () throws(SyncError) in try batch() }) {
                lock.withLock { failure = failure ?? error }
            }
        }
    }

    /// Waits for every batch submitted; throws the first failure.
    func finish() throws(SyncError) {
        queue.sync {}
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}
