import Foundation

/// What one sync did, in a line a person reads ("sent 3, received 12, 1 conflict kept as an
/// earlier version").
public struct SyncReport: Sendable, Equatable {
    public var sent = 0
    public var received = 0
    public var conflicts = 0
    /// Files at the place that failed their check: nothing of them was applied.
    public var refused: [String] = []

    public init() {}

    public var summary: String {
        var parts = [String(format: tr("sent %@"), "\(sent)"), String(format: tr("received %@"), "\(received)")]
        if conflicts == 1 {
            parts.append(tr("1 conflict kept as an earlier version"))
        } else if conflicts > 1 {
            parts.append(String(format: tr("%@ conflicts kept as earlier versions"), "\(conflicts)"))
        }
        return parts.joined(separator: ", ")
    }
}

/// Keeps one journal in step with the same journal on a person's other machines, through a
/// place they already use. Each machine writes only batches of its own, each once; it reads
/// the others' new batches and applies them (see `SyncApplier` for who wins). Everything at the
/// place but the wrapped key is sealed with the journal key.
public final class JournalSync: @unchecked Sendable {
    public enum Setup: Sendable, Equatable {
        /// A new synced journal was started at the place.
        case started
        /// The journal already there was joined.
        case joined
    }

    public let store: JournalStore
    public let place: SyncPlace
    private let key: JournalKey
    private let journal: String

    private init(store: JournalStore, place: SyncPlace, key: JournalKey, journal: String) {
        self.store = store
        self.place = place
        self.key = key
        self.journal = journal
    }

    /// Sets up sync for `store` at `place`: joins the journal there with its passphrase, or, where
    /// there is none, starts one whose key is wrapped by `passphrase`. A refused setup (a wrong
    /// passphrase, a place holding something else) changes nothing, here or there.
    public static func setUp(_ store: JournalStore, at place: SyncPlace, passphrase: String,
                             cost: KeyFile.Cost = .moderate) throws(SyncError) -> (JournalSync, Setup) {
        try setUp(store, at: place, passphrase: passphrase, cost: cost, tries: 3)
    }

    private static func setUp(_ store: JournalStore, at place: SyncPlace, passphrase: String, cost: KeyFile.Cost,
                              tries: Int) throws(SyncError) -> (JournalSync, Setup) {
        try place.prepare(create: true)
        let (keyFile, key, setup): (KeyFile, JournalKey, Setup)
        if let data = try place.read(KeyFile.name) {
            keyFile = try KeyFile.read(data, place: place.displayName)
            key = try keyFile.unwrap(passphrase: passphrase)
            setup = .joined
        } else {
            // Only an empty folder becomes a journal: anything else there is someone else's.
            guard try place.list("").isEmpty else { throw .notAJournal(place: place.displayName) }
            key = .random()
            keyFile = try KeyFile(wrapping: key, passphrase: passphrase, cost: cost)
            do {
                try place.create(KeyFile.name, contents: keyFile.encoded())
            } catch .fileExists where tries > 1 {
                // Another machine started one there a moment ago: join that one instead.
                return try setUp(store, at: place, passphrase: passphrase, cost: cost, tries: tries - 1)
            }
            setup = .started
        }
        do {
            try store.startSync(journal: keyFile.journal, place: place.displayName)
        } catch {
            throw .other(reason: error.errorDescription ?? "\(error)")
        }
        return (JournalSync(store: store, place: place, key: key, journal: keyFile.journal), setup)
    }

    /// Whether `place` holds a synced journal to join (rather than being where a new one starts).
    /// Creates nothing.
    public static func holdsJournal(_ place: SyncPlace) throws(SyncError) -> Bool {
        do {
            try place.prepare(create: false)
        } catch .missing {
            return false
        }
        return try place.read(KeyFile.name) != nil
    }

    /// The shortest new passphrase: it is all that stands between the place and the journal.
    public static let shortestPassphrase = 8

    /// Sync for a journal already set up, with the key unwrapped by `passphrase`.
    public static func open(_ store: JournalStore, at place: SyncPlace, passphrase: String) throws(SyncError) -> JournalSync {
        try open(store, at: place) { file throws(SyncError) in try file.unwrap(passphrase: passphrase) }
    }

    /// Sync for a journal already set up, with its key as this machine keeps it (the desktop's
    /// Secret Service). A key that is not this journal's has every file refused.
    public static func open(_ store: JournalStore, at place: SyncPlace, key: JournalKey) throws(SyncError) -> JournalSync {
        try open(store, at: place) { file throws(SyncError) in
            // A key kept for another journal would write files no machine can open.
            guard file.opens(with: key) else { throw .wrongPassphrase }
            return key
        }
    }

    private static func open(_ store: JournalStore, at place: SyncPlace,
                             key: (KeyFile) throws(SyncError) -> JournalKey) throws(SyncError) -> JournalSync {
        guard let state = try worded({ () throws(JournalError) in try store.syncState() }) else { throw .notSetUp }
        try place.prepare(create: false)
        guard let data = try place.read(KeyFile.name) else { throw .notAJournal(place: place.displayName) }
        let keyFile = try KeyFile.read(data, place: place.displayName)
        guard keyFile.journal == state.journal else { throw .otherJournal(place: place.displayName) }
        return JournalSync(store: store, place: place, key: try key(keyFile), journal: state.journal)
    }

