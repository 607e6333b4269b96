import Foundation

/// What changed in the journal, as the list needs to hear it.
public enum JournalChange: Equatable, Sendable {
    /// The ids were (re)loaded: the whole list is new.
    case reloaded
    /// A new entry now stands at `index` (0 is the top of the list).
    case inserted(index: Int)
    /// The entry at `index` was edited and stays where it was.
    case updated(id: Int64, index: Int)
    /// An edited entry's date changed: it left `from` and now stands at `to`.
    case moved(id: Int64, from: Int, to: Int)
    /// The entry that stood at `index` was deleted.
    case removed(index: Int)
    /// A deleted entry was put back and stands at `index` again.
    case restored(index: Int)
    /// These entries' contents arrived from disk; rows showing them can fill in.
    case entriesLoaded(ids: Set<Int64>)
    /// The journal's tags changed (added, renamed, merged or deleted): rows show them again.
    case tagsChanged
    /// The journal's health check has a verdict (`JournalModel.health`).
    case checked
}

/// The seeds' ModelDelegate: told of every change, or of the error that stopped one.
@MainActor
public protocol JournalModelDelegate: AnyObject {
    func journalModel(_ model: JournalModel, didChange change: JournalChange)
    func journalModel(_ model: JournalModel, didFailWith error: JournalError)
}

/// The journal as the screens see it: entry ids newest first, and entries fetched lazily in
/// small batches as rows come into view, so the first frame never waits for every entry.
///
/// Every store call runs on a background queue; results come back on the main queue (which
/// GtkKit wires into the GTK loop), so the window never freezes on disk work.
@MainActor
public final class JournalModel {
    public weak var delegate: JournalModelDelegate?

    /// Entry ids, newest first.
    public internal(set) var ids: [Int64] = []
    public private(set) var isLoaded = false
    /// Whether a read of the ids is on its way.
    public private(set) var isLoading = false

    let store: any JournalStoring
    let work = DispatchQueue(label: "flourish.journal", qos: .userInitiated)
    /// Every tag, by name, once `loadTags()` has read them (see JournalModel+Tags).
    public internal(set) var tags: [Tag] = []
    var tagObservers: [@MainActor () -> Void] = []
    /// Tags merged away in this session, each with the tag it went into: forms, filters and undo
    /// holding an old id carry the new one instead of dropping it.
    var mergedTags: [Int64: Int64] = [:]
    /// The journal's measures, in the person's order, once `loadMeasures()` has read them (see
    /// JournalModel+Measures).
    public internal(set) var measures: [Measure] = []
    var measureObservers: [@MainActor () -> Void] = []
    /// The journal's templates, in the person's order, once `loadTemplates()` has read them
    /// (see JournalModel+Templates).
    public internal(set) var templates: [EntryTemplate] = []
    public internal(set) var templatesRead = false
    var templateObservers: [@MainActor () -> Void] = []
    /// Whether the tags and measures came with the opening (`begin(tags:measures:)`): the
    /// window's forms are then built with them, and need not read them again.
    public private(set) var hasListsFromOpening = false

    /// The tags and measures, read with the journal as it opened (off the main thread), before
    /// anything observes them: the forms are built once, with them, before the window's first
    /// frame, rather than built empty and laid out again when a read after it brings them.
    public func begin(tags: [Tag], measures: [Measure]) {
        self.tags = tags
        self.measures = measures
        hasListsFromOpening = true
    }
    /// Searches run here, apart from the rows' reads and the saves.
    let searching = DispatchQueue(label: "flourish.search", qos: .userInitiated)
    /// Photos are added, and originals read, here: a large one takes a while to decode, and
    /// saves must not wait behind it.
    let photoWork = DispatchQueue(label: "flourish.photos", qos: .userInitiated)
    /// Thumbnails are read (and made, the first time) here, beside the rows' reads.
    let thumbnailWork = DispatchQueue(label: "flourish.thumbnails", qos: .userInitiated)
    /// Counts searches started, so that only the latest one's answer is delivered.
    var searchGeneration = 0
    var cache: [Int64: Entry] = [:]
    /// When each cached entry was last asked for (a counter): past `cacheLimit` entries, the
    /// least recently used go, so memory follows what was looked at lately, not the journal's size.
    private var lastUse: [Int64: Int] = [:]
    private var useCounter = 0
    /// Some fifty windowfuls of rows: scrolling back a long way re-reads them (60 at a time, in
    /// the background, ahead of the scroll), and memory stays near the empty journal's. At 3,000
    /// the entries kept were megabytes more after a long scroll for no frame the quicker.
    public nonisolated static let cacheLimit = 1_000
    /// Rows that exist but cannot be read as entries (edited by hand outside Flourish), with
    /// why: not asked for again, so a row says so instead of loading for ever.
    private var unreadable: [Int64: String] = [:]
    private var requested: Set<Int64> = []
    private var pendingFetch: [Int64] = []
    private var fetchScheduled = false
    let clock: @Sendable () -> Date

