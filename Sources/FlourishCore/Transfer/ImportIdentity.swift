import Foundation

/// Identities for imported entries, the same in every import of the same file, so that
/// importing it again finds each entry already there: made from the source's own id where it
/// has one, else from what the entry holds.
enum ImportIdentity {
    /// A UUID made from `parts` (two 64-bit FNV-1a hashes).
    static func uuid(_ parts: [String]) -> String {
        var high: UInt64 = 0xcbf29ce484222325, low: UInt64 = 0x84222325cbf29ce4
        func add(_ byte: UInt8) {
            high = (high ^ UInt64(byte)) &* 0x100000001b3
            low = (low ^ UInt64(byte)) &* 0x100000001b3
        }
        for (index, part) in parts.enumerated() {
            if index > 0 { add(0x1F) }
            for byte in part.utf8 { add(byte) }
        }
        // RFC 9562 version 8 (made by its own rule), variant 10.
        high = (high & ~0xF000) | 0x8000
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for nibble in 0..<32 {
            if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 { text.append(UInt8(ascii: "-")) }
            let word = nibble < 16 ? high : low
            text.append(digits[Int((word >> UInt64(60 - (nibble % 16) * 4)) & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
