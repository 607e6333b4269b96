import Foundation

/// Sending and compacting: this machine's changes as new batches, each sealed with the file it
/// follows and what it has heard of the others; every so often a snapshot, and the removal of
/// its own files that snapshot holds. What is its own comes from the journal, never from the
/// listing: nothing at the place can move its numbers or make it remove a file it did not write.
extension JournalSync {
    /// Writes the changes not sent yet as new batches; returns how many changes went, and the
    /// files written. `listed`: the names the place listed as this sync began, never written over.
    func send(_ state: SyncState, listed: Set<String>, counter: inout Counter) throws(SyncError) -> (changes: Int, files: [SyncFileName]) {
        let (pending, upTo) = try worded { () throws(JournalError) in try store.pendingChanges() }
        guard upTo > state.sent else { return (0, []) }
        // Measures, templates and words go in the first batch, beside its entries' (see `SyncExtras`).
        let (changes, extras) = SyncExtras.split(pending)
        var parts = stride(from: 0, to: changes.count, by: SyncBatch.limit).map { Array(changes[$0..<min($0 + SyncBatch.limit, changes.count)]) }
        if parts.isEmpty && !extras.isEmpty { parts = [[]] }
        counter.expect(parts.count)
        var number = try worded { () throws(JournalError) in try store.syncState()?.nextBatch } ?? state.nextBatch
        var previous = try worded { () throws(JournalError) in try store.ownBatches(machine: state.machine).last } ?? 0
        let seen = try worded { () throws(JournalError) in try store.heard(besides: state.machine) }
        var files: [SyncFileName] = []
        for (index, part) in parts.enumerated() {
            number = try write(part, extras: index == 0 ? extras : SyncExtras(), machine: state.machine, from: number,
                               previous: previous, seen: seen, listed: listed)
            try worded { () throws(JournalError) in try store.recordWritten(machine: state.machine, batch: number) }
            files.append(SyncFileName(machine: state.machine, number: number, kind: .batch))
            counter.step()
            previous = number
            number += 1
        }
        try worded { () throws(JournalError) in try store.recordSent(upTo: upTo) }
        return (pending.count, files)
    }

    /// Writes one batch under the first free number from `number` on; returns the number used.
    private func write(_ changes: [SyncChange], extras: SyncExtras, machine: String, from number: Int, previous: Int,
                       seen: [String: Int], listed: Set<String>) throws(SyncError) -> Int {
        var number = number
        // A few at most: more names taken than that is a place that refuses every new file.
        for _ in 0..<16 {
            guard number <= SyncLimits.highestNumber else { break }
            let name = SyncBatch.fileName(machine: machine, number: number)
            var batch = SyncBatch(machine: machine, number: number, changes: changes, previous: previous, seen: seen, computer: computer)
            extras.put(into: &batch)
            do {
                try createOnce(name, contents: try sealed(batch, name: name), listed: listed)
                return number
            } catch .fileExists {
                // Taken by a file this machine did not record: someone else's, or one of its own
                // that a cut-off sync wrote after the listing. Either way the next name is free
                // of doubt, and `previous` tells readers this one is not in the run.
                number += 1
            }
        }
        throw .fileExists(name: SyncBatch.fileName(machine: machine, number: min(number, SyncLimits.highestNumber)))
    }

    /// Once `snapshotEvery` batches of this machine's are in no snapshot of its own, writes one
    /// holding everything applied here; then removes its own batches and older snapshots that
    /// its newest snapshot holds. Only files it recorded writing: another machine's files are
    /// that machine's, and a file under its name that it did not write is not its own.
    func compact(_ state: SyncState, files: [SyncFileName], listed: Set<String>, into report: inout SyncReport) throws(SyncError) {
        let batches = try worded { () throws(JournalError) in try store.ownBatches(machine: state.machine) }
        var newest = try worded { () throws(JournalError) in try store.ownSnapshot() }
        let loose = batches.filter { $0 > newest }
        let due = try worded { () throws(JournalError) in try store.snapshotDue() }
        if loose.count >= (due ? 1 : snapshotEvery), let last = loose.last,
           try writeSnapshot(machine: state.machine, number: last, listed: listed, into: &report) {
            newest = last
            if due { try worded { () throws(JournalError) in try store.snapshotWritten() } }
        }
        guard newest > 0 else { return }
        let written = Set(batches)
        let snapshots = try worded { () throws(JournalError) in try store.snapshotsRead() }
        for file in files where file.machine == state.machine {
            let removable = switch file.kind {
            case .batch: written.contains(file.number) && file.number <= newest
            case .snapshot: snapshots.contains(file.text) && file.number < newest
            }
            // A file left behind is removed by a later sync; it is no harm meanwhile.
            if removable { try? place.remove(file.text) }
        }
    }

    /// Writes this machine's snapshot at `number`; whether it is now at the place.
    private func writeSnapshot(machine: String, number: Int, listed: Set<String>, into report: inout SyncReport) throws(SyncError) -> Bool {
        let (changes, holds) = try worded { () throws(JournalError) in try store.snapshotContents() }
        let (entries, extras) = SyncExtras.split(changes)
        var snapshot = SyncSnapshot(machine: machine, number: number, holds: SyncSnapshot.runs(of: holds), changes: entries, computer: computer)
        extras.put(into: &snapshot)
        let name = SyncSnapshot.fileName(machine: machine, number: number)
        let file = SyncFileName(machine: machine, number: number, kind: .snapshot)
        do {
            try createOnce(name, contents: try sealed(snapshot, name: name), listed: listed)
        } catch .fileExists {
            // Written by a sync of this machine's that stopped before it could remove the
            // batches, if it opens as this machine's; someone else's otherwise, and then no
            // batch is removed on its word.
            do {
                _ = try open(file, as: SyncSnapshot.self)
            } catch .refusedFile(let refused) {
                report.refused.append(refused)
                return false
            } catch .skippedFile(let skipped) {
                report.skipped.append(skipped)
                return false
            }
        }
        try worded { () throws(JournalError) in try store.recordOwn(snapshot: number, name: name) }
        return true
    }

    /// Creates `name`, or says it is taken (`.fileExists`) when the place listed it as this sync
    /// began: nothing depends on the place refusing to write over a file. Some WebDAV servers
    /// (nginx, rclone) ignore `If-None-Match: *` and replace the file, and a folder synced by
    /// another tool has no such check at all. Names are one machine's each (its id, its numbers),
    /// so the only file under a name this machine is about to write is one of its own that an
    /// earlier sync wrote without recording it, or someone else's: the listing catches both.
    /// Before the write, its bytes are noted as this machine's (`recordWriting`, see `checkOwn`).
    private func createOnce(_ name: String, contents: Data, listed: Set<String>) throws(SyncError) {
        guard !listed.contains(name) else { throw .fileExists(name: name) }
        try worded { () throws(JournalError) in try store.recordWriting(name: name, digest: Sodium.digest(contents)) }
        try place.create(name, contents: contents)
    }
}