    /// How many neighbours to fetch with an entry that scrolls into view, so a scroll is one read.
    static let fetchWindow = 60
    /// How many of the newest entries are read with the ids: more than a tall window shows.
    public nonisolated static let openingEntries = 40

    public init(store: any JournalStoring, clock: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.clock = clock
    }

    public var count: Int { ids.count }

    // MARK: - Other writers

    /// How often the journal is asked whether another process wrote to it.
    public nonisolated static let watchSeconds = 2.0
    /// The journal's data version as the ids were last read, or at the watch's last look.
    private var lastDataVersion: Int?
    private var isWatching = false

    /// Looks every `watchSeconds` whether another process (a second Flourish on the same file
    /// over a network folder, a sync tool) committed to the journal, and if so reads the list
    /// again (`.reloaded`), forgetting the entries it had in memory. One tiny query each time.
    public func watchForOtherWriters() {
        guard !isWatching else { return }
        isWatching = true
        scheduleWatch()
    }

    private func scheduleWatch() {
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.watchSeconds) { [weak self] in
            MainActor.assumeIsolated { self?.lookForOtherWriters() }
        }
    }

    private func lookForOtherWriters() {
        let store = self.store
        work.async {
            let version = store.dataVersion()
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    defer { self.scheduleWatch() }
                    guard let version else { return }
                    let changed = self.lastDataVersion.map { $0 != version } ?? false
                    self.lastDataVersion = version
                    if changed { self.reloadFromDisk() }
                }
            }
        }
    }

    /// Everything read again: the ids, and each entry as rows ask for it.
    public func reloadFromDisk() {
        cache.removeAll()
        lastUse.removeAll()
        unreadable.removeAll()
        // Ids no one has asked for yet are read fresh when they are.
        if isLoaded || isLoading { load() }
        // Another program (a sync, an import) may have added, renamed or removed tags and measures too.
        loadTags()
        loadMeasures()
        if templatesRead { loadTemplates() }
    }

    // MARK: - Health

    /// The verdict of the journal's health check, once it has run.
    public private(set) var health: JournalHealth?
    private var isChecking = false

    /// Checks the journal's health in the background, once, and tells the delegate `.checked`.
    /// The check reads the whole file, so it has its own queue and connection: rows keep reading
    /// meanwhile, and a save simply waits for the verdict.
    public func checkHealth() {
        guard health == nil, !isChecking else { return }
        isChecking = true
        let store = self.store
        DispatchQueue.global(qos: .utility).async {
            let verdict = store.check()
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.isChecking = false
                    self.health = verdict
                    self.delegate?.journalModel(self, didChange: .checked)
                }
            }
        }
    }

    // MARK: - Loading

    /// Loads the ids in the background, then tells the delegate `.reloaded`.
    ///
    /// The newest `openingEntries` come with them: they are the rows the Journal page opens on,
    /// so its first frame shows them whole instead of placeholders that a second frame fills in.
    /// A few dozen rows read, nothing laid out: the rest of the journal stays on disk.
    public func load() {
        isLoading = true
        let store = self.store
        work.async {
            // Asked before the ids are read: a commit of another writer's after this is one the
            // ids may not hold, and the watch's first look sees it (not only the next one's).
            let version = store.dataVersion()
            let result = Result { () throws(JournalError) in
                let ids = try store.entryIDs()
                // A failed read of the opening rows is no failed load: they are asked for again
                // as they bind, like any other row. An empty journal asks the store for nothing.
                return (ids, ids.isEmpty ? EntryBatch() : try? store.read(ids: Array(ids.prefix(Self.openingEntries))))
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.isLoading = false
                    switch result {
                    case .success(let (ids, batch)):
                        self.ids = ids
                        self.isLoaded = true
                        if let version { self.lastDataVersion = version }
                        if let batch { self.remember(batch) }
                        self.delegate?.journalModel(self, didChange: .reloaded)
                    case .failure(let error):
                        self.delegate?.journalModel(self, didFailWith: error)
                    }
                }
            }
        }
    }

    /// Loads the ids the first time they are needed (the Journal page first shown): the start-up
    /// of a journal of 100,000 entries then reads no more of it than an empty one's.
    public func loadIfNeeded() {
        guard !isLoaded, !isLoading else { return }
        load()
    }

    /// The entry if it is in memory; otherwise nil, and it (with its neighbours) is fetched in the
    /// background and announced with `.entriesLoaded`.
    public func entry(id: Int64) -> Entry? {
        if let entry = cache[id] {
            useCounter += 1
            lastUse[id] = useCounter
            return entry
        }
        if unreadable[id] == nil { request(around: id) }
        return nil
    }

    /// Whether the entry is in memory (for tests of what the model keeps).
    public func isCached(id: Int64) -> Bool { cache[id] != nil }

    /// Whether the entry with this id was read and found not to be a valid entry.
    public func isUnreadable(id: Int64) -> Bool { unreadable[id] != nil }

    /// Why the row with this id cannot be read as an entry, in the person's words; nil if it can
    /// (or has not been read yet).
    public func unreadableReason(id: Int64) -> String? { unreadable[id] }

    public func entry(at index: Int) -> Entry? {
        ids.indices.contains(index) ? entry(id: ids[index]) : nil
    }

    /// Reads ahead of a scroll: when the row at `index` binds, the entries `readAhead` rows further
    /// either way are read if they are not in memory yet, so rows scrolling into view arrive whole
    /// instead of as placeholders a later frame fills in.
    public func readAhead(of index: Int) {
        for target in [index + Self.readAhead, index - Self.readAhead] where ids.indices.contains(target) {
            let id = ids[target]
            if cache[id] == nil && unreadable[id] == nil { request(around: id, at: target) }
        }
    }

    /// How far ahead of the rows binding the entries are read: more than a built list holds.
    public nonisolated static let readAhead = 30

    private func request(around id: Int64, at knownIndex: Int? = nil) {
        guard !requested.contains(id) else { return }
        let index = knownIndex ?? ids.firstIndex(of: id) ?? 0
        let window = ids.isEmpty ? [id] : ids[max(0, index - Self.fetchWindow / 3)..<min(ids.count, index + Self.fetchWindow)]
        let missing = Set([id] + window).filter { cache[$0] == nil && !requested.contains($0) && unreadable[$0] == nil }
        requested.formUnion(missing)
        pendingFetch.append(contentsOf: missing)
        scheduleFetch()
    }

    /// Reads exactly these entries (those not in memory nor on their way) in the next batch: for
    /// a list in another order than the journal's (a search's results), whose rows' neighbours in
    /// the journal are not the rows about to show.
    public func prefetch<S: Sequence>(_ ids: S) where S.Element == Int64 {
        var seen = Set<Int64>()
        let missing = ids.filter { cache[$0] == nil && !requested.contains($0) && unreadable[$0] == nil && seen.insert($0).inserted }
        guard !missing.isEmpty else { return }
        requested.formUnion(missing)
        pendingFetch.append(contentsOf: missing)
        scheduleFetch()
    }

    private func scheduleFetch() {
        guard !fetchScheduled else { return }
        fetchScheduled = true
        // Rows bind in bursts (a frame binds dozens); one read serves the whole burst.
        DispatchQueue.main.async { MainActor.assumeIsolated { self.flushFetch() } }
    }

    private func flushFetch() {
        fetchScheduled = false
        let batch = pendingFetch
        pendingFetch = []
        guard !batch.isEmpty else { return }
        let store = self.store
        work.async {
            let result = Result { () throws(JournalError) in try store.read(ids: batch) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.requested.subtract(batch)
                    switch result {
                    case .success(let read):
                        self.remember(read)
                        // An id the read did not find was deleted meanwhile: its row goes with the
                        // next change of the list, and is not asked for again until then.
                        let gone = Set(batch).subtracting(read.entries.map(\.id)).subtracting(read.unreadable.map(\.id))
                        for id in gone { self.unreadable[id] = tr("This entry is no longer in the journal.") }
                        self.delegate?.journalModel(self, didChange: .entriesLoaded(ids: Set(batch)))
                    case .failure(let error):
                        self.delegate?.journalModel(self, didFailWith: error)
                    }
                }
            }
        }
    }

    /// Keeps what a read found: the entries in memory, and why the rows it could not read failed.
    func remember(_ batch: EntryBatch) {
        remember(batch.entries)
        for row in batch.unreadable { unreadable[row.id] = row.reason }
    }

    /// Keeps `entries` in memory, letting the oldest read go past `cacheLimit`.
    func remember(_ entries: [Entry]) {
        for entry in entries {
            cache[entry.id] = entry
            unreadable[entry.id] = nil // readable after all (put back by undo, say)
            useCounter += 1
            lastUse[entry.id] = useCounter
        }
        guard cache.count > Self.cacheLimit else { return }
        // Down to three quarters, so this sort runs once per few hundred new entries.
        for (id, _) in lastUse.sorted(by: { $0.value < $1.value }).prefix(cache.count - Self.cacheLimit * 3 / 4) {
            cache[id] = nil
            lastUse[id] = nil
        }
    }

    /// Lets go of a deleted entry.
    func forget(_ id: Int64) {
        cache[id] = nil
        lastUse[id] = nil
    }

    /// Blocks until every save and read already started has reached the disk. For quitting: no
    /// entry the person saved is lost because the window closed first.
    public nonisolated func finishPendingWork() {
        work.sync {}
    }
}