    /// The journal key, to keep in the desktop's Secret Service (see `JournalKey.exported`).
    public var journalKey: JournalKey { key }

    /// A machine writes a snapshot once this many batches of its own are not in one yet (see
    /// `SyncSnapshot`); smaller in tests.
    public var snapshotEvery = SyncSnapshot.everyBatches
    /// Behind by more batches than this, a machine starts from the snapshots.
    public var snapshotsWhenBehind = SyncSnapshot.readWhenBehind

    /// Receives the other machines' new batches, then sends this machine's changes, then, every
    /// so often, writes a snapshot and removes its own batches that it holds. `progress` hears
    /// (files done, files in all) after each file read or written: the first sync of a big
    /// journal is many of them.
    public func sync(progress: @escaping (Int, Int) -> Void = { _, _ in }) throws(SyncError) -> SyncReport {
        guard let state = try worded({ () throws(JournalError) in try store.syncStateForThisFile() }) else { throw .notSetUp }
        var report = SyncReport()
        var counter = Counter(progress: progress)
        let files = try place.list("").compactMap(SyncFileName.parse)
        try receive(state, files: files, into: &report, counter: &counter)
        let written = try send(state, counter: &counter)
        report.sent = written.changes
        try compact(state, files: files + written.files)
        return report
    }

    /// Files done of files known so far.
    private struct Counter {
        let progress: (Int, Int) -> Void
        var done = 0
        var total = 0

        mutating func expect(_ count: Int) { total += count }

        mutating func step() {
            done += 1
            progress(done, total)
        }
    }

    // MARK: - Receiving

    private func receive(_ state: SyncState, files: [SyncFileName], into report: inout SyncReport,
                         counter: inout Counter) throws(SyncError) {
        var applied = try worded { () throws(JournalError) in try store.appliedBatches() }
        for file in files where file.machine == state.machine && file.kind == .batch && !applied.contains(file.text) {
            // Written here by a sync that stopped before it could note it.
            try worded { () throws(JournalError) in try store.recordWritten(machine: file.machine, batch: file.number) }
            applied.insert(file.text)
        }
        let others = files.filter { $0.machine != state.machine }
        if isBehind(others, applied: applied) {
            try takeSnapshots(others.filter { $0.kind == .snapshot }, applied: &applied, into: &report, counter: &counter)
        }
        var waiting: [String: [SyncFileName]] = [:]
        for file in others where file.kind == .batch && !applied.contains(file.text) {
            waiting[file.machine, default: []].append(file)
        }
        counter.expect(waiting.values.reduce(0) { $0 + $1.count })
        for machine in waiting.keys.sorted() {
            for file in waiting[machine, default: []].sorted(by: { $0.number < $1.number }) {
                do {
                    let batch = try open(file, as: SyncBatch.self)
                    let receipt = try store.apply(batch, fileName: file.text)
                    report.received += receipt.received
                    report.conflicts += receipt.conflicts
                    counter.step()
                } catch .refusedFile(let refused) {
                    // Nothing of it is applied, nor anything that machine wrote after it: its
                    // later changes may build on it. It is read again next time (a syncing
                    // tool may still have been writing it).
                    report.refused.append(refused)
                    break
                }
            }
        }
    }

    /// Whether this machine should start from the snapshots: it is many batches behind (it just
    /// joined), or a batch it never applied is gone from the place (its machine removed it once
    /// a snapshot held it).
    private func isBehind(_ others: [SyncFileName], applied: Set<String>) -> Bool {
        let waiting = others.filter { $0.kind == .batch && !applied.contains($0.text) }
        guard waiting.count <= snapshotsWhenBehind else { return true }
        let present = Set(others.filter { $0.kind == .batch }.map(\.text))
        var last: [String: Int] = [:]
        for file in others { last[file.machine] = max(last[file.machine] ?? 0, file.number) }
        return last.contains { machine, top in
            (1...max(top, 1)).contains { number in
                let name = SyncBatch.fileName(machine: machine, number: number)
                return !present.contains(name) && !applied.contains(name)
            }
        }
    }

