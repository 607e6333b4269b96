import Foundation

/// Receiving: the other machines' new files, applied in the order their writers sealed into
/// them, and what is missing told. Nothing at the place is believed before it opens with the key:
/// not a file under this machine's own name, not a number, not a gap.
extension JournalSync {
    /// What the files opened in one sync said: the files each machine wrote (see
    /// `SyncFileContents.heard`) and the computers' names.
    struct Heard {
        var files: [String: Int] = [:]
        var computers: [String: String] = [:]

        mutating func add(_ contents: some SyncFileContents) {
            for (machine, number) in contents.heard { files[machine] = max(files[machine] ?? 0, number) }
            if let computer = contents.computer, !computer.isEmpty { computers[contents.machine] = String(computer.prefix(64)) }
        }
    }

    /// Returns the state to go on with: a new machine id's when another computer writes as
    /// this one (see `checkOwn`).
    func receive(_ state: SyncState, files: [SyncFileName], into report: inout SyncReport,
                 counter: inout Counter) throws(SyncError) -> SyncState {
        var applied = try worded { () throws(JournalError) in try store.appliedBatches() }
        var state = state
        if try checkOwn(state, files: files, applied: &applied, into: &report) == .twin {
            state = try worded { () throws(JournalError) in try store.becomeNewMachine() } ?? state
            applied = try worded { () throws(JournalError) in try store.appliedBatches() }
        }
        var heard = Heard()
        let old = try worded { () throws(JournalError) in try store.oldMachines() }
        let others = try dropOldKeysFiles(files.filter { $0.machine != state.machine }, old: old)
        if isBehind(others, applied: applied) {
            try takeSnapshots(others.filter { $0.kind == .snapshot }, applied: &applied, heard: &heard, into: &report, counter: &counter)
        }
        var waiting: [String: [SyncFileName]] = [:]
        for file in others where file.kind == .batch && !applied.contains(file.text) {
            waiting[file.machine, default: []].append(file)
        }
        counter.expect(waiting.values.reduce(0) { $0 + $1.count })
        let opened = try measuresFirst(waiting)
        for machine in waiting.keys.sorted() {
            for file in waiting[machine, default: []].sorted(by: { $0.number < $1.number }) {
                defer { counter.step() }
                let batch: SyncBatch
                do {
                    if let read = opened[file.text] { batch = read } else { batch = try open(file, as: SyncBatch.self) }
                } catch .refusedFile(let refused) {
                    // Nothing of it is applied. A later file that follows it waits below; one
                    // that does not (a name someone else took first) goes on. It is read
                    // again next time (a syncing tool may still have been writing it).
                    report.refused.append(refused)
                    continue
                } catch .skippedFile(let skipped) {
                    report.skipped.append(skipped)
                    continue
                }
                heard.add(batch)
                // Its changes may build on the file before it: without that one, it waits.
                guard batch.follows == 0 || applied.contains(SyncBatch.fileName(machine: machine, number: batch.follows)) else { break }
                // So do the photos it names: until each is here, it waits, and so do the later ones.
                guard try fetchPhotos(batch.changes, into: &report) else { break }
                do {
                    let receipt = try store.apply(batch, fileName: file.text)
                    report.received += receipt.received
                    report.conflicts += receipt.conflicts
                    applied.insert(file.text)
                } catch .refusedFile(let refused) {
                    report.refused.append(refused)
                }
            }
        }
        try tellMissing(state, heard: heard, applied: applied, into: &report)
        return state
    }

    /// Opens the waiting batches and applies every measure's definition and deletion they
    /// carry before any of their entries: batches are applied machine by machine, and a
    /// machine's entries may give values for a measure another machine made, whose batch would
    /// otherwise come after them (and the values be dropped, the measure not being here yet).
    /// A definition applied early is applied again, to no effect, with its batch. Returns the
    /// batches opened, by name; one that does not open is left for the loop to report.
    private func measuresFirst(_ waiting: [String: [SyncFileName]]) throws(SyncError) -> [String: SyncBatch] {
        var opened: [String: SyncBatch] = [:]
        for file in waiting.values.joined() {
            guard let batch = try? open(file, as: SyncBatch.self) else { continue }
            opened[file.text] = batch
            // Each change is weighed by its stamp against the measure here, so the order of the
            // batches does not matter. One that is not Flourish's is refused with its batch, below.
            guard let measures = batch.measures, !measures.isEmpty else { continue }
            do {
                var early = SyncExtras()
                early.measures = measures
                _ = try store.apply([], extras: early, fileName: file.text, fromSnapshot: false, holding: [])
            } catch .refusedFile {
                opened[file.text] = nil
            }
        }
        return opened
    }

