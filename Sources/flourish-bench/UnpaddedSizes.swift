import FlourishCore
import Foundation

/// What padding costs at a sync place: the bytes of its sealed files as they are, and as they
/// would be unpadded (each file's plaintext, opened with the key, plus the seal's 44 bytes).
/// The passphrase comes on standard input, as the app takes it.
enum UnpaddedSizes {
    /// Magic, nonce and tag around every sealed file.
    static let sealOverhead = 4 + 24 + 16

    static func measure(folder: String) throws -> [String: Int] {
        let passphrase = readLine(strippingNewline: true) ?? ""
        let keyFile = try KeyFile.read(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + KeyFile.name)), place: folder)
        let key = try keyFile.unwrap(passphrase: passphrase)
        var sealed = 0, unpadded = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".batch") || name.hasSuffix(".snapshot") {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            sealed += data.count
            unpadded += try key.open(data, name: name, journal: keyFile.journal).count + sealOverhead
        }
        return ["sealed_bytes": sealed, "unpadded_bytes": unpadded]
    }
}
