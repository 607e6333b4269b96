import CSodium
import Foundation

/// A locked journal's key file, `<journal>.key` beside it: the journal's random key, wrapped
/// twice, once by Argon2id of the passphrase and once by Argon2id of the recovery key. Nothing
/// else opens it; a forgotten passphrase with a lost recovery key cannot be undone. It holds no
/// entry and nothing in the clear but the derivations' salts and costs.
///
/// While New Key… is under way (`JournalLock.newKey`), it also holds the keys being replaced,
/// sealed under the new one (`pending`), and says version 2: an earlier Flourish, which could
/// not open the files still sealed under the old key, refuses it as a newer version's.
struct LockFile: Codable, Equatable {
    static let format = "flourish-lock"
    static let version = 1
    /// The version of a key file with keys `pending`.
    static let pendingVersion = 2

    /// One wrapping of the key.
    struct Wrapped: Codable, Equatable {
        let kdf: String
        let opslimit: UInt64
        let memlimit: UInt64
        /// Base64 of the salt, and of the wrapped key (nonce, ciphertext, tag).
        let salt: String
        let key: String
    }

    let format: String
    let version: Int
    let passphrase: Wrapped
    let recovery: Wrapped
    /// The key's id (`JournalCipher.keyID`): a key kept in the keyring is checked against it.
    let keyID: String
    /// Base64 of the keys New Key… is replacing (the journal's old key, then the old photo keys),
    /// sealed under this key: every file still sealed under one of them is sealed anew at the
    /// journal's next opening. Absent once it is done.
    let pending: String?

    /// How costly the derivation is: `.moderate` for people (a stolen key file then costs a
    /// second of Argon2id per guess), `.interactive` for tests that lock many journals.
    typealias Cost = KeyFile.Cost

    /// The key file for `key` under `passphrase` and `recoveryKey`.
    init(key: [UInt8], keyID: String, passphrase: Passphrase, recoveryKey: String, cost: Cost) throws(JournalError) {
        format = Self.format
        version = Self.version
        self.keyID = keyID
        pending = nil
        self.passphrase = try Self.wrap(key, under: passphrase, role: "passphrase", cost: cost)
        // The recovery key is 160 random bits: the cheapest cost is already out of reach.
        self.recovery = try Self.wrap(key, under: Self.recoverySecret(recoveryKey), role: "recovery", cost: .interactive)
    }

    /// `file` with one of its wrappings replaced, or its pending keys (`settled`: none).
    private init(_ file: LockFile, passphrase: Wrapped? = nil, recovery: Wrapped? = nil, pending: String? = nil, settled: Bool = false) {
        format = file.format
        keyID = file.keyID
        self.passphrase = passphrase ?? file.passphrase
        self.recovery = recovery ?? file.recovery
        self.pending = settled ? nil : pending ?? file.pending
        version = self.pending == nil ? Self.version : Self.pendingVersion
    }

    /// The same key file holding `keys` (each `JournalCipher.keyLength` bytes) as pending, sealed
    /// under its own key `key`.
    func withPending(_ keys: [[UInt8]], under key: [UInt8]) -> LockFile {
        var joined = keys.flatMap { $0 }
        defer { sodium_memzero(&joined, joined.count) }
        return LockFile(self, pending: Data(JournalKey.seal(joined, key: key, context: Self.context("pending"))).base64EncodedString())
    }

    /// The same key file, its pending keys gone (New Key… done).
    func settled() -> LockFile { LockFile(self, settled: true) }

    /// The pending keys, opened with this file's key `key`: nil when there are none, or they do
    /// not open (then the key file is damaged).
    func pendingKeys(under key: [UInt8]) -> [[UInt8]]? {
        guard let pending, let sealed = Data(base64Encoded: pending),
              var joined = JournalKey.open(Array(sealed), key: key, context: Self.context("pending")) else { return nil }
        defer { sodium_memzero(&joined, joined.count) }
        let length = JournalCipher.keyLength
        guard !joined.isEmpty, joined.count % length == 0 else { return nil }
        return stride(from: 0, to: joined.count, by: length).map { Array(joined[$0..<($0 + length)]) }
    }

    /// The same key file with the key wrapped under a new recovery key (the passphrase stays).
    func withRecoveryKey(_ key: [UInt8], _ recoveryKey: String) throws(JournalError) -> LockFile {
        LockFile(self, recovery: try Self.wrap(key, under: Self.recoverySecret(recoveryKey), role: "recovery", cost: .interactive))
    }

    /// The same key file with the key wrapped under a new passphrase (the recovery key stays).
    func rewrapped(_ key: [UInt8], passphrase: Passphrase, cost: Cost) throws(JournalError) -> LockFile {
        LockFile(self, passphrase: try Self.wrap(key, under: passphrase, role: "passphrase", cost: cost))
    }

