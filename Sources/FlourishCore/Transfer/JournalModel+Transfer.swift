import Foundation

/// Export and import, off the GTK thread: an export reads the journal on a queue of its own and
/// can be cancelled; an import writes on the model's queue, then the journal is read again
/// (its ids and tags), as when another program changed the file.
extension JournalModel {
    /// A running export's switch: `cancel()` stops it after the batch it is writing.
    public final class ExportRun: @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled = false

        public init() {}

        public func cancel() { lock.withLock { cancelled = true } }
        var isCancelled: Bool { lock.withLock { cancelled } }
    }

    /// Exports the journal in the background; `progress` hears (done, total) on the main queue.
    public func export(_ format: ExportFormat, to path: String, progress: @escaping @MainActor (Int, Int) -> Void,
                       completion: @escaping @MainActor (Result<ExportResult, ExportFailure>) -> Void) -> ExportRun {
        let run = ExportRun()
        let store = self.store
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { () throws(ExportFailure) in
                try store.export(format, to: path, calendar: .current, now: Date()) { done, total in
                    DispatchQueue.main.async { MainActor.assumeIsolated { progress(done, total) } }
                    return !run.isCancelled
                }
            }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
        return run
    }

    /// What importing `entries` would do, read in the background.
    public func importSummary(_ entries: [ImportedEntry], completion: @escaping @MainActor (Result<ImportSummary, JournalError>) -> Void) {
        onQueue({ store throws(JournalError) in try store.importSummary(entries) }, completion: completion)
    }

    /// Imports in one transaction, then reads the journal again.
    public func importEntries(_ entries: [ImportedEntry], tags: [String], measures: [ImportedMeasure] = [], templates: [ImportedTemplate] = [],
                              completion: @escaping @MainActor (Result<ImportReceipt, JournalError>) -> Void) {
        onQueue({ store throws(JournalError) in try store.importEntries(entries, tags: tags, measures: measures, templates: templates) },
                changed: { !$0.entryIDs.isEmpty || !$0.tagIDs.isEmpty || !$0.measureIDs.isEmpty }, completion: completion)
    }

    /// Takes an import back, then reads the journal again.
    public func undoImport(_ receipt: ImportReceipt, completion: @escaping @MainActor (Result<Void, JournalError>) -> Void) {
        onQueue({ store throws(JournalError) in try store.undoImport(receipt) }, changed: { true }, completion: completion)
    }

    /// Runs `work` on the model's queue; back on the main queue, reads the journal again when
    /// `changed` says its result changed the file, then calls `completion`.
    func onQueue<T: Sendable>(_ work: @escaping @Sendable (any JournalStoring) throws(JournalError) -> T,
                              changed: @escaping @MainActor (T) -> Bool = { _ in false },
                              completion: @escaping @MainActor (Result<T, JournalError>) -> Void) {
        let store = self.store
        self.work.async {
            let result = Result { () throws(JournalError) in try work(store) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    if case .success(let value) = result, changed(value) { self.reloadFromDisk() }
                    completion(result)
                }
            }
        }
    }
}
