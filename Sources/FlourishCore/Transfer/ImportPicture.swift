import Foundation

/// Whether a file an import names is a picture Flourish keeps: one of its kinds by its first
/// bytes, at most `byteLimit` unpacked, a header (within its first `headLength` bytes) giving a
/// size of at most `pixelLimit` pixels, and then pixels that decode (`decoder`). The header is
/// asked before any of it is read whole: a file that is no picture, or one made to be enormous
/// (a 60,000 × 60,000 PNG, gigabytes behind a JPEG's first bytes), is left behind and named,
/// never stored or thumbnailed.
public enum ImportPicture {
    static let byteLimit = 256 << 20
    static let pixelLimit = 100_000_000
    /// How much of a file is read for its header: a JPEG's size comes after its EXIF block.
    static let headLength = 256 << 10

    static func isKeepable(_ member: String, in files: any ImportFiles) -> Bool {
        guard let size = files.size(of: member), size <= UInt64(byteLimit),
              let head = files.head(of: member, count: headLength), PhotoFormat.of(head) != nil else { return false }
        // A header that does not say its size (within its first 256 KiB) is no picture to keep:
        // its pixels would be decoded blind.
        guard let (width, height) = dimensions(of: head) else { return false }
        // Divided, not multiplied: a header may claim 4,294,967,295 a side.
        guard width > 0, height > 0, width <= pixelLimit / height else { return false }
        guard let decodes = decoder.check else { return true }
        guard let data = try? files.data(of: member, limit: byteLimit) else { return false }
        return decodes(data)
    }

    /// Whether a picture's pixels decode, given its bytes: the app's picture reader, set once as
    /// it starts (the core reads no pixels). Until it is set, the header decides alone.
    public static var decoder: PictureDecoder {
        get { decoderLock.withLock { installed } }
        set { decoderLock.withLock { installed = newValue } }
    }

    private static let decoderLock = NSLock()
    nonisolated(unsafe) private static var installed = PictureDecoder(check: nil)

    /// The width and height a picture's header gives, when it gives them in `head`: PNG's IHDR,
    /// a JPEG's first frame header, a WebP's VP8, VP8L or VP8X chunk, a HEIF's "ispe" property.
    static func dimensions(of head: Data) -> (Int, Int)? {
        let bytes = [UInt8](head)
        func big16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func big32(_ at: Int) -> Int { big16(at) << 16 | big16(at + 2) }
        func little16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func little24(_ at: Int) -> Int { little16(at) | Int(bytes[at + 2]) << 16 }
        switch PhotoFormat.of(head) {
        case .png?:
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
            return (big32(16), big32(20))
        case .jpeg?:
            var at = 2
            while at + 9 < bytes.count {
                guard bytes[at] == 0xFF else { return nil }
                let marker = bytes[at + 1]
                if marker == 0xFF { at += 1; continue }
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }
                // Start of frame (not DHT, JPG or DAC, which share the range): height, then width.
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return (big16(at + 7), big16(at + 5))
                }
                if marker == 0xDA || marker == 0xD9 { return nil }
                at += 2 + big16(at + 2)
            }
            return nil
        case .webp?:
            guard bytes.count >= 30 else { return nil }
            switch String(decoding: bytes[12..<16], as: UTF8.self) {
            case "VP8X": return (little24(24) + 1, little24(27) + 1)
            case "VP8L":
                let bits = Int(bytes[21]) | Int(bytes[22]) << 8 | Int(bytes[23]) << 16 | Int(bytes[24]) << 24
                return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
            case "VP8 ": return (little16(26) & 0x3FFF, little16(28) & 0x3FFF)
            default: return nil
            }
        case .heic?:
            // HEIF keeps each image's size in an "ispe" property: version and flags, width, height.
            guard let box = head.range(of: Data("ispe".utf8)), box.upperBound + 12 <= head.count else { return nil }
            let at = box.upperBound - head.startIndex
            return (big32(at + 4), big32(at + 8))
        case nil:
            return nil
        }
    }
}

/// Which files of one import are pictures to keep, each asked of `ImportPicture` once however
/// many entries name it: the question reads its header and decodes its pixels.
struct KeepablePictures {
    private var known: [String: Bool] = [:]

    mutating func contains(_ member: String, in files: (any ImportFiles)?) -> Bool {
        if let answer = known[member] { return answer }
        let answer = files.map { ImportPicture.isKeepable(member, in: $0) } ?? false
        known[member] = answer
        return answer
    }
}

/// What tells whether a picture's bytes decode (see `ImportPicture.decoder`).
public struct PictureDecoder: Sendable {
    public let check: (@Sendable (Data) -> Bool)?

    public init(check: (@Sendable (Data) -> Bool)?) { self.check = check }
}
