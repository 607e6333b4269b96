import Foundation

/// What one sync did, in a line a person reads ("sent 3, received 12, 1 conflict kept as an
/// earlier version").
public struct SyncReport: Sendable, Equatable {
    public var sent = 0
    public var received = 0
    public var conflicts = 0
    /// Files at the place that failed their check: nothing of them was applied.
    public var refused: [String] = []
    /// Files at the place that sync never reads: links, devices, pipes, or larger than
    /// `SyncLimits.largestFile`.
    public var skipped: [String] = []
    /// The computers some of whose changes are missing at the place: a later file of theirs, or
    /// another computer's, says they wrote a file that is not there.
    public var missing: [String] = []
    /// Photos sent to the place, and fetched from it.
    public var photosSent = 0
    public var photosReceived = 0
    /// Photos a batch names that are not at the place yet: the batch waits for them.
    public var photosWaiting = 0

    public init() {}

    public var summary: String {
        var parts = [String(format: tr("sent %@"), "\(sent)"), String(format: tr("received %@"), "\(received)")]
        if conflicts == 1 {
            parts.append(tr("1 conflict kept as an earlier version"))
        } else if conflicts > 1 {
            parts.append(String(format: tr("%@ conflicts kept as earlier versions"), "\(conflicts)"))
        }
        if photosSent > 0 { parts.append(String(format: tr("%@ photos sent"), "\(photosSent)")) }
        if photosReceived > 0 { parts.append(String(format: tr("%@ photos received"), "\(photosReceived)")) }
        if photosWaiting > 0 { parts.append(String(format: tr("%@ photos not at the place yet"), "\(photosWaiting)")) }
        return parts.joined(separator: ", ")
    }