    /// Reads the snapshots not read here yet and applies each that holds a batch not applied
    /// here, the one holding most first. A snapshot is needed once at most: after it, every
    /// batch it holds counts as applied (here, and in `applied`).
    private func takeSnapshots(_ snapshots: [SyncFileName], applied: inout Set<String>, into report: inout SyncReport,
                               counter: inout Counter) throws(SyncError) {
        let read = try worded { () throws(JournalError) in try store.snapshotsRead() }
        let unread = snapshots.filter { !read.contains($0.text) }
        counter.expect(unread.count)
        var opened: [(file: SyncFileName, snapshot: SyncSnapshot)] = []
        for file in unread {
            do {
                opened.append((file, try open(file, as: SyncSnapshot.self)))
            } catch .refusedFile(let refused) {
                report.refused.append(refused)
            }
            counter.step()
        }
        for (file, snapshot) in opened.sorted(by: { $0.snapshot.batches.count > $1.snapshot.batches.count }) {
            let names = snapshot.batches.map { SyncBatch.fileName(machine: $0.machine, number: $0.number) }
            if names.contains(where: { !applied.contains($0) }) {
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

    /// A machine's file (a batch or a snapshot) opened with the key and read; refused whole when
    /// it fails its seal, does not decode, or says it is another machine's or another number.
    private func open<Contents: SyncFileContents>(_ file: SyncFileName, as: Contents.Type) throws(SyncError) -> Contents {
        guard let sealed = try place.read(file.text) else { throw .refusedFile(name: file.text) }
        let plain = try key.open(sealed, name: file.text, journal: journal)
        guard let contents = try? JSONDecoder().decode(Contents.self, from: plain), contents.machine == file.machine,
              contents.number == file.number
        else { throw .refusedFile(name: file.text) }
        return contents
    }

    /// `contents` encoded and sealed under `name`.
    private func sealed(_ contents: some Encodable, name: String) -> Data {
        // Encoding strings, numbers and arrays of them cannot fail.
        key.seal((try? JSONEncoder().encode(contents)) ?? Data(), name: name, journal: journal)
    }

    // MARK: - Sending

    /// Writes the changes not sent yet as new batches; returns how many changes went, and the
    /// files written.
    private func send(_ state: SyncState, counter: inout Counter) throws(SyncError) -> (changes: Int, files: [SyncFileName]) {
        let (changes, upTo) = try worded { () throws(JournalError) in try store.pendingChanges() }
        guard upTo > state.sent else { return (0, []) }
        counter.expect((changes.count + SyncBatch.limit - 1) / SyncBatch.limit)
        var number = try worded { () throws(JournalError) in try store.syncState()?.nextBatch } ?? state.nextBatch
        var files: [SyncFileName] = []
        for start in stride(from: 0, to: changes.count, by: SyncBatch.limit) {
            let part = Array(changes[start..<min(start + SyncBatch.limit, changes.count)])
            number = try write(part, machine: state.machine, from: number)
            try worded { () throws(JournalError) in try store.recordWritten(machine: state.machine, batch: number) }
            files.append(SyncFileName(machine: state.machine, number: number, kind: .batch))
            counter.step()
            number += 1
        }
        try worded { () throws(JournalError) in try store.recordSent(upTo: upTo) }
        return (changes.count, files)
    }

    /// Writes one batch under the first free number from `number` on; returns the number used.
    private func write(_ changes: [SyncChange], machine: String, from number: Int) throws(SyncError) -> Int {
        var number = number
        // A few at most: more names taken than that is a place that refuses every new file.
        for _ in 0..<16 {
            let name = SyncBatch.fileName(machine: machine, number: number)
            do {
                try place.create(name, contents: sealed(SyncBatch(machine: machine, number: number, changes: changes), name: name))
                return number
            } catch .fileExists {
                // Written by a sync of this machine's that stopped before it could note it.
                number += 1
            }
        }
        throw .fileExists(name: SyncBatch.fileName(machine: machine, number: number))
    }

    // MARK: - Compacting

    /// Once `snapshotEvery` batches of this machine's are in no snapshot of its own, writes one
    /// holding everything applied here; then removes its own batches and older snapshots that
    /// its newest snapshot holds. Only its own: another machine's files are that machine's.
    private func compact(_ state: SyncState, files: [SyncFileName]) throws(SyncError) {
        let own = files.filter { $0.machine == state.machine }
        var newest = own.filter { $0.kind == .snapshot }.map(\.number).max() ?? 0
        let loose = own.filter { $0.kind == .batch && $0.number > newest }
        if loose.count >= snapshotEvery, let last = loose.map(\.number).max() {
            try writeSnapshot(machine: state.machine, number: last)
            newest = last
        }
        guard newest > 0 else { return }
        for file in own where file.number < newest || (file.kind == .batch && file.number == newest) {
            // A file left behind is removed by a later sync; it is no harm meanwhile.
            try? place.remove(file.text)
        }
    }

    private func writeSnapshot(machine: String, number: Int) throws(SyncError) {
        let (changes, holds) = try worded { () throws(JournalError) in try store.snapshotContents() }
        let snapshot = SyncSnapshot(machine: machine, number: number, holds: SyncSnapshot.runs(of: holds), changes: changes)
        let name = SyncSnapshot.fileName(machine: machine, number: number)
        do {
            try place.create(name, contents: sealed(snapshot, name: name))
        } catch .fileExists {
            // Written by a sync of this machine's that stopped before it could remove the batches.
        }
    }

    /// Runs a store call, its error in sync's words.
    private static func worded<T>(_ work: () throws(JournalError) -> T) throws(SyncError) -> T {
        do {
            return try work()
        } catch {
            throw .other(reason: error.errorDescription ?? "\(error)")
        }
    }

    private func worded<T>(_ work: () throws(JournalError) -> T) throws(SyncError) -> T {
        try Self.worded(work)
    }
}
