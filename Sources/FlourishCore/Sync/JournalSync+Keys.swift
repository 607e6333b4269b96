import Foundation

/// The passphrase and the key of a synced journal, changed from one of its computers. Both want
/// the current passphrase: a computer left open is not enough to lock the others out.
extension JournalSync {
    /// Wraps the journal key anew under `new`, with new salt, and puts that key file in place of
    /// the old one. Computers that keep the key in their keyring carry on; the old passphrase
    /// opens nothing from now on (a copy of the old key file, kept by someone, still would:
    /// only `shutOutOthers` changes the key itself).
    public func changePassphrase(current: String, new: String, cost: KeyFile.Cost = .moderate) throws(SyncError) {
        try checkNew(new)
        _ = try keyFile(opening: current)
        let fresh = try KeyFile(wrapping: key, journal: journal, passphrase: new, cost: cost)
        try place.replace(KeyFile.name, contents: fresh.encoded())
    }

    /// Shuts out every other computer: after a sync (so nothing of this one's or the others' is
    /// left behind), a new random key under a new passphrase replaces the old; every file sealed
    /// with the old key is removed; this computer starts again as a new one under the new key and
    /// seals the whole journal anew, as a snapshot. Another computer is told the key changed
    /// and asked for the new passphrase; what it had not sent is kept and sent then. Returns
    /// the sync under the new key, whose `journalKey` is the one to keep.
    ///
    /// A computer that read the journal before keeps what it read: this stops what comes after.
    public func shutOutOthers(current: String, new: String, cost: KeyFile.Cost = .moderate) throws(SyncError) -> JournalSync {
        try checkNew(new)
        _ = try keyFile(opening: current)
        _ = try sync()
        let before = Set(try place.list("").compactMap(SyncFileName.parse).map(\.machine))
        let newKey = JournalKey.random()
        let fresh = try KeyFile(wrapping: newKey, journal: journal, passphrase: new, cost: cost)
        // The key file first: cut off after it, this computer (its journal still on the old key)
        // is asked for the new passphrase like any other, and starts again then.
        try place.replace(KeyFile.name, contents: fresh.encoded())
        try worded { () throws(JournalError) in try store.changeSyncKey(id: newKey.id) }
        let next = JournalSync(store: store, place: place, key: newKey, journal: journal)
        // What the old key sealed is all in this journal now, which goes out whole under the new.
        try next.removeOldKeysFiles(machinesBefore: before)
        // A snapshot is due at once (see `JournalStore.changeSyncKey`).
        _ = try next.sync()
        next.snapshotEvery = snapshotEvery
        return next
    }

    /// Removes every machine's file that the old key sealed: all those of the machines that were
    /// there before the key changed, and any other that does not open with this key (written in
    /// the moment the key changed; its computer sends it again under the new key).
    private func removeOldKeysFiles(machinesBefore: Set<String>) throws(SyncError) {
        guard let mine = try worded({ () throws(JournalError) in try store.syncState() })?.machine else { throw .notSetUp }
        for file in try place.list("").compactMap(SyncFileName.parse) where file.machine != mine {
            if !machinesBefore.contains(file.machine), try opensWithKey(file) { continue }
            // One left behind is refused by every computer, and removed by the next change of key.
            try? place.remove(file.text)
        }
    }

    /// The key file at the place, once `passphrase` opened it to this journal's key.
    private func keyFile(opening passphrase: String) throws(SyncError) -> KeyFile {
        guard let data = try place.read(KeyFile.name) else { throw .notAJournal(place: place.displayName) }
        let file = try KeyFile.read(data, place: place.displayName)
        guard file.journal == journal else { throw .otherJournal(place: place.displayName) }
        // A key file that opens to another key: it was changed on another computer meanwhile.
        guard try file.unwrap(passphrase: passphrase) == key else { throw .keyChanged }
        return file
    }

    private func checkNew(_ passphrase: String) throws(SyncError) {
        guard passphrase.count >= Self.shortestPassphrase else {
            throw .other(reason: String(format: tr("a new passphrase has at least %@ characters"), "\(Self.shortestPassphrase)"))
        }
    }
}
