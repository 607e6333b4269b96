import CSodium

/// Argon2id (libsodium's `crypto_pwhash`): a key from a passphrase, costly on purpose, so that
/// trying passphrases against a stolen key file is slow. Sync's key file and the lock's use it.
enum Argon2id {
    /// A 32-byte key from the passphrase's UTF-8 bytes, exactly as typed; nil only when the
    /// machine has not the memory the cost asks for. The caller wipes the result.
    static func derive(_ passphrase: String, salt: [UInt8], ops: UInt64, memory: UInt64) -> [UInt8]? {
        derive(Passphrase(passphrase), salt: salt, ops: ops, memory: memory)
    }

    /// The same from bytes that never were a `String` (the lock's passphrase as typed).
    static func derive(_ passphrase: Passphrase, salt: [UInt8], ops: UInt64, memory: UInt64) -> [UInt8]? {
        Sodium.ready()
        var derived = [UInt8](repeating: 0, count: JournalKey.length)
        let status = passphrase.withBytes { secret in
            // Never empty of an address: a Passphrase keeps one byte at least.
            crypto_pwhash(&derived, UInt64(derived.count), secret.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(secret.count),
                          salt, ops, Int(memory), crypto_pwhash_alg_argon2id13())
        }
        return status == 0 ? derived : nil
    }

    static var saltLength: Int { Int(crypto_pwhash_saltbytes()) }
}
