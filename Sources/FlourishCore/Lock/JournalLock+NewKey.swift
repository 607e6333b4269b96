import CSodium
import Foundation
import GRDB

/// New Key… (`flourish --lock-new-key`): for a passphrase that may have leaked. Change
/// Passphrase only wraps the same key anew, and whoever copied the key file (or a backup and its
/// key file) before still opens everything with the old passphrase. A new key seals the journal,
/// its backups and recovered copies, and its photos anew, under a new passphrase and a new
/// recovery key; the old passphrase, recovery key and key then open nothing kept from then on.
///
/// Crash-safe by its order. The new key file goes in first, holding the keys it replaces sealed
/// under the new key (`LockFile.pending`): from that moment only the new passphrase (or recovery
/// key) opens the journal, and with it every file still sealed under the old key. Then the
/// journal, each copy and each photo file is sealed anew, each whole or not at all. Last, the key
/// file lets the old keys go. Cut short anywhere in between, the next opening of the journal with
/// the new key (`finishNewKey`, from `JournalStore`'s init) does what is left.
extension JournalLock {
    /// What New Key… did.
    public struct Renewed: Sendable {
        /// Shown once: the old recovery key no longer opens the journal.
        public let recoveryKey: String
        public let cipher: JournalCipher
        public let finished: Finished?
        /// Why the files were not all sealed anew yet (another program has the journal open, say):
        /// they are at the journal's next opening. The new key is in place either way.
        public let unfinished: JournalError?
    }

    /// What finishing a new key did.
    public struct Finished: Sendable {
        public let backupsSealed: [String]
        public let backupsRemoved: [String]
        public let photosSealed: Int
        /// Whole copies that could not be sealed anew yet (a full disk, say): kept as they were,
        /// and the old keys with them, for the next opening to try again.
        public let backupsLeft: [String]
        /// Whether it is done: every file sealed anew, the old keys let go.
        public var isDone: Bool { backupsLeft.isEmpty }

        /// Why it is not done yet, in words.
        public var notDone: JournalError? {
            isDone ? nil : .other(reason: String(format: tr("%@ could not be sealed under the new key yet: Flourish tries again the next time it opens the journal."),
                                                 backupsLeft.joined(separator: ", ")))
        }
    }

    /// For the tests of a New Key… cut short: called as each step is done ("key file", "journal",
    /// "backups", and "photo" after each photo file); throwing stops it there, as a crash would,
    /// with nothing undone.
    nonisolated(unsafe) static var afterNewKeyStep: ((String) throws(JournalError) -> Void)?

    /// Whether New Key… on the journal at `path` was cut short (its key file still holds the keys
    /// it replaces).
    public static func isNewKeyPending(_ path: String) -> Bool {
        let file = JournalFile.resolve(path)
        return LockFile.mayBePending(keyFile(of: file)) && (try? LockFile.read(keyFile(of: file), journal: path))?.pending != nil
    }

    /// Seals the locked journal at `path` (open with `cipher`), its copies and its photos under a
    /// new key wrapped by `passphrase` and a new recovery key. Refuses, changing nothing, a journal
    /// another program has open, a damaged one, and one without room on its disk for a second
    /// copy of itself; a journal whose New Key… was cut short is finished first.
    public static func newKey(path: String, cipher old: JournalCipher, passphrase: Passphrase,
                              cost: KeyFile.Cost = .moderate) throws(JournalError) -> Renewed {
        let file = JournalFile.resolve(path)
        guard isLocked(path) else { throw .other(reason: String(format: tr("The journal at %@ is not locked."), path)) }
        let lockFile = try LockFile.read(keyFile(of: file), journal: path)
        guard lockFile.keyID == old.keyID else { throw .keyFileDamaged(path: keyFile(of: file)) }
        if lockFile.pending != nil { try finishNewKey(file, shownAs: path, cipher: old) }
        // A plain copy would be removed below as unreadable under the old key: sealed first.
        _ = try sealPlainCopies(path: path, cipher: old)
        // Once the key file is written only the new key opens the journal, and a journal that
        // cannot be sealed anew (damaged, no room) would then open for nobody: both are found first.
        let store = try JournalStore(path: path, cipher: old)
        let health = store.check()
        store.close()
        if case .damaged = health { throw .damagedJournal(path: path) }
        guard JournalFile.freeBytes(beside: file) > JournalFile.size(of: file) + (16 << 20) else { throw .diskFull }
        var photoKeys = try photoKeys(of: file, shownAs: path, cipher: old)
        defer { for index in photoKeys.indices { sodium_memzero(&photoKeys[index], photoKeys[index].count) } }
        guard let new = JournalCipher.random() else { throw .other(reason: tr("The journal's encryption could not start.")) }
        let recoveryKey = RecoveryKey.random()
        let renewed = try new.withKey { newKey throws(JournalError) in
            let made = try LockFile(key: newKey, keyID: new.keyID, passphrase: passphrase, recoveryKey: recoveryKey, cost: cost)
            return old.withKey { oldKey in made.withPending([oldKey] + photoKeys, under: newKey) }
        }
        // Held from the look for other programs through the key file's swap and every file sealed
        // anew: nothing opens the journal in between with the old key.
        let held = JournalFolderLock.take(file, exclusive: true)
        defer { held.release() }
        if JournalFolderLock.othersHaveOpen(file) { throw .busy }
        // From here on, only the new passphrase opens the journal.
        try renewed.write(to: keyFile(of: file))
        try? writeBackupKeyFile(renewed, of: file)
        do {
            try afterNewKeyStep?("key file")
            let finished = try finishNewKey(file, shownAs: path, cipher: new, holdingFolderLock: true)
            return Renewed(recoveryKey: recoveryKey, cipher: new, finished: finished, unfinished: finished?.notDone)
        } catch {
            return Renewed(recoveryKey: recoveryKey, cipher: new, finished: nil, unfinished: error)
        }
    }

