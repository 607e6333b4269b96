import Foundation

/// Photos at the place: each sealed on its own as `photos/<name>` (`SyncPhoto`), never inside a
/// batch. Before anything is sent, every photo an entry here names is at the place (uploaded
/// once: a photo listed there is never sent again; one missing, whoever removed it, is sent
/// again by any machine that has it). Before a batch is applied, every photo it names is here:
/// fetched and opened with the key (its seal names the file, so no other photo's file opens
/// under its name); until then the batch waits (a
/// folder that syncs files in any order may bring a batch before its photos).
extension JournalSync {
    /// How long a photo no entry here names stays at the place: another machine may have an
    /// edit naming it that it has not sent yet.
    public static let unusedPhotoGrace: TimeInterval = 7 * 86_400

    /// The photos' names at the place, as listed at the start of a sync.
    func listPhotos() throws(SyncError) -> Set<String> {
        Set(try place.list("photos").filter(PhotoName.isValid))
    }

    /// Learns the place's name of every photo entries here name that has none yet, each read
    /// once for it; one the place does not hold (not in `listed`) is sent then, while its bytes
    /// are at hand: the first sync of a journal of hundreds of photos reads and opens each once,
    /// not once to name it and again to send it. A photo that cannot be read here (its file
    /// missing or damaged) is left out. Photos are read, named and sealed two at a time
    /// (`PhotoPipeline`), and written at the place a batch at a time (`PhotoFlusher`).
    func namePhotos(sending listed: inout Set<String>, into report: inout SyncReport) throws(SyncError) {
        let unnamed = try worded { () throws(JournalError) in try store.photosWithoutPlaceNames() }
        let known = listed
        var named: [(place: String, photo: String)] = []
        let sending = PhotoFlusher<(name: String, contents: Data)> { [place] batch throws(SyncError) in try place.createEach(batch) }
        var keyChecked = false
        var done = 0
        do {
            try PhotoPipeline.run(unnamed, load: { _ in () }, work: { [store, key, journal] photo, _ -> NamedPhoto? in
                guard let bytes = try? store.photo(photo) else { return nil }
                let name = SyncPhoto.name(of: bytes, key: key)
                guard !known.contains(name) else { return NamedPhoto(name: name, sealed: nil) }
                return NamedPhoto(name: name, sealed: Result { () throws(SyncError) in try key.seal(bytes, name: SyncPhoto.path(name), journal: journal) })
            }, finish: { photo, read throws(SyncError) in
                defer {
                    done += 1
                    photoProgress?(done, unnamed.count)
                }
                guard let read else { return }
                if let sealed = read.sealed {
                    // Checked before the first is written: as for the others' files, nothing is
                    // written with a key another computer has replaced.
                    if !keyChecked { try checkKeyUnchanged() }
                    keyChecked = true
                    let contents = try sealed.get()
                    if listed.insert(read.name).inserted {
                        report.photosSent += 1
                        try sending.add((SyncPhoto.path(read.name), contents), bytes: contents.count)
                    }
                }
                named.append((read.name, photo.id))
                // Noted a few dozen at a time, not with a commit (a flush to the disk) each; a sync
                // cut off part-way names the rest next time, and sends any photo not at the place.
                if named.count == Self.namesPerCommit {
                    try worded { () throws(JournalError) in try store.recordPlaceNames(named) }
                    named = []
                }
            })
        } catch {
            sending.abandon()
            throw error
        }
        try sending.finish()
        try worded { () throws(JournalError) in try store.recordPlaceNames(named) }
    }

    /// A photo read and named by `namePhotos`, sealed for the place when the place lacks it.
    private struct NamedPhoto: Sendable {
        let name: String
        let sealed: Result<Data, SyncError>?
    }

    /// How many photos' names `namePhotos` notes in one transaction.
    static let namesPerCommit = 32

