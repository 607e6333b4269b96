import FlourishApp
import FlourishCore
import Foundation

/// The journal a command opened, closed before the process ends whatever the outcome: SQLite then
/// merges its log into it and removes the -wal and -shm, so nothing of the journal is left beside
/// it (a locked journal's log keeps each frame's header and checksums in the clear).
final class OpenedJournal: @unchecked Sendable {
    static let shared = OpenedJournal()
    private let lock = NSLock()
    private var store: JournalStore?

    func hold(_ store: JournalStore) { lock.withLock { self.store = store } }

    func close() { lock.withLock { store }?.close() }
}

/// Ends the process with `status`, the journal a command opened closed first, and the window's
/// background work let go of ended (`FlourishApplication.finishBackgroundWork`): nothing may run
/// beside exit's own teardown. Every command and the window end here, never by `exit` alone.
func end(_ status: Int32) -> Never {
    OpenedJournal.shared.close()
    FlourishApplication.finishBackgroundWork()
    exit(status)
}
