import CSodium
import Foundation
import GRDB

/// Photos under New Key… (`JournalLock.newKey`): every photo key is replaced, and every photo
/// file sealed anew under its replacement, so that someone who read the old keys (from a copy of
/// the journal, with a passphrase that leaked) opens no photo kept from then on.
///
/// A replacement is BLAKE2b of the old key, keyed by the journal's new key: the journal and each
/// backup, converted one by one, all replace the same key with the same new one without any of
/// them keeping a list of pairs, and a file is known to be sealed anew by opening under it. The
/// photo keys stay in their rows (ids unchanged), so no entry, draft or earlier version changes.
/// A photo's name (from its bytes, keyed by the old key) stays too: every entry names it so.
enum PhotoRekey {
    /// The key that replaces `old` under the journal's new key `journalKey`.
    static func replacement(for old: [UInt8], journalKey: [UInt8]) -> [UInt8] {
        Sodium.ready()
        var message = Array("flourish-photo-key/2".utf8) + old
        defer { sodium_memzero(&message, message.count) }
        var out = [UInt8](repeating: 0, count: JournalCipher.keyLength)
        _ = crypto_generichash(&out, out.count, message, UInt64(message.count), journalKey, journalKey.count)
        return out
    }

    /// Rewrites the photo keys of the database `copy` (sealed by `cipher`, not yet in use): each
    /// of `old` it holds becomes its replacement, counted as made while locked (it was).
    static func replaceKeys(in copy: String, cipher: JournalCipher, old: [[UInt8]]) throws(JournalError) {
        guard !old.isEmpty else { return }
        do {
            let queue = try DatabaseQueue(path: cipher.location(of: copy), configuration: JournalFile.configuration(cipher))
            defer { try? queue.close() }
            try cipher.withKey { journalKey in
                try queue.write { db in
                    guard try db.tableExists("photo_key") else { return }
                    for row in try Row.fetchAll(db, sql: "SELECT id, key FROM photo_key") {
                        let key = Array(row["key"] as Data)
                        guard old.contains(key) else { continue }
                        try db.execute(sql: "UPDATE photo_key SET key = ?, made_locked = 1 WHERE id = ?",
                                       arguments: [Data(replacement(for: key, journalKey: journalKey)), row["id"] as Int64])
                    }
                }
            }
        } catch {
            throw JournalError(error, path: copy)
        }
    }

    /// Seals anew, under its replacement, every file of `folder` (photos and thumbnails) sealed
    /// under one of `old`. A file already sealed anew (a New Key… cut short) is left as it is, as
    /// is one that cannot be read or opens under no key here (damaged: it is said where it is
    /// shown). Returns how many were sealed anew; throws when one could not be written.
    /// `afterEach`: called as each file is (see `JournalLock.afterNewKeyStep`).
    static func reseal(_ folder: PhotoFolder, old: [[UInt8]], journalKey: [UInt8],
                       afterEach: () throws(JournalError) -> Void = {}) throws(JournalError) -> Int {
        // A New Key… killed as it wrote a file anew left that write's temporary file.
        folder.removeCutShortReplacements()
        guard !old.isEmpty else { return 0 }
        var replacements = old.map { replacement(for: $0, journalKey: journalKey) }
        defer { for index in replacements.indices { sodium_memzero(&replacements[index], replacements[index].count) } }
        var sealed = 0
        for photo in folder.names() {
            for name in [photo, photo + PhotoFolder.thumbnailSuffix] where folder.exists(name) {
                // One that cannot be read is left as it is: it shows as damaged where it is shown.
                guard let bytes = try? folder.read(name) else { continue }
                if replacements.contains(where: { PhotoSeal.open(bytes, key: $0, name: name) != nil }) { continue }
                for (index, key) in old.enumerated() {
                    guard let picture = PhotoSeal.open(bytes, key: key, name: name) else { continue }
                    try folder.replace(PhotoSeal.seal(picture, key: replacements[index], name: name), as: name)
                    sealed += 1
                    try afterEach()
                    break
                }
            }
        }
        return sealed
    }
}
