@testable import FlourishCore
import Foundation
import XCTest

/// The lock's passphrase as typed, in bytes of its own: counted by characters, compared byte for
/// byte, and a recovery key told apart from a passphrase without ever becoming a `String`.
final class PassphraseTests: XCTestCase {
    func testItCountsCharactersNotBytesAndComparesBytes() {
        let accented = Passphrase(bytes: Array("été à Zürich".utf8))
        XCTAssertEqual(accented.count, 16)
        XCTAssertEqual(accented.characterCount, 12)
        XCTAssertTrue(accented.isSame(as: Passphrase("été à Zürich")))
        XCTAssertFalse(accented.isSame(as: Passphrase("ete a Zurich")))
        XCTAssertTrue(Passphrase(bytes: []).isEmpty)
        XCTAssertEqual(Passphrase("🦦🦦").characterCount, 2)
    }

    func testARecoveryKeyIsToldApartAsTypedAndNormalizedInBytes() throws {
        let recoveryKey = RecoveryKey.random()
        let typed = Passphrase(" \(recoveryKey.lowercased().replacingOccurrences(of: "-", with: " - "))\t")
        let normalized = try XCTUnwrap(RecoveryKey.normalized(typed))
        // The form every recovery key was derived from: upper case, without its dashes.
        XCTAssertTrue(normalized.isSame(as: Passphrase(recoveryKey.replacingOccurrences(of: "-", with: ""))))
        XCTAssertNil(RecoveryKey.normalized(Passphrase("a passphrase of words")))
        XCTAssertNil(RecoveryKey.normalized(Passphrase(String(recoveryKey.dropLast()))))
    }

    /// Both forms derive the same key: a journal locked before opens with what is typed now.
    func testBytesAndTextDeriveTheSameKey() {
        let salt = Array(repeating: UInt8(7), count: Argon2id.saltLength)
        let (ops, memory) = KeyFile.Cost.interactive.limits
        XCTAssertEqual(Argon2id.derive(Passphrase(bytes: Array("gentle otters".utf8)), salt: salt, ops: ops, memory: memory),
                       Argon2id.derive("gentle otters", salt: salt, ops: ops, memory: memory))
    }
}