    /// Does what a New Key… cut short left (see the top): nothing, and nil, when the key file
    /// holds no keys being replaced, or `cipher` is not its key. A whole copy that could not be
    /// sealed anew for now (a full disk, say) is kept as it was, and so are the old keys, to be
    /// tried again at the next opening (`Finished.backupsLeft`). Throws when the journal itself could not be sealed
    /// anew (then it stays as it was, and opens only once this is done). Holds the journal
    /// folder's lock exclusively throughout (`holdingFolderLock`: the caller does).
    @discardableResult
    static func finishNewKey(_ file: String, shownAs path: String, cipher new: JournalCipher,
                             holdingFolderLock: Bool = false) throws(JournalError) -> Finished? {
        guard LockFile.mayBePending(keyFile(of: file)) else { return nil }
        let held = holdingFolderLock ? nil : JournalFolderLock.take(file, exclusive: true)
        defer { held?.release() }
        // Read under the lock: another program may have finished it meanwhile.
        let lockFile = try LockFile.read(keyFile(of: file), journal: path)
        guard lockFile.pending != nil, lockFile.keyID == new.keyID else { return nil }
        guard case (let old, var photoKeys)? = replaced(in: lockFile, under: new) else { throw .keyFileDamaged(path: keyFile(of: file)) }
        defer { for index in photoKeys.indices { sodium_memzero(&photoKeys[index], photoKeys[index].count) } }
        let replaceKeys = { (copy: String) throws(JournalError) in try PhotoRekey.replaceKeys(in: copy, cipher: new, old: photoKeys) }
        if new.format(of: file) == nil {
            guard old.format(of: file) != nil else { throw .damagedJournal(path: path) }
            if JournalFolderLock.othersHaveOpen(file) { throw .busy }
            try convert(file, shownAs: path, from: old, to: new, holdingFolderLock: true) { () throws(JournalError) in
                try replaceKeys(file + ".locking")
            }
            try afterNewKeyStep?("journal")
        }
        let settled = lockFile.settled()
        let copies = copies(of: file)
        // A copy that cannot be sealed anew is removed only when it is damaged (as locking removes
        // one it cannot read); a whole one is kept, with the old keys, for the next opening.
        let backups = convertBackups(of: file, from: old, to: new, keyFile: settled, removingUnreadable: false, rewrite: replaceKeys)
        var removed: [String] = [], left: [String] = []
        for (copy, ownKeyFile) in copies where !backups.converted.contains(copy) && old.format(of: copy) != nil {
            if JournalRescue.check(path: copy, cipher: old).healthy {
                left.append(copy)
            } else {
                try? FileManager.default.removeItem(atPath: copy)
                if ownKeyFile { unlink(keyFile(of: copy)) }
                removed.append(copy)
            }
        }
        try afterNewKeyStep?("backups")
        // The journal's photo folder, and each recovered journal's own (its photos are copies).
        let folders = [PhotoFolder(journal: file)] + copies.filter(\.ownKeyFile).map { PhotoFolder(journal: $0.path) }
        let photos = try new.withKey { key throws(JournalError) in
            var count = 0
            for folder in folders {
                count += try PhotoRekey.reseal(folder, old: photoKeys, journalKey: key) { () throws(JournalError) in
                    try afterNewKeyStep?("photo")
                }
            }
            return count
        }
        if left.isEmpty { try writeKeyFiles(settled, of: file) }
        return Finished(backupsSealed: backups.converted, backupsRemoved: removed, photosSealed: photos, backupsLeft: left)
    }

