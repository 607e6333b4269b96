import Foundation

/// The kinds of picture Flourish keeps, told by the first bytes of the file (not its name): a
/// photo renamed keeps its kind, and a text file named ".jpg" is not a photo.
public enum PhotoFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, heic

    /// The ending a file of this kind gets when it is written out.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .heic: "heic"
        }
    }

    /// The kind of picture `bytes` start with, or nil when they are not one of these.
    public static func of(_ bytes: Data) -> PhotoFormat? {
        let head = [UInt8](bytes.prefix(16))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        // ISO base media: a box "ftyp" whose brand is one of HEIF's (an iPhone's photo is "heic").
        if starts(Array("ftyp".utf8), at: 4), head.count >= 12,
           let brand = String(bytes: head[8..<12], encoding: .ascii),
           ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) {
            return .heic
        }
        return nil
    }
}
