import CSodium
import Foundation

/// A photo as an entry's change names it: its name at the place, and the name of its file.
/// Photos travel beside the batches, never inside them (batches stay small): each sealed on its
/// own as `photos/<name>`, uploaded once by whichever machine has it first, and fetched by every
/// machine that needs it.
struct SyncPhoto: Codable, Equatable, Hashable {
    /// 32 hexadecimal digits: BLAKE2b of the photo keyed by a key made from the journal's sync
    /// key, so the place can neither tell that two journals hold the same picture nor confirm a
    /// picture it knows.
    var name: String
    var file: String

    /// Where the photo is at the place.
    var path: String { Self.path(name) }

    static func path(_ name: String) -> String { "photos/\(name)" }

    /// The place's name for `bytes` under the journal key `key`.
    static func name(of bytes: Data, key: JournalKey) -> String {
        Sodium.ready()
        var namingKey = [UInt8](repeating: 0, count: 32)
        let context = Array("flourish-sync/1 photo names".utf8)
        _ = crypto_generichash(&namingKey, namingKey.count, context, UInt64(context.count), key.bytes, key.bytes.count)
        defer { sodium_memzero(&namingKey, namingKey.count) }
        return PhotoName.of(bytes, key: namingKey)
    }

    /// Whether a change's photos hold only what Flourish writes.
    var isValid: Bool { PhotoName.isValid(name) && !file.isEmpty && file.utf8.count <= 1024 && !file.contains("\n") }
}
