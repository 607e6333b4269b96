@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Sync through Debian's lighttpd with mod_webdav (Tests/Support/lighttpd_server.py), which
/// refuses a PROPFIND whose body is not said to be XML: a place is made there, files are written
/// once and never replaced, and two machines sync through it, the server holding ciphertext only.
final class LighttpdSyncTests: XCTestCase {
    private let folder = TemporaryFolder()
    private var server: WebDAVServer!
    private let passphrase = "a long sync passphrase"

    override func setUpWithError() throws {
        server = try WebDAVServer(in: folder.file("server"), kind: .lighttpd)
    }

    override func tearDown() {
        server.stop()
    }

    private func place(_ path: String) throws -> WebDAVPlace {
        try WebDAVPlace(address: server.url(path), password: WebDAVServer.password, timeout: 10)
    }

    func testAPlaceIsMadeAndFilesAreWrittenOnceAndListed() throws {
        let place = try place("/dav/Flourish/")
        XCTAssertThrowsError(try place.prepare(create: false)) { XCTAssertEqual($0 as? SyncError, .missing(place: place.displayName)) }
        try place.prepare(create: true)
        try place.create("m1-00000001.batch", contents: Data("first".utf8))
        XCTAssertThrowsError(try place.create("m1-00000001.batch", contents: Data("second".utf8))) {
            XCTAssertEqual($0 as? SyncError, .fileExists(name: "m1-00000001.batch"))
        }
        XCTAssertEqual(try place.read("m1-00000001.batch"), Data("first".utf8))
        try place.create("name with spaces é.batch", contents: Data())
        XCTAssertEqual(Set(try place.list("")), ["m1-00000001.batch", "name with spaces é.batch"])
        try place.remove("m1-00000001.batch")
        XCTAssertEqual(try place.list(""), ["name with spaces é.batch"])
    }

    func testTwoMachinesSyncThroughLighttpdAndItStoresOnlyCiphertext() throws {
        let laptop = try SyncMachine(folder.file("laptop.sqlite")), desktop = try SyncMachine(folder.file("desktop.sqlite"))
        let shared = try laptop.save("Zanzibar morning", "Tea with Quetzalcoatl", .reallyGood, at: 1_000)
        _ = try desktop.save("Desk day", at: 2_000)
        let place = try place("/dav/Flourish/")
        (laptop.sync, _) = try JournalSync.setUp(laptop.store, at: place, passphrase: passphrase, cost: .interactive)
        try laptop.syncNow()
        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: place, passphrase: passphrase, cost: .interactive)
        try desktop.syncNow()
        _ = try desktop.edit(try XCTUnwrap(try desktop.entry(shared.uuid)), title: "Zanzibar morning, edited", at: 3_000)
        try desktop.syncNow()
        XCTAssertEqual(try laptop.syncNow().received, 2, "the desktop's entry and its edit")
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        let stored = (server.davFolder as NSString).appendingPathComponent("Flourish")
        let names = try FileManager.default.contentsOfDirectory(atPath: stored)
        XCTAssertFalse(names.isEmpty)
        for name in names {
            let data = try Data(contentsOf: URL(fileURLWithPath: (stored as NSString).appendingPathComponent(name)))
            for secret in ["Zanzibar", "Quetzalcoatl", "Desk day", passphrase, WebDAVServer.password] {
                XCTAssertNil(data.range(of: Data(secret.utf8)), "\(secret) in \(name)")
            }
        }
    }
}
