import CSodium
import Foundation

/// The random key that seals every file a synced journal writes to its place, with
/// XChaCha20-Poly1305 (libsodium's IETF construction): each file is its own nonce and ciphertext,
/// and its name and the journal's id are bound in as associated data, so a file moved to another
/// name, or from another journal, fails to open just as a changed or cut one does.
///
/// The key never leaves the machine in the clear: at the place it is only ever wrapped
/// (`KeyFile`), and on the machine it lives in memory and in the desktop's Secret Service.
public struct JournalKey: Sendable, Equatable {
    static let length = Int(crypto_aead_xchacha20poly1305_ietf_keybytes())
    static let nonceLength = Int(crypto_aead_xchacha20poly1305_ietf_npubbytes())
    static let tagLength = Int(crypto_aead_xchacha20poly1305_ietf_abytes())
    /// What every sealed file starts with: the format, so a later one can be told apart. Files
    /// written now are padded (`SyncPadding`); files of the first format are not, and are still
    /// read.
    static let magic = Array("FLS2".utf8)
    static let unpaddedMagic = Array("FLS1".utf8)

    /// The key's bytes, wiped from memory once the last copy of the key is gone.
    private let secret: WipedBytes
    var bytes: [UInt8] { secret.bytes }

    init(bytes: [UInt8]) {
        precondition(bytes.count == Self.length, "a journal key is \(Self.length) bytes")
        secret = WipedBytes(bytes)
    }

    public static func == (lhs: JournalKey, rhs: JournalKey) -> Bool { lhs.bytes == rhs.bytes }

    /// The key as text, for the desktop's Secret Service only: never a file, a log or a message.
    public var exported: String { Data(bytes).base64EncodedString() }

    /// A key kept as `exported` text; nil for anything else.
    public init?(exported: String) {
        guard let data = Data(base64Encoded: exported), data.count == Self.length else { return nil }
        self.init(bytes: Array(data))
    }

    /// A name for the key that tells nothing of it (BLAKE2b keyed by it, of a fixed text): the
    /// journal keeps it to notice that the journal's key was changed, on another computer.
    var id: String {
        Sodium.ready()
        let text = Array("flourish-sync/1 key id".utf8)
        var out = [UInt8](repeating: 0, count: 16)
        _ = crypto_generichash(&out, out.count, text, UInt64(text.count), bytes, bytes.count)
        return out.map { String(format: "%02x", $0) }.joined()
    }

    /// A new key from the system's random source.
    public static func random() -> JournalKey {
        JournalKey(bytes: Sodium.random(length))
    }

    /// `plaintext` padded (so its size tells no more than its bucket) and sealed for the file
    /// `name` of `journal`: magic, nonce, ciphertext and tag.
    public func seal(_ plaintext: Data, name: String, journal: String) throws(SyncError) -> Data {
        guard let padded = SyncPadding.pad(Array(plaintext)) else {
            throw .other(reason: tr("the journal is too large to sync (over 256 MiB)"))
        }
        return Data(Self.magic) + Self.seal(padded, key: bytes, context: Self.context(name: name, journal: journal))
    }

    /// The plaintext of the file `name` of `journal`, or `.refusedFile(name)` when it is not
    /// exactly what this key sealed under that name.
    public func open(_ sealed: Data, name: String, journal: String) throws(SyncError) -> Data {
        let bytes = Array(sealed)
        guard bytes.count >= Self.magic.count else { throw .refusedFile(name: name) }
        let magic = Array(bytes[..<Self.magic.count])
        guard magic == Self.magic || magic == Self.unpaddedMagic,
              let opened = Self.open(Array(bytes[Self.magic.count...]), key: self.bytes,
                                     context: Self.context(name: name, journal: journal)),
              let plaintext = magic == Self.magic ? SyncPadding.unpad(opened) : opened
        else { throw .refusedFile(name: name) }
        return Data(plaintext)
    }

    /// The associated data: the format, the journal and the file's name.
    static func context(name: String, journal: String) -> [UInt8] {
        Array("flourish-sync/1 \(journal) \(name)".utf8)
    }

    // MARK: - XChaCha20-Poly1305

    /// A random nonce, then the ciphertext with its tag.
    static func seal(_ plaintext: [UInt8], key: [UInt8], context: [UInt8]) -> [UInt8] {
        Sodium.ready()
        let nonce = Sodium.random(nonceLength)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        var written: UInt64 = 0
        // Cannot fail for a key and nonce of the right length (libsodium returns 0 always).
        _ = crypto_aead_xchacha20poly1305_ietf_encrypt(&ciphertext, &written, plaintext, UInt64(plaintext.count),
                                                       context, UInt64(context.count), nil, nonce, key)
        return nonce + ciphertext[..<Int(written)]
    }

    /// The plaintext, or nil when the tag does not match (changed, cut, another key or context).
    static func open(_ sealed: [UInt8], key: [UInt8], context: [UInt8]) -> [UInt8]? {
        Sodium.ready()
        guard sealed.count >= nonceLength + tagLength else { return nil }
        let nonce = Array(sealed[..<nonceLength])
        let ciphertext = Array(sealed[nonceLength...])
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count - tagLength)
        var read: UInt64 = 0
        let status = crypto_aead_xchacha20poly1305_ietf_decrypt(&plaintext, &read, nil, ciphertext, UInt64(ciphertext.count),
                                                                context, UInt64(context.count), nonce, key)
        return status == 0 ? Array(plaintext[..<Int(read)]) : nil
    }
}

/// Bytes that are wiped (`sodium_memzero`) when nothing holds them any more: a key's.
private final class WipedBytes: @unchecked Sendable {
    // Only read after `init`, and wiped in `deinit`, when no one else can read it.
    private(set) var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    deinit {
        bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) }
    }
}

/// libsodium's start-up and random source.
enum Sodium {
    /// sodium_init() once per process; it is safe to call again, but pointless.
    private static let initialized: Bool = sodium_init() >= 0

    static func ready() {
        // sodium_init fails only when the system has no random source at all.
        precondition(initialized, "libsodium could not start: no random source")
    }

    static func random(_ count: Int) -> [UInt8] {
        ready()
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }
}
