import CSodium
import Foundation

/// The one file at a sync place that is not sealed by the journal key: the key itself, wrapped by
/// a key derived from the person's sync passphrase with Argon2id (libsodium's `crypto_pwhash`),
/// with what the derivation needs (salt and cost) beside it. Written once, by the machine that
/// starts the journal; every machine that joins unwraps it with the passphrase. A forgotten
/// passphrase cannot be recovered: nothing else can unwrap the key.
public struct KeyFile: Codable, Sendable, Equatable {
    /// Its name at the place.
    public static let name = "flourish-sync.json"
    static let format = "flourish-sync"
    static let version = 1

    public let format: String
    public let version: Int
    /// The journal's random id, bound into every sealed file (see `JournalKey.context`).
    public let journal: String
    public let kdf: String
    public let opslimit: UInt64
    public let memlimit: UInt64
    /// Base64 of the salt, and of the wrapped key (nonce, ciphertext, tag).
    public let salt: String
    public let key: String
    /// Base64 of a short text sealed by the journal key itself: a key kept on a machine (in its
    /// keyring) is checked against it before it writes anything.
    public let check: String

    /// How costly deriving the wrapping key is. People get `.moderate` (about a second, 256 MiB):
    /// the passphrase is typed once per machine. Tests that set up many journals use `.interactive`.
    public enum Cost: Sendable {
        case moderate, interactive

        var limits: (ops: UInt64, memory: UInt64) {
            switch self {
            case .moderate: (UInt64(crypto_pwhash_opslimit_moderate()), UInt64(crypto_pwhash_memlimit_moderate()))
            case .interactive: (UInt64(crypto_pwhash_opslimit_interactive()), UInt64(crypto_pwhash_memlimit_interactive()))
            }
        }
    }

    /// A new journal's key file: `key` wrapped under `passphrase`.
    public init(wrapping key: JournalKey, journal: String = UUID().uuidString.lowercased(), passphrase: String,
                cost: Cost = .moderate) throws(SyncError) {
        let (ops, memory) = cost.limits
        let salt = Sodium.random(Int(crypto_pwhash_saltbytes()))
        var wrapping = try Self.derive(passphrase, salt: salt, ops: ops, memory: memory)
        defer { sodium_memzero(&wrapping, wrapping.count) }
        self.init(journal: journal, ops: ops, memory: memory, salt: salt,
                  wrapped: JournalKey.seal(key.bytes, key: wrapping, context: Self.context(journal)),
                  check: try key.seal(Self.checkText, name: Self.name, journal: journal))
    }

    private static let checkText = Data("Flourish".utf8)

    private init(journal: String, ops: UInt64, memory: UInt64, salt: [UInt8], wrapped: [UInt8], check: Data) {
        format = Self.format
        version = Self.version
        self.journal = journal
        kdf = "argon2id13"
        opslimit = ops
        memlimit = memory
        self.salt = Data(salt).base64EncodedString()
        key = Data(wrapped).base64EncodedString()
        self.check = check.base64EncodedString()
    }

    /// Whether `key` is this journal's.
    public func opens(with key: JournalKey) -> Bool {
        guard let sealed = Data(base64Encoded: check) else { return false }
        return (try? key.open(sealed, name: Self.name, journal: journal)) == Self.checkText
    }

    /// The key file read from the place: `.notAJournal` for anything that is not one,
    /// `.newerFormat` for one a newer Flourish wrote.
    public static func read(_ data: Data, place: String) throws(SyncError) -> KeyFile {
        guard let file = try? JSONDecoder().decode(KeyFile.self, from: data), file.format == format,
              file.kdf == "argon2id13", Data(base64Encoded: file.salt)?.count == Int(crypto_pwhash_saltbytes()),
              Data(base64Encoded: file.key) != nil, Data(base64Encoded: file.check) != nil, !file.journal.isEmpty
        else { throw .notAJournal(place: place) }
        guard file.version <= version else { throw .newerFormat(place: place) }
        return file
    }

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding plain strings and numbers cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The journal key, or `.wrongPassphrase` (a changed key file reads the same way: the
    /// wrapped key's tag no longer matches).
    public func unwrap(passphrase: String) throws(SyncError) -> JournalKey {
        // A cost past what any Flourish writes is refused rather than tried: a key file made to
        // exhaust the machine's memory is not a journal.
        let (ops, memory) = Cost.moderate.limits
        guard opslimit <= ops * 4, memlimit <= memory * 4, let salt = Data(base64Encoded: salt),
              let wrapped = Data(base64Encoded: key) else { throw .wrongPassphrase }
        var wrapping = try Self.derive(passphrase, salt: Array(salt), ops: opslimit, memory: memlimit)
        defer { sodium_memzero(&wrapping, wrapping.count) }
        guard let bytes = JournalKey.open(Array(wrapped), key: wrapping, context: Self.context(journal)),
              bytes.count == JournalKey.length else { throw .wrongPassphrase }
        return JournalKey(bytes: bytes)
    }

    private static func context(_ journal: String) -> [UInt8] {
        Array("flourish-sync/1 key \(journal)".utf8)
    }

    /// Argon2id of the passphrase.
    private static func derive(_ passphrase: String, salt: [UInt8], ops: UInt64, memory: UInt64) throws(SyncError) -> [UInt8] {
        // Only running out of memory makes it fail.
        guard let derived = Argon2id.derive(passphrase, salt: salt, ops: ops, memory: memory) else {
            throw .other(reason: tr("not enough memory to check the passphrase"))
        }
        return derived
    }
}