    /// What went wrong with files at the place, in words; nil when nothing did.
    public var problem: String? {
        var errors: [SyncError] = []
        if !missing.isEmpty { errors.append(.missingChanges(computers: missing.joined(separator: ", "))) }
        if !refused.isEmpty { errors.append(.refusedFile(name: refused.joined(separator: ", "))) }
        if !skipped.isEmpty { errors.append(.skippedFile(name: skipped.joined(separator: ", "))) }
        return errors.isEmpty ? nil : errors.compactMap(\.errorDescription).joined(separator: " ")
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
    let key: JournalKey
    let journal: String
    /// This computer's name, sealed into what it writes so that others can say whose changes
    /// are missing.
    let computer = ProcessInfo.processInfo.hostName

    init(store: JournalStore, place: SyncPlace, key: JournalKey, journal: String) {
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
            // Only an empty folder becomes a journal: anything else there is someone else's. A
            // syncing tool's own files (Syncthing's, a Nextcloud client's) leave it empty.
            guard try place.list("").allSatisfy(SyncToolFiles.isToolFile) else { throw .notAJournal(place: place.displayName) }
            key = .random()
            keyFile = try KeyFile(wrapping: key, passphrase: passphrase, cost: cost)
            do throws(SyncError) {
                let written = keyFile.encoded()
                try place.create(KeyFile.name, contents: written)
                // Read back: a server that ignores `If-None-Match: *` (nginx, rclone) lets another
                // machine starting a journal there in the same moment write over it.
                guard try place.read(KeyFile.name) == written else { throw .fileExists(name: KeyFile.name) }
            } catch .fileExists where tries > 1 {
                // Another machine started one there a moment ago: join that one instead.
                return try setUp(store, at: place, passphrase: passphrase, cost: cost, tries: tries - 1)
            }
            setup = .started
        }
        do {
            try store.startSync(journal: keyFile.journal, place: place.displayName)
            try store.recordSyncKey(id: key.id)
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

    /// Sync for a journal already set up, with the key unwrapped by `passphrase`. When that is a
    /// new key (the journal's key was changed on another computer), this machine starts again
    /// under it: see `JournalStore.changeSyncKey`.
    public static func open(_ store: JournalStore, at place: SyncPlace, passphrase: String) throws(SyncError) -> JournalSync {
        try open(store, at: place) { file, _ throws(SyncError) in try file.unwrap(passphrase: passphrase) }
    }

    /// Sync for a journal already set up, with its key as this machine keeps it (the desktop's
    /// Secret Service). A key that is not this journal's has every file refused: `.keyChanged`
    /// when it is the key this journal last synced with (the journal's key was changed
    /// elsewhere, and the new passphrase is needed), `.wrongPassphrase` otherwise.
    public static func open(_ store: JournalStore, at place: SyncPlace, key: JournalKey) throws(SyncError) -> JournalSync {
        try open(store, at: place) { file, last throws(SyncError) in
            // A key kept for another journal would write files no machine can open.
            guard file.opens(with: key) else {
                // A journal from before key ids were kept: the kept key was its own, so it is
                // noted as the one it last synced with, and the new passphrase starts it again.
                if last == nil { try worded { () throws(JournalError) in try store.recordSyncKey(id: key.id) } }
                throw last == key.id || last == nil ? .keyChanged : .wrongPassphrase
            }
            return key
        }
    }

    private static func open(_ store: JournalStore, at place: SyncPlace,
                             key: (KeyFile, String?) throws(SyncError) -> JournalKey) throws(SyncError) -> JournalSync {
        guard let state = try worded({ () throws(JournalError) in try store.syncState() }) else { throw .notSetUp }
        try place.prepare(create: false)
        guard let data = try place.read(KeyFile.name) else { throw .notAJournal(place: place.displayName) }
        let keyFile = try KeyFile.read(data, place: place.displayName)
        guard keyFile.journal == state.journal else { throw .otherJournal(place: place.displayName) }
        let last = try worded { () throws(JournalError) in try store.syncKeyID() }
        let opened = try key(keyFile, last)
        let changed: Bool
        switch last {
        case opened.id: changed = false
        // From before key ids were kept: its own newest file tells whether the key changed since.
        case nil: changed = try !ownNewestOpens(store, at: place, key: opened, state: state)
        default: changed = true
        }
        try worded { () throws(JournalError) in
            if changed { try store.changeSyncKey(id: opened.id) } else { try store.recordSyncKey(id: opened.id) }
        }
        return JournalSync(store: store, place: place, key: opened, journal: state.journal)
    }

    /// Whether this machine's newest own file at the place opens with `key` (or it has written
    /// none): gone or sealed otherwise, the journal's key was changed since it last synced.
    private static func ownNewestOpens(_ store: JournalStore, at place: SyncPlace, key: JournalKey,
                                       state: SyncState) throws(SyncError) -> Bool {
        let (snapshot, batches) = try worded { () throws(JournalError) in
            (try store.ownSnapshot(), try store.ownBatches(machine: state.machine))
        }
        guard let newest = max(batches.last ?? 0, snapshot) as Int?, newest > 0 else { return true }
        // The batch, or the snapshot of the same number that took its place.
        for name in [SyncBatch.fileName(machine: state.machine, number: newest), SyncSnapshot.fileName(machine: state.machine, number: newest)] {
            if let data = try place.read(name) { return (try? key.open(data, name: name, journal: state.journal)) != nil }
        }
        return false
    }

    /// The journal key, to keep in the desktop's Secret Service (see `JournalKey.withExported`).
    public var journalKey: JournalKey { key }

    /// A machine writes a snapshot once this many batches of its own are not in one yet (see
    /// `SyncSnapshot`); smaller in tests.
    public var snapshotEvery = SyncSnapshot.everyBatches
    /// Behind by more batches than this, a machine starts from the snapshots.
    public var snapshotsWhenBehind = SyncSnapshot.readWhenBehind
    /// Hears (photos done, photos in all) as photos are fetched or sent: a machine joining a
    /// journal with hundreds of them says "photo 12 of 340".
    public var photoProgress: ((Int, Int) -> Void)?
    /// The time, for how long a photo has gone unused (later in tests).
    public var now: @Sendable () -> Date = Date.init

    /// Receives the other machines' new batches, then sends this machine's changes, then, every
    /// so often, writes a snapshot and removes its own batches that it holds. `progress` hears
    /// (files done, files in all) after each file read or written: the first sync of a big
    /// journal is many of them.
    public func sync(progress: @escaping (Int, Int) -> Void = { _, _ in }) throws(SyncError) -> SyncReport {
        guard var state = try worded({ () throws(JournalError) in try store.syncStateForThisFile() }) else { throw .notSetUp }
        // The journal moved to another key since this was opened (a shut-out cut off half-way):
        // nothing is written with this one.
        guard try worded({ () throws(JournalError) in try store.syncKeyID() }) == key.id else { throw .keyChanged }
        var report = SyncReport()
        var counter = Counter(progress: progress)
        let names = try place.list("")
        let listed = Set(names)
        let files = names.compactMap(SyncFileName.parse)
        var photos = try listPhotos()
        // Before anything is compared or sent: entries here name their photos by the place's names.
        try namePhotos(sending: &photos, into: &report)
        state = try receive(state, files: files, into: &report, counter: &counter)
        if try takeConflictCopies(names, own: state.machine, into: &report) == .twin {
            state = try worded { () throws(JournalError) in try store.becomeNewMachine() } ?? state
        }
        if !report.refused.isEmpty { try checkKeyUnchanged() }
        // The photos before the batches that name them.
        try uploadPhotos(&photos, into: &report)
        let written = try send(state, listed: listed, counter: &counter)
        try removeUnusedPhotos(photos, report: report)
        report.sent = written.changes
        try compact(state, files: files + written.files, listed: listed, into: &report)
        // A file both checked as this machine's and in the way of its snapshot is said once.
        report.refused = report.refused.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        return report
    }

    /// A refused file may be one sealed with a new key (another computer shut the others out):
    /// then nothing more is written with the old one, and the person is asked for the new
    /// passphrase (`.keyChanged`).
    func checkKeyUnchanged() throws(SyncError) {
        guard let data = try place.read(KeyFile.name), let file = try? KeyFile.read(data, place: place.displayName),
              file.journal == journal, !file.opens(with: key) else { return }
        throw .keyChanged
    }

    /// Files done of files known so far.
    struct Counter {
        let progress: (Int, Int) -> Void
        var done = 0
        var total = 0

        mutating func expect(_ count: Int) { total += count }

        mutating func step() {
            done += 1
            progress(done, total)
        }
    }

    /// A machine's file (a batch or a snapshot) opened with the key and read; refused whole when
    /// it fails its seal, does not decode, says it is another machine's or another number, or
    /// says something out of bounds.
    /// `stored`: the name it is read under, when that is not its own (a syncing tool's conflict
    /// copy of it); a refusal names that.
    func open<Contents: SyncFileContents>(_ file: SyncFileName, as: Contents.Type, storedAs stored: String? = nil) throws(SyncError) -> Contents {
        try openWithBytes(file, as: Contents.self, storedAs: stored).contents
    }

    /// As `open`, with the bytes read from the place: for a look at what they are (whether this
    /// machine wrote them) without reading the file a second time.
    func openWithBytes<Contents: SyncFileContents>(_ file: SyncFileName, as: Contents.Type, storedAs stored: String? = nil)
        throws(SyncError) -> (contents: Contents, sealed: Data) {
        let stored = stored ?? file.text
        guard let sealed = try place.read(stored) else { throw .refusedFile(name: stored) }
        let plain: Data
        do {
            plain = try key.open(sealed, name: file.text, journal: journal)
        } catch .refusedFile {
            throw .refusedFile(name: stored)
        }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: plain), contents.machine == file.machine,
              contents.number == file.number, contents.isBounded
        else { throw .refusedFile(name: stored) }
        return (contents, sealed)
    }

    /// Whether a machine's file opens with this key as what its name says it is; a place that
    /// cannot be reached is still an error.
    func opensWithKey(_ file: SyncFileName) throws(SyncError) -> Bool {
        do {
            switch file.kind {
            case .batch: _ = try open(file, as: SyncBatch.self)
            case .snapshot: _ = try open(file, as: SyncSnapshot.self)
            }
            return true
        } catch .refusedFile, .skippedFile {
            return false
        }
    }

    /// `contents` encoded and sealed under `name`.
    func sealed(_ contents: some Encodable, name: String) throws(SyncError) -> Data {
        // Encoding strings, numbers and arrays of them cannot fail.
        try key.seal((try? JSONEncoder().encode(contents)) ?? Data(), name: name, journal: journal)
    }

    /// Runs a store call, its error in sync's words.
    static func worded<T>(_ work: () throws(JournalError) -> T) throws(SyncError) -> T {
        do {
            return try work()
        } catch {
            throw .other(reason: error.errorDescription ?? "\(error)")
        }
    }

    func worded<T>(_ work: () throws(JournalError) -> T) throws(SyncError) -> T {
        try Self.worded(work)
    }
}
