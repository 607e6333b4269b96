import Foundation

/// Conflict copies: when two computers write one file name before the tool between them has
/// carried either (Syncthing, a Nextcloud or Dropbox client), the tool keeps one under the name
/// and the other as a copy beside it (see `SyncToolFiles.conflictOriginal`). Flourish's names are
/// each one machine's, so that happens only to two computers sharing one machine id (a journal
/// copied with its identity, see `JournalStore.syncStateForThisFile`) before they tell: what the
/// copy holds would otherwise be lost. A copy of a batch or a snapshot is opened with the key as
/// the file it is a copy of (the seal binds that name), and applied once its photos are here, its
/// entries weighed against the journal's as any other machine's; one that does not open is named
/// in the report.
extension JournalSync {
    /// Applies the conflict copies among `names` (the place's listing) not applied here yet.
    /// `.twin` when one is a copy of a file under `own`, this machine's id: another computer
    /// writes as this one, and this journal must take an id of its own (see `checkOwn`).
    func takeConflictCopies(_ names: [String], own: String, into report: inout SyncReport) throws(SyncError) -> OwnFiles {
        let copies = names.compactMap { name in
            SyncToolFiles.conflictOriginal(of: name).flatMap(SyncFileName.parse).map { (copy: name, of: $0) }
        }
        guard !copies.isEmpty else { return .own }
        let taken = try worded { () throws(JournalError) in try store.conflictCopiesTaken() }
        var found = OwnFiles.own
        for (copy, original) in copies.sorted(by: { $0.copy < $1.copy }) where !taken.contains(copy) {
            do {
                // The file under the name first: the tool may have put the other computer's
                // version there, and the machine that wrote the name counts it applied already.
                // Gone (held by a snapshot now) or not opening, it was read when it came.
                if let receipt = try? take(original, storedAs: original.text, recording: nil, into: &report) {
                    report.received += receipt.received
                    report.conflicts += receipt.conflicts
                }
                // Without its photos it waits, read again next time.
                guard let receipt = try take(original, storedAs: copy, recording: copy, into: &report) else { continue }
                report.received += receipt.received
                report.conflicts += receipt.conflicts
                if original.machine == own { found = .twin }
            } catch .refusedFile {
                report.refused.append(copy)
            } catch .skippedFile {
                report.skipped.append(copy)
            }
        }
        return found
    }

    /// Applies `file` as read under `stored`, recording `recording` as a conflict copy taken;
    /// nil, nothing applied, while a photo it names is not here yet.
    private func take(_ file: SyncFileName, storedAs stored: String, recording: String?,
                      into report: inout SyncReport) throws(SyncError) -> SyncReceipt? {
        switch file.kind {
        case .batch:
            let batch = try open(file, as: SyncBatch.self, storedAs: stored)
            guard try fetchPhotos(batch.changes, into: &report) else { return nil }
            return try store.apply(conflictCopy: batch, name: stored, recording: recording)
        case .snapshot:
            let snapshot = try open(file, as: SyncSnapshot.self, storedAs: stored)
            guard try fetchPhotos(snapshot.changes, into: &report) else { return nil }
            return try store.apply(conflictCopy: snapshot, name: stored, recording: recording)
        }
    }
}

extension JournalStore {
    /// The conflict copies applied here already: each once.
    func conflictCopiesTaken() throws(JournalError) -> Set<String> {
        try reading { db in
            Set(try String.fetchAll(db, sql: "SELECT substr(key, 6) FROM sync_state WHERE key LIKE 'copy %'"))
        }
    }

    /// Applies what a conflict copy of a batch (or the file it is a copy of) holds. No batch is
    /// recorded as applied on its word: the file it is a copy of, under the same machine and
    /// number, holds other changes, and is applied on its own.
    /// `recording`: the copy's name, recorded as taken (nil: nothing recorded).
    func apply(conflictCopy batch: SyncBatch, name: String, recording: String?) throws(SyncError) -> SyncReceipt {
        try take(batch.changes, extras: SyncExtras(batch), name: name, recording: recording, fromSnapshot: false)
    }

    /// The same for a conflict copy of a snapshot: the batches it says it holds are not recorded.
    func apply(conflictCopy snapshot: SyncSnapshot, name: String, recording: String?) throws(SyncError) -> SyncReceipt {
        try take(snapshot.changes, extras: SyncExtras(snapshot), name: name, recording: recording, fromSnapshot: true)
    }

    private func take(_ changes: [SyncChange], extras: SyncExtras, name: String, recording: String?,
                      fromSnapshot: Bool) throws(SyncError) -> SyncReceipt {
        let receipt = try apply(changes, extras: extras, fileName: name, fromSnapshot: fromSnapshot, holding: [])
        guard let recording else { return receipt }
        do {
            try writing { db in
                try db.execute(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, '1')", arguments: ["copy \(recording)"])
            }
        } catch {
            throw .other(reason: error.errorDescription ?? "\(error)")
        }
        return receipt
    }
}