    /// Sends every photo entries here name that the place does not hold (one `namePhotos` did
    /// not just send: removed from the place since, whoever removed it).
    func uploadPhotos(_ listed: inout Set<String>, into report: inout SyncReport) throws(SyncError) {
        let wanted = try worded { () throws(JournalError) in try store.placeNamesOfEntriesPhotos() }.filter { !listed.contains($0.place) }
        var done = 0
        for (photo, name) in wanted {
            defer {
                done += 1
                photoProgress?(done, wanted.count)
            }
            guard let bytes = try? store.photo(photo) else { continue }
            try send(try key.seal(bytes, name: SyncPhoto.path(name), journal: journal), as: name, listed: &listed, into: &report)
        }
    }

    /// Writes the photo `name`, sealed, at the place.
    private func send(_ sealed: Data, as name: String, listed: inout Set<String>, into report: inout SyncReport) throws(SyncError) {
        do {
            try place.create(SyncPhoto.path(name), contents: sealed)
        } catch .fileExists {
            // Another machine sent the same photo a moment ago.
        }
        listed.insert(name)
        report.photosSent += 1
    }

    /// Fetches the photos `changes` name that are not here yet; whether every one is here now.
    /// One not at the place yet is waited for; one that fails its seal is refused. The seal
    /// covers the file's name (`JournalKey.context`): a file the place moved under another
    /// photo's name fails it, so the photo is not hashed again to check its name, which would
    /// cost a joining machine a third pass over every photo's megabytes.
    func fetchPhotos(_ changes: [SyncChange], into report: inout SyncReport) throws(SyncError) -> Bool {
        var wanted: [SyncPhoto] = []
        for photo in changes.flatMap({ $0.kind == .entry ? $0.photos ?? [] : [] }) where photo.isValid && !wanted.contains(where: { $0.name == photo.name }) {
            if try worded({ () throws(JournalError) in try store.localPhoto(atPlace: photo.name) }) == nil { wanted.append(photo) }
        }
        var complete = true
        var done = 0
        let keeping = PhotoFlusher<JournalStore.FetchedPhoto> { [store] batch throws(SyncError) in
            try Self.worded { () throws(JournalError) in try store.keepFetchedPhotos(batch) }
        }
        do {
            // Read from the place one after another; opened and written here two at a time;
            // flushed and recorded a batch at a time, beside the work on the next.
            try PhotoPipeline.run(wanted, load: { photo throws(SyncError) in try place.read(photo.path) },
                                  work: { [store, key, journal] photo, sealed -> Fetched in
                guard let sealed else { return .waiting }
                guard let bytes = try? key.open(sealed, name: photo.path, journal: journal),
                      let fetched = try? store.stageFetchedPhoto(bytes, place: photo.name) else { return .refused }
                return .fetched(fetched)
            }, finish: { photo, fetched throws(SyncError) in
                done += 1
                photoProgress?(done, wanted.count)
                switch fetched {
                case let .fetched(fetched):
                    report.photosReceived += 1
                    try keeping.add(fetched, bytes: fetched.photo.size)
                case .waiting:
                    report.photosWaiting += 1
                    complete = false
                case .refused:
                    report.refused.append(photo.path)
                    complete = false
                }
            })
        } catch {
            keeping.abandon()
            throw error
        }
        try keeping.finish()
        return complete
    }

    /// What became of a photo `fetchPhotos` wanted.
    private enum Fetched: Sendable {
        /// Opened, checked and written here, to be kept with its batch.
        case fetched(JournalStore.FetchedPhoto)
        /// Not at the place yet.
        case waiting
        /// Failed its seal, or could not be written here.
        case refused
    }

    /// Removes from the place the photos no entry here has named for `unusedPhotoGrace`, once
    /// this machine has everything the others wrote (none of their files missing, refused or
    /// waiting): then no entry anywhere names them but in an edit not sent yet, whose machine
    /// sends the photo again.
    func removeUnusedPhotos(_ listed: Set<String>, report: SyncReport) throws(SyncError) {
        guard report.missing.isEmpty, report.refused.isEmpty, report.photosWaiting == 0 else { return }
        let before = now().addingTimeInterval(-Self.unusedPhotoGrace)
        let unused = try worded { () throws(JournalError) in try store.unusedPlacePhotos(listed: listed, before: before, now: now()) }
        for name in unused {
            try? place.remove(SyncPhoto.path(name))
            try worded { () throws(JournalError) in try store.forgetUnusedPlacePhoto(name) }
        }
    }
}