    /// Files of the machine ids an old key of the journal wrote under: removed when they do not
    /// open with this key (sealed with the old one, they are of no use to anyone), and not
    /// reported. One that opens is kept: it is not the old key's.
    private func dropOldKeysFiles(_ files: [SyncFileName], old: Set<String>) throws(SyncError) -> [SyncFileName] {
        guard !old.isEmpty else { return files }
        var kept: [SyncFileName] = []
        for file in files {
            if old.contains(file.machine), try !opensWithKey(file) {
                try? place.remove(file.text)
                continue
            }
            kept.append(file)
        }
        return kept
    }

    enum OwnFiles { case own, twin }

    /// Files under this machine's name that it did not record writing: opened with the key
    /// first; one that does not open is someone else's, reported, and never counted or removed
    /// as its own. One that opens is its own only when it is the very file a sync of its own
    /// began to write and was cut off before noting (`recordWriting`, its sealed bytes' digest).
    /// Any other was written by another computer as this machine: a twin (a disk cloned with
    /// its machine id, or this journal file copied over in place with its inode, as a backup put
    /// back with `cp` is). Then this journal must take a new machine id (`.twin`), and the old
    /// one's files are read as another machine's: nothing either wrote is lost, and the two
    /// never write one name again, whatever the place does with a name written twice.
    private func checkOwn(_ state: SyncState, files: [SyncFileName], applied: inout Set<String>,
                          into report: inout SyncReport) throws(SyncError) -> OwnFiles {
        let read = try worded { () throws(JournalError) in try store.snapshotsRead() }
        let notes = try worded { () throws(JournalError) in try store.notesWhatItWrites() }
        for file in files where file.machine == state.machine {
            do {
                switch file.kind {
                case .batch where !applied.contains(file.text):
                    let (batch, sealed) = try openWithBytes(file, as: SyncBatch.self)
                    // Just upgraded, nothing tells its own cut-off file from a twin's: taken as
                    // its own, as before; a twin is then told at the next file.
                    if notes, try !isOwnCutOff(file, sealed) { return .twin }
                    guard try fetchPhotos(batch.changes, into: &report) else { continue }
                    _ = try store.apply(batch, fileName: file.text)
                    try worded { () throws(JournalError) in try store.recordWritten(machine: file.machine, batch: file.number) }
                    applied.insert(file.text)
                case .snapshot where !read.contains(file.text):
                    let (_, sealed) = try openWithBytes(file, as: SyncSnapshot.self)
                    // A snapshot's number is that of the last batch it holds, noted as written
                    // before the snapshot is: past what the journal knows it wrote, not its own.
                    if file.number >= state.nextBatch { return .twin }
                    // Its own cut off before noting it (compaction then removes batches on its
                    // word), or a twin's, which holds other batches under the same numbers.
                    if notes, try !isOwnCutOff(file, sealed) { return .twin }
                    try worded { () throws(JournalError) in try store.recordOwn(snapshot: file.number, name: file.text) }
                default:
                    continue
                }
            } catch .refusedFile(let refused) {
                report.refused.append(refused)
            } catch .skippedFile(let skipped) {
                report.skipped.append(skipped)
            }
        }
        return .own
    }

    /// Whether `sealed`, the bytes read of `file`, are those this machine sealed for it as it
    /// began to write it.
    private func isOwnCutOff(_ file: SyncFileName, _ sealed: Data) throws(SyncError) -> Bool {
        try worded { () throws(JournalError) in try store.wasWriting(name: file.text, digest: Sodium.digest(sealed)) }
    }