    /// `--lock-new-key` on a journal whose New Key… was cut short: its files are sealed under the
    /// new key (`cipher`, from the new passphrase) as far as they are not yet, and the recovery key
    /// is made anew and returned, since the one the cut-short New Key… made may never have been
    /// shown. The passphrase stays.
    public static func finishNewKey(path: String, cipher: JournalCipher) throws(JournalError) -> (recoveryKey: String, finished: Finished?) {
        let finished = try finishNewKey(JournalFile.resolve(path), shownAs: path, cipher: cipher)
        if let notDone = finished?.notDone { throw notDone }
        return (try renewRecoveryKey(path: path, cipher: cipher), finished)
    }

    /// A new recovery key for the locked journal at `path` (open with `cipher`), in its key file
    /// and every copy's: after an opening finished a New Key… cut short (`JournalStore
    /// .finishedNewKey`), whose own recovery key may never have been shown. The one before it no
    /// longer opens anything; the passphrase stays.
    public static func renewRecoveryKey(path: String, cipher: JournalCipher) throws(JournalError) -> String {
        let file = JournalFile.resolve(path)
        let lockFile = try LockFile.read(keyFile(of: file), journal: path)
        guard lockFile.keyID == cipher.keyID else { throw .keyFileDamaged(path: keyFile(of: file)) }
        let recoveryKey = RecoveryKey.random()
        let renewed = try cipher.withKey { key throws(JournalError) in try lockFile.withRecoveryKey(key, recoveryKey) }
        try writeKeyFiles(renewed, of: file)
        return recoveryKey
    }

    /// The keys `lockFile` holds as pending, opened with its own key `cipher`: the journal key
    /// being replaced, as a cipher, and the photo keys being replaced (the caller wipes them). Nil
    /// when they do not open.
    private static func replaced(in lockFile: LockFile, under cipher: JournalCipher) -> (JournalCipher, [[UInt8]])? {
        guard var keys = cipher.withKey({ lockFile.pendingKeys(under: $0) }), !keys.isEmpty else { return nil }
        // Moved out of `keys`, so that each buffer is wiped where it is, not a copy of it.
        var oldKey = keys.removeFirst()
        guard let old = JournalCipher(key: &oldKey) else {
            for index in keys.indices { sodium_memzero(&keys[index], keys[index].count) }
            return nil
        }
        return (old, keys)
    }

    /// The key that reads the journal `file` as it stands, for the rescue tools, which never
    /// write: `cipher`, unless a New Key… cut short left the journal sealed under the key it was
    /// replacing (then that one); nil when `cipher` is. `newKeyUnfinished`: whether the key file
    /// beside it holds keys New Key… is replacing, under `cipher`.
    static func readingKey(of file: String, shownAs path: String,
                           cipher: JournalCipher?) -> (key: JournalCipher?, newKeyUnfinished: Bool) {
        guard let cipher, LockFile.mayBePending(keyFile(of: file)), let lockFile = try? LockFile.read(keyFile(of: file), journal: path),
              lockFile.pending != nil, lockFile.keyID == cipher.keyID,
              case (let old, var photoKeys)? = replaced(in: lockFile, under: cipher) else { return (cipher, false) }
        for index in photoKeys.indices { sodium_memzero(&photoKeys[index], photoKeys[index].count) }
        return (cipher.format(of: file) == nil && old.format(of: file) != nil ? old : cipher, true)
    }

    /// Every photo key of the journal and of its copies, each once: the keys New Key… replaces.
    private static func photoKeys(of file: String, shownAs path: String, cipher: JournalCipher) throws(JournalError) -> [[UInt8]] {
        var keys: [[UInt8]] = []
        let read = { (database: String) throws in
            try JournalRescue.withSnapshot(of: database, shownAs: database, cipher: cipher) { queue in
                try queue.read { db in
                    guard try db.tableExists("photo_key") else { return }
                    for key in try Data.fetchAll(db, sql: "SELECT key FROM photo_key") where !keys.contains(Array(key)) {
                        keys.append(Array(key))
                    }
                }
            }
        }
        do {
            try read(file)
        } catch {
            throw JournalError(error, path: path)
        }
        // A copy that cannot be read is removed as the copies are sealed anew: its keys matter not.
        for (copy, _) in copies(of: file) { try? read(copy) }
        return keys
    }
}