    /// The key, unwrapped by the passphrase or the recovery key; nil when `secret` is neither.
    /// Text in the recovery key's form is tried as one first.
    func unwrap(_ secret: Passphrase) throws(JournalError) -> [UInt8]? {
        if let recoveryKey = RecoveryKey.normalized(secret), let key = try Self.unwrap(recovery, with: recoveryKey, role: "recovery") {
            return key
        }
        return try Self.unwrap(passphrase, with: secret, role: "passphrase")
    }

    // MARK: - Reading and writing

    /// Whether the key file at `path` may hold pending keys, from its bytes alone: every opening
    /// of a locked journal asks, and decoding it whole each time is not needed for that. A key
    /// file is a kilobyte or two; one of more than 64 KiB is no key file.
    static func mayBePending(_ path: String) -> Bool {
        guard let bytes = LocalFiles.start(of: path, upTo: 1 << 16) else { return false }
        let mark = Array("\"pending\"".utf8)
        return bytes.withUnsafeBytes { all in
            all.count >= mark.count && (0...(all.count - mark.count)).contains { start in
                all[start] == mark[0] && memcmp(all.baseAddress! + start, mark, mark.count) == 0
            }
        }
    }

    static func read(_ path: String, journal: String) throws(JournalError) -> LockFile {
        guard let data = FileManager.default.contents(atPath: path) else { throw .keyFileMissing(path: journal) }
        guard let file = try? JSONDecoder().decode(LockFile.self, from: data), file.format == format,
              [file.passphrase, file.recovery].allSatisfy({ $0.kdf == "argon2id13" }) else {
            throw .keyFileDamaged(path: path)
        }
        guard file.version <= (file.pending == nil ? version : pendingVersion) else { throw .newerVersion(path: journal) }
        return file
    }

    /// Writes the key file at `path`, private, whole or not at all (a temporary file renamed over).
    func write(to path: String) throws(JournalError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding plain strings and numbers cannot fail.
        let data = (try? encoder.encode(self)) ?? Data()
        try PrivateFile.replace(path, with: data)
    }

    // MARK: - Wrapping

    private static func context(_ role: String) -> [UInt8] { Array("flourish-lock/1 \(role)".utf8) }

    /// The passphrase's Argon2id for people: 128 MiB and three passes, so unlocking stays well
    /// under a second on a slow machine (libsodium's "moderate", 256 MiB and three passes, took
    /// 0.74 to 1.1 s on the benchmark's, and two passes over 256 MiB still 0.85 s); a guess
    /// still costs 128 MiB and over half a second.
    static func limits(_ cost: Cost) -> (ops: UInt64, memory: UInt64) {
        switch cost {
        case .moderate: (3, 128 << 20)
        case .interactive: cost.limits
        }
    }

    /// The recovery key in the one form it is derived from (made here, shown once: a `String`
    /// already, as the window and the terminal show it).
    private static func recoverySecret(_ recoveryKey: String) -> Passphrase {
        RecoveryKey.normalized(Passphrase(recoveryKey)) ?? Passphrase(recoveryKey)
    }

    private static func wrap(_ key: [UInt8], under secret: Passphrase, role: String, cost: Cost) throws(JournalError) -> Wrapped {
        let (ops, memory) = limits(cost)
        let salt = Sodium.random(Argon2id.saltLength)
        guard var wrapping = Argon2id.derive(secret, salt: salt, ops: ops, memory: memory) else {
            throw .other(reason: tr("There is not enough memory to lock the journal."))
        }
        defer { sodium_memzero(&wrapping, wrapping.count) }
        let sealed = JournalKey.seal(key, key: wrapping, context: context(role))
        return Wrapped(kdf: "argon2id13", opslimit: ops, memlimit: memory, salt: Data(salt).base64EncodedString(),
                       key: Data(sealed).base64EncodedString())
    }

    private static func unwrap(_ wrapped: Wrapped, with secret: Passphrase, role: String) throws(JournalError) -> [UInt8]? {
        // A cost past what any Flourish writes is refused rather than tried: a key file made to
        // exhaust the machine's memory is not one of ours.
        let (ops, memory) = Cost.moderate.limits
        guard wrapped.opslimit <= ops * 4, wrapped.memlimit <= memory * 4,
              let salt = Data(base64Encoded: wrapped.salt), salt.count == Argon2id.saltLength,
              let sealed = Data(base64Encoded: wrapped.key) else { return nil }
        guard var wrapping = Argon2id.derive(secret, salt: Array(salt), ops: wrapped.opslimit, memory: wrapped.memlimit) else {
            throw .other(reason: tr("There is not enough memory to check the passphrase."))
        }
        defer { sodium_memzero(&wrapping, wrapping.count) }
        guard let key = JournalKey.open(Array(sealed), key: wrapping, context: context(role)),
              key.count == JournalCipher.keyLength else { return nil }
        return key
    }
}
