import CSodium
import Foundation

/// A stored photo's name: BLAKE2b of its bytes keyed by the journal's photo key, 128 bits as 32
/// hexadecimal digits. The same picture added twice gets the same name, so it is kept once; the
/// name tells nothing of the picture to anyone without the key (a known picture cannot be
/// confirmed from a file name).
enum PhotoName {
    static let length = 32

    static func of(_ bytes: Data, key: [UInt8]) -> String {
        Sodium.ready()
        var out = [UInt8](repeating: 0, count: length / 2)
        bytes.withUnsafeBytes { raw in
            _ = crypto_generichash(&out, out.count, raw.bindMemory(to: UInt8.self).baseAddress, UInt64(raw.count), key, key.count)
        }
        return out.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `text` is a name as `of` makes them (and nothing that could climb out of a folder).
    static func isValid(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
