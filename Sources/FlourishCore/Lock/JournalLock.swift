import Foundation
import GRDB

/// Locking a journal (every page sealed on disk, its backups too) and unlocking it: for a
/// session (`unlock`), or for good (`removeLock`). Flourish must not have the journal open in
/// another process while it is locked or its lock removed: each refuses when it finds the journal
/// in use.
public enum JournalLock {
    /// The shortest passphrase a journal is locked with.
    public static let shortestPassphrase = 8

    /// The file a journal path names (symbolic links followed): what the keyring files its key under.
    public static func file(of path: String) -> String { JournalFile.resolve(path) }

    /// The key file beside a journal file.
    public static func keyFile(of file: String) -> String { file + ".key" }

    /// Whether the journal at `path` is locked: its file is not plain SQLite, and its key file is
    /// beside it.
    public static func isLocked(_ path: String) -> Bool {
        let file = JournalFile.resolve(path)
        return JournalFile.size(of: file) > 0 && !JournalFile.hasSQLiteHeader(file)
            && FileManager.default.fileExists(atPath: keyFile(of: file))
    }

    /// Whether a key file is beside a journal that is not locked (plain, empty or missing): see
    /// `JournalError.halfLocked`. `finishLocking` and `finishRemovingLock` settle it.
    public static func isHalfLocked(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: keyFile(of: JournalFile.resolve(path))) && !isLocked(path)
    }

    /// The journal's key from its passphrase or recovery key: `.wrongPassphrase` when it is
    /// neither (nothing is changed either way).
    public static func unlock(path: String, secret: Passphrase) throws(JournalError) -> JournalCipher {
        let file = JournalFile.resolve(path)
        let lockFile = try LockFile.read(keyFile(of: file), journal: path)
        guard var key = try lockFile.unwrap(secret) else { throw .wrongPassphrase }
        guard let cipher = JournalCipher(key: &key) else { throw .other(reason: tr("The journal's encryption could not start.")) }
        guard cipher.keyID == lockFile.keyID else { throw .keyFileDamaged(path: keyFile(of: file)) }
        return cipher
    }

    /// The journal's key from the text the keyring kept (`JournalCipher.withExportedKey`): nil
    /// when it is not this journal's key (the lock was turned off and on again since, say).
    public static func unlock(path: String, keptKey: [UInt8]) -> JournalCipher? {
        let file = JournalFile.resolve(path)
        guard let lockFile = try? LockFile.read(keyFile(of: file), journal: path),
              let cipher = JournalCipher(exported: keptKey), cipher.keyID == lockFile.keyID else { return nil }
        return cipher
    }

    // MARK: - Locking

    /// What locking a journal did.
    public struct Locked: Sendable {
        /// Shown once: it opens the journal in place of the passphrase.
        public let recoveryKey: String
        public let cipher: JournalCipher
        /// Backups now sealed with the journal's key, and those removed (they could not be read).
        public let backupsSealed: [String]
        public let backupsRemoved: [String]
    }

    /// Locks the plain journal at `path` under `passphrase`: a sealed copy is written beside it,
    /// checked row by row against the journal, and renamed over it; then its backups are sealed
    /// too (or removed, when one cannot be read), so nothing of the journal stays in the clear in
    /// Flourish's folders. Refuses a damaged journal, a locked one, and one open elsewhere.
    public static func lock(path: String, passphrase: Passphrase, cost: KeyFile.Cost = .moderate) throws(JournalError) -> Locked {
        let file = JournalFile.resolve(path)
        guard !isLocked(path) else { throw .other(reason: String(format: tr("The journal at %@ is already locked."), path)) }
        guard let cipher = JournalCipher.random() else { throw .other(reason: tr("The journal's encryption could not start.")) }
        let recoveryKey = RecoveryKey.random()
        let lockFile = try cipher.withKey { key throws(JournalError) in
            try LockFile(key: key, keyID: cipher.keyID, passphrase: passphrase, recoveryKey: recoveryKey, cost: cost)
        }
        var backups: (converted: [String], removed: [String]) = ([], [])
        var wroteKeyFile = false
        do {
            try convert(file, shownAs: path, from: nil, to: cipher) { () throws(JournalError) in
                // The key file first, then the backups, then the journal: a crash before the journal's
                // rename leaves the plain journal beside its key file, which nothing opens until
                // `--encrypt` finishes the lock (`finishLocking`) or `--decrypt` lets it go
                // (`finishRemovingLock`); once the journal is locked, no copy of it is left plain.
                try lockFile.write(to: keyFile(of: file))
                wroteKeyFile = true
                try sealCopies(of: file, under: cipher, keyFile: lockFile, into: &backups)
            }
        } catch {
            // A failure (not a crash) before the journal was swapped in changes nothing: the copies
            // sealed so far are made plain again and the key files go, so the journal opens as
            // the plain journal it still is.
            // (Only what this lock wrote: a key file found beside the journal is never removed here.)
            if wroteKeyFile, JournalFile.hasSQLiteHeader(file) {
                _ = convertBackups(of: file, from: cipher, to: nil, only: backups.converted)
                unlink(keyFile(of: file))
                unlink(keyFile(of: backupKeyFileStand(of: file)))
            }
            throw error
        }
        keepNewestDay(of: file, cipher: cipher)
        return Locked(recoveryKey: recoveryKey, cipher: cipher, backupsSealed: backups.converted, backupsRemoved: backups.removed)
    }

    /// `--encrypt` on a half-locked journal: seals the plain journal under the key its key file
    /// holds (`cipher`, from that key file's passphrase or recovery key) and its copies with it,
    /// as `lock` would have. The passphrase stays; the recovery key is made anew and returned
    /// (`recoveryKey`): a lock cut short never showed the one it made.
    public static func finishLocking(path: String, cipher: JournalCipher) throws(JournalError) -> Locked {
        let file = JournalFile.resolve(path)
        guard isHalfLocked(path), JournalFile.size(of: file) > 0 else {
            throw .other(reason: String(format: tr("The journal at %@ is not half locked."), path))
        }
        let lockFile = try LockFile.read(keyFile(of: file), journal: path)
        guard lockFile.keyID == cipher.keyID else { throw .keyFileDamaged(path: keyFile(of: file)) }
        let recoveryKey = RecoveryKey.random()
        let renewed = try cipher.withKey { key throws(JournalError) in try lockFile.withRecoveryKey(key, recoveryKey) }
        var backups: (converted: [String], removed: [String]) = ([], [])
        try convert(file, shownAs: path, from: nil, to: cipher, evenHalfLocked: true) { () throws(JournalError) in
            try renewed.write(to: keyFile(of: file))
            try sealCopies(of: file, under: cipher, keyFile: renewed, into: &backups)
        }
        keepNewestDay(of: file, cipher: cipher)
        return Locked(recoveryKey: recoveryKey, cipher: cipher, backupsSealed: backups.converted, backupsRemoved: backups.removed)
    }

    /// `--decrypt` on a half-locked journal: the journal is plain already; its backups still
    /// sealed are made plain, and the key files go, as `removeLock` would have done.
    public static func finishRemovingLock(path: String, cipher: JournalCipher) throws(JournalError) -> Unlocked {
        let file = JournalFile.resolve(path)
        guard isHalfLocked(path) else { throw .other(reason: String(format: tr("The journal at %@ is not half locked."), path)) }
        let (opened, removed) = convertBackups(of: file, from: cipher, to: nil)
        removeKeyFiles(of: file)
        return Unlocked(backupsOpened: opened, backupsRemoved: removed)
    }

    /// The copies of the journal at `path` Flourish made (backups, recovered journals) that are
    /// plain SQLite: none may be, once the journal is locked.
    public static func plainCopies(path: String) -> [String] {
        copies(of: JournalFile.resolve(path)).map(\.path).filter(JournalFile.hasSQLiteHeader)
    }

    /// The copies of the locked journal at `path` sealed by `cipher` in an earlier page format
    /// (see `upgradeFormat`).
    public static func olderFormatCopies(path: String, cipher: JournalCipher) -> [String] {
        copies(of: JournalFile.resolve(path)).map(\.path).filter { copy in
            cipher.format(of: copy).map { $0 > 0 && $0 < JournalCipher.format } ?? false
        }
    }

    /// Seals every copy of the locked journal at `path` that is plain (a backup from before the
    /// lock left behind by a crash, or put back by hand), as locking does, and puts the backups'
    /// copy of the key file back if it is missing; copies that cannot be read are removed. Returns
    /// which were sealed and which removed: nothing when every copy is sealed already.
    ///
    /// Copies sealed in an earlier page format are rewritten in today's too, unsaid: they were
    /// locked, and still are. One that cannot be read is kept as it is (it holds nothing in the
    /// clear, and Recover… may still find entries in it).
    public static func sealPlainCopies(path: String, cipher: JournalCipher) throws(JournalError) -> (sealed: [String], removed: [String]) {
        let file = JournalFile.resolve(path)
        guard isLocked(path) else { return ([], []) }
        // A copy still sealed under a key New Key… was replacing is no plain copy, nor one to rewrite.
        try finishNewKey(file, shownAs: path, cipher: cipher)
        let lockFile = try LockFile.read(keyFile(of: file), journal: path)
        guard lockFile.keyID == cipher.keyID else { throw .keyFileDamaged(path: keyFile(of: file)) }
        let plain = plainCopies(path: path), older = olderFormatCopies(path: path, cipher: cipher)
        let stand = keyFile(of: backupKeyFileStand(of: file))
        if !FileManager.default.fileExists(atPath: stand) { try writeBackupKeyFile(lockFile, of: file) }
        if !older.isEmpty {
            _ = convertBackups(of: file, from: cipher, to: cipher, keyFile: lockFile, only: older, removingUnreadable: false)
        }
        guard !plain.isEmpty else { return ([], []) }
        // Only the plain ones: a copy sealed by another key, or damaged, is not this one's to judge.
        let result = convertBackups(of: file, from: nil, to: cipher, keyFile: lockFile, only: plain)
        return (result.converted, result.removed)
    }

    /// Seals every copy of the journal (backups, recovered journals) under `cipher`, then puts
    /// the backups' copy of the key file beside them: locking's step before the journal's swap.
    /// `backups` says what was converted even when the key file's copy then fails (a failed lock
    /// makes those copies plain again).
    private static func sealCopies(of file: String, under cipher: JournalCipher, keyFile lockFile: LockFile,
                                   into backups: inout (converted: [String], removed: [String])) throws(JournalError) {
        backups = convertBackups(of: file, from: nil, to: cipher, keyFile: lockFile)
        try writeBackupKeyFile(lockFile, of: file)
    }

    /// The reminder's hint beside a journal just locked, from the start.
    private static func keepNewestDay(of file: String, cipher: JournalCipher) {
        if let queue = try? JournalFile.immutable(file, cipher: cipher) {
            try? queue.read { db in NewestDayKeeper(journal: file).refresh(db) }
            try? queue.close()
        }
    }

    /// A lock's last step when it is removed: its key files and the reminder's hint go.
    private static func removeKeyFiles(of file: String) {
        try? FileManager.default.removeItem(atPath: keyFile(of: file))
        try? FileManager.default.removeItem(atPath: NewestDay.file(of: file))
        try? FileManager.default.removeItem(atPath: keyFile(of: backupKeyFileStand(of: file)))
    }

    /// What removing the lock did.
    public struct Unlocked: Sendable {
        public let backupsOpened: [String]
        public let backupsRemoved: [String]
    }

    /// Makes the locked journal at `path` plain again (its backups too), the same careful way.
    public static func removeLock(path: String, cipher: JournalCipher) throws(JournalError) -> Unlocked {
        let file = JournalFile.resolve(path)
        guard isLocked(path) else { throw .other(reason: String(format: tr("The journal at %@ is not locked."), path)) }
        // Copies still sealed under a key New Key… was replacing would read as unreadable, and go.
        try finishNewKey(file, shownAs: path, cipher: cipher)
        try convert(file, shownAs: path, from: cipher, to: nil) { () throws(JournalError) in
            try exposePhotoKeys(inPlain: file + ".unlocking", shownAs: path)
        }
        let (opened, removed) = convertBackups(of: file, from: cipher, to: nil)
        removeKeyFiles(of: file)
        return Unlocked(backupsOpened: opened, backupsRemoved: removed)
    }

    /// Wraps the key under a new passphrase, in the journal's key file, the backups' copy and each
    /// recovered journal's own; the recovery key stays as it was.
    public static func changePassphrase(path: String, cipher: JournalCipher, to passphrase: Passphrase,
                                        cost: KeyFile.Cost = .moderate) throws(JournalError) {
        let file = JournalFile.resolve(path)
        // Rewrapped, a key file holding keys being replaced would keep them: New Key… finishes first.
        try finishNewKey(file, shownAs: path, cipher: cipher)
        let lockFile = try LockFile.read(keyFile(of: file), journal: path)
        guard lockFile.keyID == cipher.keyID else { throw .keyFileDamaged(path: keyFile(of: file)) }
        let rewrapped = try cipher.withKey { key throws(JournalError) in try lockFile.rewrapped(key, passphrase: passphrase, cost: cost) }
        try writeKeyFiles(rewrapped, of: file)
    }

    // MARK: - Text that is a String already

    // For tests and the benchmark, whose passphrases are no one's secret: what a person types
    // reaches the lock as a `Passphrase`, never a `String`.

    public static func unlock(path: String, secret: String) throws(JournalError) -> JournalCipher {
        try unlock(path: path, secret: Passphrase(secret))
    }

    public static func lock(path: String, passphrase: String, cost: KeyFile.Cost = .moderate) throws(JournalError) -> Locked {
        try lock(path: path, passphrase: Passphrase(passphrase), cost: cost)
    }

    public static func changePassphrase(path: String, cipher: JournalCipher, to passphrase: String,
                                        cost: KeyFile.Cost = .moderate) throws(JournalError) {
        try changePassphrase(path: path, cipher: cipher, to: Passphrase(passphrase), cost: cost)
    }

    public static func newKey(path: String, cipher: JournalCipher, passphrase: String,
                              cost: KeyFile.Cost = .moderate) throws(JournalError) -> Renewed {
        try newKey(path: path, cipher: cipher, passphrase: Passphrase(passphrase), cost: cost)
    }

    // MARK: - Converting

    /// Rewrites the locked journal `file` whole in today's page format when it is sealed in an
    /// earlier one (format 1, whose pages a page of a backup could stand in for), the careful way
    /// a lock is made: a copy, checked row by row, renamed over it. Returns whether it did; throws
    /// when it could not (open elsewhere, damaged), the journal left as it was. Its copies follow
    /// at `sealPlainCopies`.
    @discardableResult
    static func upgradeFormat(_ file: String, shownAs path: String, cipher: JournalCipher) throws(JournalError) -> Bool {
        guard let format = cipher.format(of: file), format > 0, format < JournalCipher.format, isLocked(file) else { return false }
        try convert(file, shownAs: path, from: cipher, to: cipher) { () throws(JournalError) in }
        return true
    }

    /// Copies the healthy journal `file` (read through `source`) into a new file sealed by
    /// `target` (or plain), checks the copy row by row, runs `beforeSwap`, and renames the copy
    /// over the journal.
    /// Holds the journal folder's lock exclusively throughout (`JournalFolderLock`): no program
    /// opens the journal meanwhile, and one that has it open makes it `.busy`.
    /// `holdingFolderLock`: the caller holds the folder's lock exclusively already (New Key…).
    static func convert(_ file: String, shownAs path: String, from source: JournalCipher?, to target: JournalCipher?,
                        evenHalfLocked: Bool = false, holdingFolderLock: Bool = false,
                        beforeSwap: () throws(JournalError) -> Void) throws(JournalError) {
        let held = holdingFolderLock ? nil : JournalFolderLock.take(file, exclusive: true)
        defer { held?.release() }
        let copy = file + (target == nil ? ".unlocking" : ".locking")
        let files = FileManager.default
        try? files.removeItem(atPath: copy)
        do {
            let store = try JournalStore(path: file, cipher: source, evenHalfLocked: evenHalfLocked, withinConversion: true)
            if case .damaged = store.check() { store.close(); throw JournalError.damagedJournal(path: path) }
            do {
                try store.vacuum(intoNewFile: copy, sealedBy: target)
                try store.sameRows(as: copy, cipher: target)
            } catch {
                store.close()
                throw error
            }
            store.close()
            // The last connection merges the log and removes it; one still there is another's, as
            // is any lock on the journal or its wal-index.
            guard JournalFile.size(of: file + "-wal") == 0, !JournalFolderLock.othersHaveOpen(file) else { throw JournalError.busy }
            for suffix in ["-wal", "-shm"] { try? files.removeItem(atPath: file + suffix) }
            try beforeSwap()
            guard rename(copy, file) == 0 else { throw JournalError.io(reason: String(cString: strerror(errno))) }
            try PrivateFile.syncFolder(of: file)
        } catch {
            try? files.removeItem(atPath: copy)
            throw JournalError(error, path: path)
        }
    }

    /// The copies of the journal Flourish made: every journal file in the backups folder, and the
    /// journals Recover… wrote beside it ("journal-recovered-….sqlite", which open on their own
    /// and so get a key file of their own).
    static func copies(of file: String) -> [(path: String, ownKeyFile: Bool)] {
        let files = FileManager.default
        let backups = JournalBackups(journal: file).folder
        let besides = (file as NSString).deletingLastPathComponent
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let inBackups = ((try? files.contentsOfDirectory(atPath: backups)) ?? []).filter { $0.hasSuffix(".sqlite") }.sorted()
            .map { ((backups as NSString).appendingPathComponent($0), false) }
        let recovered = ((try? files.contentsOfDirectory(atPath: besides.isEmpty ? "." : besides)) ?? [])
            .filter { $0.hasPrefix("\(stem)-recovered-") && $0.hasSuffix(".sqlite") }.sorted()
            .map { ((besides as NSString).appendingPathComponent($0), true) }
        return inBackups + recovered
    }

    /// Every copy of the journal Flourish made, each sealed (or opened) the same way; those that
    /// cannot be read are removed, so none stays in the clear. Returns which were converted and
    /// which removed.
    /// `only`: these copies and no other (those of `copies(of:)` it names). `removingUnreadable`:
    /// off, a copy that cannot be read is left as it is (and said in neither list). `rewrite`:
    /// a change made to each converted copy before it takes the copy's place.
    static func convertBackups(of file: String, from source: JournalCipher?, to target: JournalCipher?,
                               keyFile lockFile: LockFile? = nil, only: [String]? = nil, removingUnreadable: Bool = true,
                               rewrite: ((String) throws(JournalError) -> Void)? = nil) -> (converted: [String], removed: [String]) {
        // One conversion at a time (the window's upkeep and a command may both seal plain copies
        // as they open the journal): they share each copy's ".converting" name, and one removing
        // the other's half-made copy would make that copy's conversion fail and the copy go.
        let folder = open(JournalBackups(journal: file).folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 { flock(folder, LOCK_EX) }
        defer { if folder >= 0 { close(folder) } }
        var converted: [String] = [], removed: [String] = []
        for (backup, ownKeyFile) in copies(of: file) where only?.contains(backup) ?? true {
            // Already as it should be: converted before a conversion was cut short.
            if isAlready(backup, as: target, inTodaysFormat: source === target) {
                if ownKeyFile {
                    if let lockFile { try? lockFile.write(to: keyFile(of: backup)) } else { unlink(keyFile(of: backup)) }
                }
                converted.append(backup)
                continue
            }
            let copy = backup + ".converting"
            try? FileManager.default.removeItem(atPath: copy)
            do {
                try JournalRescue.withSnapshot(of: backup, shownAs: backup, cipher: source) { queue in
                    try JournalFile.vacuum(queue, intoNewFile: copy, cipher: target)
                }
                if target == nil { try exposePhotoKeys(inPlain: copy, shownAs: backup) }
                try rewrite?(copy)
                if ownKeyFile {
                    if let lockFile { try lockFile.write(to: keyFile(of: backup)) } else { unlink(keyFile(of: backup)) }
                }
                guard rename(copy, backup) == 0 else { throw JournalError.io(reason: String(cString: strerror(errno))) }
                converted.append(backup)
            } catch {
                try? FileManager.default.removeItem(atPath: copy)
                guard removingUnreadable else { continue }
                try? FileManager.default.removeItem(atPath: backup)
                removed.append(backup)
            }
            for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: backup + suffix) }
        }
        try? PrivateFile.syncFolder(of: JournalBackups(journal: file).folder + "/x")
        try? PrivateFile.syncFolder(of: file)
        return (converted, removed)
    }

    /// A journal made plain: its photo keys are on the disk in the clear from now on, so none of
    /// them counts as made while locked any more (`photo_key.made_locked`). Locked again, the
    /// journal seals new photos with a key it makes then.
    private static func exposePhotoKeys(inPlain file: String, shownAs path: String) throws(JournalError) {
        do {
            let queue = try DatabaseQueue(path: file)
            defer { try? queue.close() }
            try queue.write { db in
                if try db.tableExists("photo_key") { try db.execute(sql: "UPDATE photo_key SET made_locked = 0 WHERE made_locked != 0") }
            }
        } catch {
            throw JournalError(error, path: path)
        }
    }

    /// Whether the copy `backup` is plain already (`target` nil) or sealed by `target` already:
    /// in any page format, or with `inTodaysFormat` (rewriting copies in it) in today's. A copy
    /// sealed in format 1 is no plain copy to seal: a lock finished after a cut keeps it.
    private static func isAlready(_ backup: String, as target: JournalCipher?, inTodaysFormat: Bool) -> Bool {
        guard let target else { return JournalFile.hasSQLiteHeader(backup) }
        guard JournalFile.size(of: backup) > 0, !JournalFile.hasSQLiteHeader(backup),
              let format = target.format(of: backup), inTodaysFormat ? format == JournalCipher.format : format > 0 else { return false }
        return (try? JournalRescue.withSnapshot(of: backup, shownAs: backup, cipher: target) { queue in
            try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        }) != nil
    }

    /// The backups folder's copy of the key file ("journal.sqlite.key" in `backups/`), so that a
    /// backup copied elsewhere with it still opens with the passphrase.
    static func backupKeyFileStand(of file: String) -> String {
        (JournalBackups(journal: file).folder as NSString).appendingPathComponent((file as NSString).lastPathComponent)
    }

    /// Writes `lockFile` for the journal `file` and every copy that opens with it: the backups'
    /// copy, each recovered journal's own, and the journal's last.
    static func writeKeyFiles(_ lockFile: LockFile, of file: String) throws(JournalError) {
        try writeBackupKeyFile(lockFile, of: file)
        for (copy, ownKeyFile) in copies(of: file) where ownKeyFile && FileManager.default.fileExists(atPath: keyFile(of: copy)) {
            try lockFile.write(to: keyFile(of: copy))
        }
        try lockFile.write(to: keyFile(of: file))
    }

    static func writeBackupKeyFile(_ lockFile: LockFile, of file: String) throws(JournalError) {
        let folder = JournalBackups(journal: file).folder
        guard FileManager.default.fileExists(atPath: folder) else { return }
        try lockFile.write(to: keyFile(of: backupKeyFileStand(of: file)))
    }
}