    /// Whether this machine should start from the snapshots: it is many batches behind (it just
    /// joined), or a batch it never applied is gone from the place (its machine removed it once
    /// a snapshot held it).
    private func isBehind(_ others: [SyncFileName], applied: Set<String>) -> Bool {
        let waiting = others.filter { $0.kind == .batch && !applied.contains($0.text) }
        guard waiting.count <= snapshotsWhenBehind else { return true }
        // Per machine, the numbers known (there, or applied here) against the highest seen:
        // counted, not walked, so a name with a huge number costs nothing.
        var known: [String: Set<Int>] = [:]
        var top: [String: Int] = [:]
        for file in others {
            top[file.machine] = max(top[file.machine] ?? 0, file.number)
            if file.kind == .batch { known[file.machine, default: []].insert(file.number) }
        }
        for name in applied {
            if let file = SyncFileName.parse(name), top[file.machine] != nil { known[file.machine, default: []].insert(file.number) }
        }
        return top.contains { machine, top in (known[machine] ?? []).count { $0 <= top } < top }
    }

    /// Reads the snapshots not read here yet and applies each that holds a batch not applied
    /// here, the one holding most first. A snapshot is needed once at most: after it, every
    /// batch it holds counts as applied (here, and in `applied`).
    private func takeSnapshots(_ snapshots: [SyncFileName], applied: inout Set<String>, heard: inout Heard,
                               into report: inout SyncReport, counter: inout Counter) throws(SyncError) {
        let read = try worded { () throws(JournalError) in try store.snapshotsRead() }
        let unread = snapshots.filter { !read.contains($0.text) }
        counter.expect(unread.count)
        var opened: [(file: SyncFileName, snapshot: SyncSnapshot)] = []
        for file in unread {
            do {
                let snapshot = try open(file, as: SyncSnapshot.self)
                heard.add(snapshot)
                opened.append((file, snapshot))
            } catch .refusedFile(let refused) {
                report.refused.append(refused)
            } catch .skippedFile(let skipped) {
                report.skipped.append(skipped)
            }
            counter.step()
        }
        for (file, snapshot) in opened.sorted(by: { $0.snapshot.batches.count > $1.snapshot.batches.count }) {
            let names = snapshot.batches.map { SyncBatch.fileName(machine: $0.machine, number: $0.number) }
            if names.contains(where: { !applied.contains($0) }) {
                // Its photos first; without them it waits, read again next time.
                guard try fetchPhotos(snapshot.changes, into: &report) else { continue }
                do {
                    let receipt = try store.apply(snapshot, fileName: file.text)
                    report.received += receipt.received
                    report.conflicts += receipt.conflicts
                    applied.formUnion(names)
                } catch .refusedFile(let refused) {
                    report.refused.append(refused)
                    continue
                }
            }
            try worded { () throws(JournalError) in try store.recordRead(snapshot: file.text) }
        }
    }

    /// Keeps what the opened files said must exist, with what earlier syncs heard, and names
    /// each other computer a file of which is said to exist but was not applied here. A place that withholds a
    /// file is told this way, and the file is applied whenever it comes back.
    private func tellMissing(_ state: SyncState, heard: Heard, applied: Set<String>,
                             into report: inout SyncReport) throws(SyncError) {
        let others = heard.files.filter { $0.key != state.machine }
        try worded { () throws(JournalError) in try store.record(expected: others, computers: heard.computers) }
        let expected = try worded { () throws(JournalError) in try store.expected() }
        let computers = try worded { () throws(JournalError) in try store.computers() }
        // A machine a file of which was refused or skipped is told of by that file's name.
        let reported = Set((report.refused + report.skipped).compactMap { SyncFileName.parse($0)?.machine })
        for (machine, number) in expected.sorted(by: { $0.key < $1.key }) where machine != state.machine {
            guard !applied.contains(SyncBatch.fileName(machine: machine, number: number)), !reported.contains(machine) else { continue }
            report.missing.append(computers[machine].map { "“\($0)”" } ?? String(format: tr("another computer (%@)"), String(machine.prefix(8))))
        }
    }
}
