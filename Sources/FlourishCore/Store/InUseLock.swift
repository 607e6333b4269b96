import Foundation

/// Many reads and writes at once, or a close alone: every use of the journal's connections holds
/// it shared, and closing holds it exclusively, so the journal is never closed under a read in
/// flight, and nothing reaches a closed connection afterwards (GRDB's closed connection is not
/// safe to call). Glibc's default prefers readers, so a use inside a use cannot deadlock.
final class InUseLock: @unchecked Sendable {
    private var lock = pthread_rwlock_t()

    init() { pthread_rwlock_init(&lock, nil) }
    deinit { pthread_rwlock_destroy(&lock) }

    func shared<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return try work()
    }

    func exclusive<T>(_ work: () -> T) -> T {
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return work()
    }
}
