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

    /// Runs `body` with the key as base64 text (bytes, no NUL), wiped afterwards: for the
    /// desktop's Secret Service only, never a file, a log, a message or a Swift string.
    public func withExported<T, E: Error>(_ body: ([UInt8]) throws(E) -> T) throws(E) -> T {
        try KeyText.withText(of: bytes, body)
    }

    /// A key kept as `withExported` text; nil for anything else.
    public init?(exported text: [UInt8]) {
        guard var key = KeyText.key(from: text, length: Self.length) else { return nil }
        defer { sodium_memzero(&key, key.count) }
        self.init(bytes: key)
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
        let size = SyncPadding.bucket(plaintext.count)
        guard size <= SyncPadding.largest else {
            throw .other(reason: tr("the journal is too large to sync (over 256 MiB)"))
        }
        return Self.seal(plaintext, after: Self.magic, paddedTo: size, key: bytes, context: Self.context(name: name, journal: journal))
    }

    /// The plaintext of the file `name` of `journal`, or `.refusedFile(name)` when it is not
    /// exactly what this key sealed under that name.
    public func open(_ sealed: Data, name: String, journal: String) throws(SyncError) -> Data {
        guard sealed.count >= Self.magic.count else { throw .refusedFile(name: name) }
        let magic = Array(sealed.prefix(Self.magic.count))
        guard magic == Self.magic || magic == Self.unpaddedMagic,
              var plaintext = Self.open(sealed, after: Self.magic.count, key: bytes, context: Self.context(name: name, journal: journal)),
              magic == Self.unpaddedMagic || SyncPadding.unpad(&plaintext)
        else { throw .refusedFile(name: name) }
        return plaintext
    }

    /// The associated data: the format, the journal and the file's name.
    static func context(name: String, journal: String) -> [UInt8] {
        Array("flourish-sync/1 \(journal) \(name)".utf8)
    }

    // MARK: - XChaCha20-Poly1305

    /// A random nonce, then the ciphertext with its tag.
    static func seal(_ plaintext: [UInt8], key: [UInt8], context: [UInt8]) -> [UInt8] {
        Array(seal(Data(plaintext), after: [], key: key, context: context))
    }

    /// The plaintext, or nil when the tag does not match (changed, cut, another key or context).
    static func open(_ sealed: [UInt8], key: [UInt8], context: [UInt8]) -> [UInt8]? {
        open(Data(sealed), after: 0, key: key, context: context).map { Array($0) }
    }

    /// `header`, a random nonce, then `plaintext` (padded to `size` bytes, `SyncPadding`'s way,
    /// when given) sealed, with its tag: written once into the buffer returned, and sealed where
    /// it lies. A photo of megabytes is copied once, not at every step.
    static func seal(_ plaintext: Data, after header: [UInt8], paddedTo size: Int? = nil, key: [UInt8], context: [UInt8]) -> Data {
        Sodium.ready()
        let length = size ?? plaintext.count
        let start = header.count + nonceLength
        var sealed = Data(count: start + length + tagLength)
        sealed.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            let out = buffer.bindMemory(to: UInt8.self)
            // Not empty (it holds at least a nonce and a tag), so it has an address.
            let base = out.baseAddress!
            _ = out.initialize(from: header)
            randombytes_buf(base + header.count, nonceLength)
            plaintext.copyBytes(to: base + start, count: plaintext.count)
            if size != nil { SyncPadding.pad(UnsafeMutableBufferPointer(rebasing: out[start..<start + length]), after: plaintext.count) }
            var written: UInt64 = 0
            // In place, which libsodium allows. Cannot fail for a key and nonce of the right
            // length (it returns 0 always).
            _ = crypto_aead_xchacha20poly1305_ietf_encrypt(base + start, &written, base + start, UInt64(length),
                                                           context, UInt64(context.count), nil, base + header.count, key)
        }
        return sealed
    }

    /// The plaintext sealed in `sealed` after a header of `headerLength` bytes, or nil when the
    /// tag does not match (changed, cut, another key or context).
    static func open(_ sealed: Data, after headerLength: Int, key: [UInt8], context: [UInt8]) -> Data? {
        Sodium.ready()
        guard sealed.count >= headerLength + nonceLength + tagLength else { return nil }
        let ciphertextLength = sealed.count - headerLength - nonceLength
        // One byte more than the plaintext, so that even an empty one has an address.
        var plaintext = Data(count: ciphertextLength - tagLength + 1)
        var read: UInt64 = 0
        let status = sealed.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            plaintext.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) in
                // Both hold at least a byte here, so they have addresses.
                let source = input.bindMemory(to: UInt8.self).baseAddress!
                return crypto_aead_xchacha20poly1305_ietf_decrypt(output.bindMemory(to: UInt8.self).baseAddress!, &read, nil,
                                                                  source + headerLength + nonceLength, UInt64(ciphertextLength),
                                                                  context, UInt64(context.count), source + headerLength, key)
            }
        }
        guard status == 0 else { return nil }
        plaintext.count = Int(read)
        return plaintext
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

/// libsodium's start-up, random source and hash.
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

    /// BLAKE2b-256 of `data`, in hexadecimal: which bytes a file held, to know them again.
    static func digest(_ data: Data) -> String {
        ready()
        var out = [UInt8](repeating: 0, count: 32)
        data.withUnsafeBytes { raw in
            _ = crypto_generichash(&out, out.count, raw.bindMemory(to: UInt8.self).baseAddress, UInt64(raw.count), nil, 0)
        }
        return out.map { String(format: "%02x", $0) }.joined()
    }
}
