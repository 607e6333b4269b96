import Foundation

/// Pads what is sealed so that a file's size tells no more than a bucket: a one-entry batch of
/// twenty characters and one of two thousand are the same size at the place. Up to 64 KiB, the
/// next multiple of 4 KiB. Above, Padmé (Nikitin et al., "Reducing Metadata Leakage from
/// Encrypted Files and Communication with PURBs", 2019): a size of 2^E bytes is rounded up to a
/// multiple of 2^(E - ⌊log2 E⌋ - 1), so it says no more than a power of two does, O(log log M)
/// bits, at a cost of at most 12% (a power of two costs up to half: a ten-year journal's place
/// was half again as large). The padding is ISO/IEC 7816-4's: one 0x80 byte, then zeros, so it
/// comes off unambiguously, after the seal was checked.
enum SyncPadding {
    static let block = 4096
    static let blocksUpTo = 64 * 1024
    /// The largest padded plaintext: what is sealed stays under `SyncLimits.largestFile`.
    static let largest = 256 << 20

    /// The size `count` bytes are padded to (at least one byte more, for the marker).
    static func bucket(_ count: Int) -> Int {
        let needed = count + 1
        if needed <= blocksUpTo { return (needed + block - 1) / block * block }
        let exponent = Int.bitWidth - 1 - needed.leadingZeroBitCount
        let bitsOfExponent = Int.bitWidth - exponent.leadingZeroBitCount
        let mask = (1 << (exponent - bitsOfExponent)) - 1
        return (needed + mask) & ~mask
    }

    /// Pads, where they lie, the first `count` bytes of `buffer` to the whole buffer (a bucket's
    /// size): the marker, then zeros. A photo is padded without being copied again.
    static func pad(_ buffer: UnsafeMutableBufferPointer<UInt8>, after count: Int) {
        buffer[count] = 0x80
        UnsafeMutableBufferPointer(rebasing: buffer[(count + 1)...]).update(repeating: 0)
    }

    /// Takes the padding off `padded`, where it lies, after the seal was checked; false (and
    /// `padded` as it was) when there is no marker.
    static func unpad(_ padded: inout Data) -> Bool {
        let marker = padded.withUnsafeBytes { bytes -> Int? in
            guard let last = bytes.lastIndex(where: { $0 != 0 }), bytes[last] == 0x80 else { return nil }
            return last
        }
        guard let marker else { return false }
        padded.count = marker
        return true
    }
}
