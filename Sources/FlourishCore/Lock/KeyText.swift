import CSodium

/// A key as the text the desktop's keyring keeps (standard base64, as it always was), made and
/// read in buffers wiped after use: a key never sits in a Swift string, which nothing wipes.
enum KeyText {
    /// Runs `body` with `key` as base64 text (bytes, no NUL), wiped afterwards.
    static func withText<T, E: Error>(of key: [UInt8], _ body: ([UInt8]) throws(E) -> T) throws(E) -> T {
        Sodium.ready()
        let variant = Int32(sodium_base64_VARIANT_ORIGINAL)
        var text = [CChar](repeating: 0, count: sodium_base64_encoded_len(key.count, variant))
        defer { sodium_memzero(&text, text.count) }
        _ = sodium_bin2base64(&text, text.count, key, key.count, variant)
        var bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        defer { sodium_memzero(&bytes, bytes.count) }
        return try body(bytes)
    }

    /// The key of `length` bytes the base64 `text` holds, for the caller to wipe; nil for
    /// anything else.
    static func key(from text: [UInt8], length: Int) -> [UInt8]? {
        Sodium.ready()
        var key = [UInt8](repeating: 0, count: length)
        var decodedLength = 0
        let status = text.withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { characters in
                sodium_base642bin(&key, key.count, characters.baseAddress, characters.count, nil, &decodedLength, nil,
                                  Int32(sodium_base64_VARIANT_ORIGINAL))
            }
        }
        guard status == 0, decodedLength == length else {
            sodium_memzero(&key, key.count)
            return nil
        }
        return key
    }
}
