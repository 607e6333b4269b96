import CGtk
import CSecret

/// The desktop's Secret Service (GNOME Keyring, KDE Wallet) through libsecret: where a synced
/// journal's key and WebDAV password are kept on this machine, never in a plain file. Each
/// secret is filed under the journal file it belongs to and what it is. Every call blocks on
/// D-Bus: call it off the GTK thread.
public enum Keyring {
    /// No Secret Service answered (none runs, or it refused): the caller asks the person instead.
    public struct Unavailable: Error, Sendable {
        public let reason: String
    }

    public static func store(_ secret: String, label: String, journal: String, kind: String) throws(Unavailable) {
        var error: UnsafeMutablePointer<GError>?
        let stored = flourish_secret_store(journal, kind, label, secret, &error)
        if stored == 0 { throw unavailable(error) }
    }

    /// The secret, or nil when none is kept for this journal. With `unlocking` false, a secret in
    /// a locked keyring is nil too: nothing asks the person to unlock it (for work in the
    /// background, which must never put a password prompt on screen).
    public static func lookup(journal: String, kind: String, unlocking: Bool = true) throws(Unavailable) -> String? {
        try withFound(journal: journal, kind: kind, unlocking: unlocking) { String(cString: $0) }
    }

    /// Runs `body` with the secret libsecret found (nil when none is kept), then has libsecret
    /// wipe and free it.
    private static func withFound<T>(journal: String, kind: String, unlocking: Bool,
                                     _ body: (UnsafeMutablePointer<CChar>) -> T) throws(Unavailable) -> T? {
        var error: UnsafeMutablePointer<GError>?
        let found = unlocking ? flourish_secret_lookup(journal, kind, &error) : flourish_secret_lookup_if_open(journal, kind, &error)
        guard let found else {
            if error != nil { throw unavailable(error) }
            return nil
        }
        // secret_password_free wipes the C copy before freeing it.
        defer { secret_password_free(found) }
        return body(found)
    }

    /// As `store`, the secret (text without NUL) given as bytes the caller owns and wipes: no
    /// Swift string ever holds it. The copy made here for libsecret is wiped too.
    public static func store(secret: [UInt8], label: String, journal: String, kind: String) throws(Unavailable) {
        var text = [CChar](repeating: 0, count: secret.count + 1)
        for (index, byte) in secret.enumerated() { text[index] = CChar(bitPattern: byte) }
        defer { explicit_bzero(&text, text.count) }
        var error: UnsafeMutablePointer<GError>?
        let stored = flourish_secret_store(journal, kind, label, text, &error)
        if stored == 0 { throw unavailable(error) }
    }

    /// As `lookup`, the secret handed to `body` as bytes, wiped afterwards (with libsecret's
    /// copy): no Swift string ever holds it. Nil when none is kept.
    public static func withSecret<T>(journal: String, kind: String, unlocking: Bool = true, _ body: ([UInt8]) -> T) throws(Unavailable) -> T? {
        try withFound(journal: journal, kind: kind, unlocking: unlocking) { found in
            var bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self), count: strlen(found)))
            defer { explicit_bzero(&bytes, bytes.count) }
            return body(bytes)
        }
    }

    public static func clear(journal: String, kind: String) throws(Unavailable) {
        var error: UnsafeMutablePointer<GError>?
        _ = flourish_secret_clear(journal, kind, &error)
        if error != nil { throw unavailable(error) }
    }

    private static func unavailable(_ error: UnsafeMutablePointer<GError>?) -> Unavailable {
        defer { if let error { g_error_free(error) } }
        return Unavailable(reason: error.map { String(cString: $0.pointee.message) } ?? "no Secret Service")
    }
}
