import CJournalCipher
import CSodium
import Foundation
import GRDB
import GRDBSQLite

/// The key of a locked journal while it is unlocked, held by the encrypting VFS in memory that is
/// locked and wiped when the last reference goes (`sodium_malloc`): never in a Swift array for
/// longer than it takes to hand it over. Every connection to a locked journal (and to its
/// backups, which share its key) opens through `location(of:)`.
public final class JournalCipher: @unchecked Sendable {
    static let keyLength = Int(FLOURISH_CIPHER_KEY_SIZE)
    static let pageSize = Int(FLOURISH_CIPHER_PAGE_SIZE)
    static let reserve = Int32(FLOURISH_CIPHER_RESERVE)
    /// The page format of every file sealed now (see `journal_cipher.c`): 2, each page bound to
    /// its file. Files of format 1 are read, and rewritten in format 2 (`JournalLock.upgradeFormat`).
    static let format = Int(FLOURISH_CIPHER_FORMAT)

    /// The VFS's slot holding the key; immutable, freed (and wiped) in deinit.
    private let slot: Int32
    /// A name for the key that tells nothing of it, to check a key kept in the keyring.
    public let keyID: String

    /// Hands `key` (wiped here afterwards) to the VFS; nil only when libsodium cannot start.
    init?(key: inout [UInt8]) {
        defer { sodium_memzero(&key, key.count) }
        guard key.count == Self.keyLength, flourish_cipher_register() == SQLITE_OK else { return nil }
        keyID = Self.id(of: key)
        slot = flourish_cipher_add_key(key)
        guard slot > 0 else { return nil }
    }

    /// A new random key.
    static func random() -> JournalCipher? {
        var key = Sodium.random(keyLength)
        return JournalCipher(key: &key)
    }

    deinit { flourish_cipher_remove_key(slot) }

    /// Wipes this key now (the journal locked), whoever still holds this object: connections
    /// open with it keep their own copies until they close; nothing opens with it after. Its id
    /// is never given to another key, so a later one is never touched.
    public func wipe() { flourish_cipher_remove_key(slot) }

    /// Runs `body` with a copy of the key, wiped afterwards: for wrapping it under a new
    /// passphrase, or keeping it in the keyring.
    func withKey<T, E: Error>(_ body: ([UInt8]) throws(E) -> T) throws(E) -> T {
        var key = [UInt8](repeating: 0, count: Self.keyLength)
        defer { sodium_memzero(&key, key.count) }
        // The slot is filled for as long as this object lives.
        _ = flourish_cipher_copy_key(slot, &key)
        return try body(key)
    }

    /// The page format of the file sealed by this key at `file` (1 or 2; 0 when it is empty), as
    /// its first page opens; nil when that page opens in no format (damage, another key, a plain
    /// file) or the file cannot be read.
    func format(of file: String) -> Int? {
        let format = flourish_cipher_file_format(file, slot)
        return format < 0 ? nil : Int(format)
    }

    /// The page format of the locked journal `queue` has open, as its VFS learned it from the
    /// pages read (1 or 2); nil before any page was read, or when it is not opened through the VFS.
    static func format(of queue: DatabaseQueue) -> Int? {
        var format: Int32 = 0
        let status = try? queue.inDatabase { db in
            sqlite3_file_control(db.sqliteConnection, "main", FLOURISH_CIPHER_FCNTL_FORMAT, &format)
        }
        return status == SQLITE_OK && format > 0 ? Int(format) : nil
    }

    /// Whether the write-ahead log beside the locked journal `file` was written without this key
    /// (see `flourish_cipher_log_is_foreign`).
    func logIsForeign(beside file: String) -> Bool { flourish_cipher_log_is_foreign(file, slot) == 1 }

    /// Runs `body` with the key as base64 text (bytes, no NUL), wiped afterwards: for the
    /// desktop's Secret Service only ("Unlock when I log in"), never a file, a log or a message,
    /// and never a Swift string (`KeyText`).
    public func withExportedKey<T, E: Error>(_ body: ([UInt8]) throws(E) -> T) throws(E) -> T {
        try withKey { key throws(E) in try KeyText.withText(of: key, body) }
    }

    /// The key from its base64 text (`withExportedKey`); nil for anything else.
    convenience init?(exported text: [UInt8]) {
        guard var key = KeyText.key(from: text, length: Self.keyLength) else { return nil }
        self.init(key: &key)
    }

    /// The SQLite URI that opens `file` through the VFS with this key. `salvaging`: for a rescue's
    /// copy only, a frame of the log that does not open ends the log there instead of being
    /// damage (see `journal_cipher.c`).
    func location(of file: String, immutable: Bool = false, salvaging: Bool = false) -> String {
        JournalFile.uri(file, parameters: ["vfs=\(FLOURISH_CIPHER_VFS)", "cipher=\(slot)"] + (immutable ? ["immutable=1"] : [])
                        + (salvaging ? ["salvage=1"] : []))
    }

    /// What every connection to a locked journal needs before its first read: temporary tables
    /// and sorts kept in memory (the VFS refuses to write them, in the clear, to /tmp), and for a
    /// new file, room at the end of each page for its nonce and tag.
    ///
    /// And a page cache of 8 MiB rather than SQLite's 2: a sealed page costs its opening on every
    /// read from disk, and Insights' two indexes (4.6 MB at 100,000 entries) then stay opened.
    static func prepare(_ db: Database) throws {
        try db.execute(sql: "PRAGMA temp_store = MEMORY; PRAGMA cache_size = -8192")
        // A connection that only reads makes no page (a copy it makes asks for itself, in
        // `JournalFile.vacuum`): every opening's looks at the journal are spared the request.
        if !db.configuration.readonly { try requestReserve(reserve, db) }
    }

    /// Asks SQLite for `bytes` of reserved space per page in what it writes next: a new file, or
    /// the copy VACUUM INTO makes (the source's own pages are left as they are).
    static func requestReserve(_ bytes: Int32, _ db: Database) throws {
        // The page size first: setting it asks for no reserved space, undoing an earlier request.
        try db.execute(sql: "PRAGMA page_size = \(pageSize)")
        var value = bytes
        let status = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &value)
        // An existing database answers READONLY (its pages already have their layout), yet keeps the
        // request for the copies made from it.
        guard status == SQLITE_OK || status == SQLITE_READONLY else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status))
        }
    }

    /// BLAKE2b keyed by the key, of a fixed text.
    private static func id(of key: [UInt8]) -> String {
        Sodium.ready()
        let text = Array("flourish-lock/1 key id".utf8)
        var out = [UInt8](repeating: 0, count: 16)
        _ = crypto_generichash(&out, out.count, text, UInt64(text.count), key, key.count)
        return out.map { String(format: "%02x", $0) }.joined()
    }

    /// Wipes every key the process holds (quitting): a journal still open keeps working through
    /// its files' own copies until it closes, and nothing opens after.
    public static func wipeAllKeys() { flourish_cipher_remove_all_keys() }

    /// Whether every block SQLite frees in this process is wiped first (its page cache of a
    /// locked journal's pages in the clear among them): set as the program loads.
    public static var wipesSQLiteMemory: Bool { flourish_cipher_wipes_sqlite_memory() == 1 }

    /// How many sealed pages failed to open in this process (damage, or a key not theirs).
    public static var refusedPages: Int { flourish_cipher_refused_pages() }
}
