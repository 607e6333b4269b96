import Foundation

/// How a photo's file (and its thumbnail's) is written: "FLP1", a random nonce, then the bytes
/// sealed with XChaCha20-Poly1305 under the photo's key, with the file's own name bound in. A
/// file cut short, changed, or put in another's place fails to open.
///
/// Every photo is sealed, in a plain journal too: there the key sits in the journal, as open as
/// the entries, and locking the journal seals the key with everything else, so no photo is
/// rewritten by a lock or an unlock (see `JournalStore.photoKey`).
enum PhotoSeal {
    static let magic = Array("FLP1".utf8)

    static func seal(_ bytes: Data, key: [UInt8], name: String) -> Data {
        JournalKey.seal(bytes, after: magic, key: key, context: context(name))
    }

    /// The bytes sealed as `name`, or nil when the file is not exactly that.
    static func open(_ sealed: Data, key: [UInt8], name: String) -> Data? {
        guard sealed.count > magic.count, sealed.prefix(magic.count).elementsEqual(magic) else { return nil }
        return JournalKey.open(sealed, after: magic.count, key: key, context: context(name))
    }

    private static func context(_ name: String) -> [UInt8] { Array("flourish-photo/1 \(name)".utf8) }
}
