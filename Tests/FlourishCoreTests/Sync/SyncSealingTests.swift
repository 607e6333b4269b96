import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// What leaves the machine: files sealed by the journal key, the key wrapped by the passphrase.
/// Each test reads the bytes as written and tries what a place could do to them.
final class SyncSealingTests: XCTestCase {
    private let journal = "3f1c8a52-0b7e-4d1e-9a55-7c2f4e1d9b60"
    private let words = Data("Walked by the sea with Anna. Mood: really good. #outdoors".utf8)

    func testASealedFileOpensOnlyWithItsKeyUnderItsNameInItsJournal() throws {
        let key = JournalKey.random()
        let sealed = try key.seal(words, name: "m1/00000001.batch", journal: journal)
        XCTAssertEqual(try key.open(sealed, name: "m1/00000001.batch", journal: journal), words)
        XCTAssertNil(sealed.range(of: Data("sea".utf8)), "no word of the plaintext in what is written")
        XCTAssertNil(sealed.range(of: Data("Anna".utf8)))
        XCTAssertNotEqual(sealed, try key.seal(words, name: "m1/00000001.batch", journal: journal), "a new nonce each time")

        XCTAssertThrowsError(try key.open(sealed, name: "m1/00000002.batch", journal: journal)) {
            XCTAssertEqual($0 as? SyncError, .refusedFile(name: "m1/00000002.batch"), "moved to another name")
        }
        XCTAssertThrowsError(try key.open(sealed, name: "m1/00000001.batch", journal: "another journal"), "from another journal")
        XCTAssertThrowsError(try JournalKey.random().open(sealed, name: "m1/00000001.batch", journal: journal), "another key")
        var changed = sealed
        changed[changed.count / 2] ^= 0x01
        XCTAssertThrowsError(try key.open(changed, name: "m1/00000001.batch", journal: journal), "one bit changed")
        XCTAssertThrowsError(try key.open(sealed.dropLast(1), name: "m1/00000001.batch", journal: journal), "cut short")
        XCTAssertThrowsError(try key.open(sealed.prefix(20), name: "m1/00000001.batch", journal: journal), "cut to its start")
        XCTAssertThrowsError(try key.open(Data(), name: "m1/00000001.batch", journal: journal), "empty")
    }

    func testTheKeyFileHoldsTheKeyOnlyWrappedAndOpensOnlyWithThePassphrase() throws {
        let key = JournalKey.random()
        let passphrase = "correct horse battery staple ünïcode"
        let file = try KeyFile(wrapping: key, journal: journal, passphrase: passphrase, cost: .interactive)
        let written = file.encoded()
        XCTAssertNil(written.range(of: Data(passphrase.utf8)), "the passphrase is never written")
        XCTAssertNil(written.range(of: Data("correct horse".utf8)))
        let read = try KeyFile.read(written, place: "/place")
        XCTAssertEqual(read.journal, journal)
        XCTAssertEqual(read.kdf, "argon2id13")
        XCTAssertEqual(try read.unwrap(passphrase: passphrase), key)
        // The key's own bytes are nowhere in the file, raw or in Base64.
        let sealed = try key.seal(words, name: "probe", journal: journal)
        XCTAssertEqual(try read.unwrap(passphrase: passphrase).open(sealed, name: "probe", journal: journal), words)

        for wrong in ["correct horse battery staple ünicode", "", "Correct horse battery staple ünïcode"] {
            XCTAssertThrowsError(try read.unwrap(passphrase: wrong)) { XCTAssertEqual($0 as? SyncError, .wrongPassphrase) }
        }
        // A key file whose journal id was changed no longer unwraps: the id is bound in.
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: written) as? [String: Any])
        json["journal"] = "another journal"
        let edited = try KeyFile.read(try JSONSerialization.data(withJSONObject: json), place: "/place")
        XCTAssertThrowsError(try edited.unwrap(passphrase: passphrase)) { XCTAssertEqual($0 as? SyncError, .wrongPassphrase) }
    }

    func testTheKeyTheKeyringKeepsIsTheBase64ItAlwaysWasAndOnlyAKey() throws {
        let key = JournalKey.random()
        let text = key.withExported { $0 }
        // Keyrings already keep keys written as Foundation's base64: they read back the same.
        let before = Data(base64Encoded: String(decoding: text, as: UTF8.self)).map { Array($0) }
        XCTAssertEqual(JournalKey(exported: text), key)
        XCTAssertEqual(before.flatMap { JournalKey(exported: Array(Data($0).base64EncodedString().utf8)) }, key)
        XCTAssertNil(JournalKey(exported: Array("not a key".utf8)))
        XCTAssertNil(JournalKey(exported: Array(Data(repeating: 7, count: 16).base64EncodedString().utf8)), "a key is 32 bytes")
    }

    func testAKeyFileFromANewerFlourishOrSomethingElseIsRefused() throws {
        let written = try KeyFile(wrapping: .random(), journal: journal, passphrase: "p", cost: .interactive).encoded()
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: written) as? [String: Any])
        json["version"] = 2
        XCTAssertThrowsError(try KeyFile.read(try JSONSerialization.data(withJSONObject: json), place: "/place")) {
            XCTAssertEqual($0 as? SyncError, .newerFormat(place: "/place"))
        }
        for other in [Data("hello".utf8), Data(), Data("{\"format\":\"something-else\"}".utf8), written.prefix(40)] {
            XCTAssertThrowsError(try KeyFile.read(other, place: "/place")) {
                XCTAssertEqual($0 as? SyncError, .notAJournal(place: "/place"))
            }
        }
        // A cost no Flourish writes (here 64 GiB of memory) is refused, not tried.
        json["version"] = 1
        json["memlimit"] = 64 << 30
        let costly = try KeyFile.read(try JSONSerialization.data(withJSONObject: json), place: "/place")
        XCTAssertThrowsError(try costly.unwrap(passphrase: "p")) { XCTAssertEqual($0 as? SyncError, .wrongPassphrase) }
    }

    func testEveryMessageSaysWhatToDoAndCarriesNoSecret() {
        let errors: [SyncError] = [.unreachable(place: "/p", reason: "timed out"), .missing(place: "/p"), .permissionDenied(place: "/p"),
                                   .full(place: "/p"), .notAJournal(place: "/p"), .newerFormat(place: "/p"), .wrongPassphrase,
                                   .refusedFile(name: "m1/00000001.batch"), .fileExists(name: "x"), .other(reason: "r")]
        for error in errors {
            let message = error.errorDescription ?? ""
            XCTAssertFalse(message.isEmpty, "\(error)")
            XCTAssertTrue(message.hasSuffix("."), "a whole sentence: \(message)")
        }
        XCTAssertTrue(SyncError.refusedFile(name: "m1/00000001.batch").errorDescription!.contains("m1/00000001.batch"), "names the file")
    }
}
