import CSodium
import Foundation

/// The recovery key: 160 random bits written as 32 letters and digits in groups of four
/// (RFC 4648 base32, "ABCD-EFGH-…"), printable and easy to copy by hand. It opens a locked journal
/// in place of the passphrase; it is shown once, when the lock is turned on.
public enum RecoveryKey {
    static let byteCount = 20
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    /// A new recovery key, formatted.
    static func random() -> String { format(Sodium.random(byteCount)) }

    static func format(_ bytes: [UInt8]) -> String {
        var letters: [Character] = []
        var buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                letters.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        return stride(from: 0, to: letters.count, by: 4).map { String(letters[$0..<min($0 + 4, letters.count)]) }
            .joined(separator: "-")
    }

    /// The key as typed, in the one form it is derived from (upper case, no dashes or spaces);
    /// nil for anything that cannot be a recovery key (then the text is a passphrase).
    static func normalized(_ typed: Passphrase) -> Passphrase? {
        // ASCII letters and digits only: bytes of any other character make it a passphrase.
        var letters = [UInt8]()
        defer { sodium_memzero(&letters, letters.count) }
        let ok = typed.withBytes { bytes -> Bool in
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): continue
                case UInt8(ascii: "a")...UInt8(ascii: "z"): letters.append(byte - 32)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "2")...UInt8(ascii: "7"): letters.append(byte)
                default: return false
                }
            }
            return true
        }
        guard ok, letters.count == byteCount * 8 / 5 else { return nil }
        return Passphrase(copying: letters, count: letters.count)
    }
}
