@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Sync through a real WebDAV server (Apache httpd with mod_dav_fs and Basic authentication on
/// 127.0.0.1, started for each test): the place's operations, what the server answers when it
/// refuses, what a hostile server cannot make Flourish do (send the password elsewhere, hold more
/// than sync reads), and two machines syncing through it, with what the server stores read byte
/// for byte.
final class WebDAVSyncTests: XCTestCase {
    private let folder = TemporaryFolder()
    private var server: WebDAVServer!
    private let passphrase = "a long sync passphrase"

    override func setUpWithError() throws {
        server = try WebDAVServer(in: folder.file("server"))
    }

    override func tearDown() {
        server.stop()
    }

    private func place(_ path: String, password: String = WebDAVServer.password) throws -> WebDAVPlace {
        try WebDAVPlace(address: server.url(path), password: password, timeout: 10)
    }

    func testACollectionIsMadeWhereItsParentIsAndFilesAreWrittenOnceAndNeverReplaced() throws {
        let place = try place("/dav/Flourish/")
        XCTAssertEqual(place.displayName, server.url("/dav/Flourish/"), "the address with its user, never the password")
        XCTAssertThrowsError(try place.prepare(create: false)) { XCTAssertEqual($0 as? SyncError, .missing(place: place.displayName)) }
        try place.prepare(create: true)
        XCTAssertTrue(FileManager.default.fileExists(atPath: (server.davFolder as NSString).appendingPathComponent("Flourish")), "MKCOL")

        let deep = try self.place("/dav/no/such/Flourish/")
        XCTAssertThrowsError(try deep.prepare(create: true)) { XCTAssertEqual($0 as? SyncError, .missing(place: deep.displayName)) }

        try place.create("m1-00000001.batch", contents: Data("first".utf8))
        XCTAssertThrowsError(try place.create("m1-00000001.batch", contents: Data("second".utf8))) {
            XCTAssertEqual($0 as? SyncError, .fileExists(name: "m1-00000001.batch"), "If-None-Match: * refused the PUT")
        }
        XCTAssertEqual(try place.read("m1-00000001.batch"), Data("first".utf8))
        XCTAssertNil(try place.read("m1-00000002.batch"))
        try place.create("name with spaces é.batch", contents: Data())
        XCTAssertEqual(Set(try place.list("")), ["m1-00000001.batch", "name with spaces é.batch"], "collections and the place itself left out")
        XCTAssertEqual(try place.read("name with spaces é.batch"), Data())
    }

    /// The requests go through the helper process, the one part of Flourish that links a network
    /// stack: the password reaches it on its socket alone, never its command line or environment.
    func testTheHelperMakesTheRequestsAndItsCommandLineAndEnvironmentHoldNoPassword() throws {
        let helper = WebDAVHelper()
        let place = try WebDAVPlace(address: server.url("/dav/"), password: WebDAVServer.password, timeout: 10, helper: helper)
        XCTAssertEqual(helper.processID, 0, "no helper before the first request")
        try place.prepare(create: true)
        let process = helper.processID
        XCTAssertNotEqual(process, 0, "the request was made by the helper")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process)/exe")
        XCTAssertEqual((executable as NSString).lastPathComponent, "flourish-webdav")
        for part in ["cmdline", "environ"] {
            let written = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(process)/\(part)"))
            XCTAssertNil(written.range(of: Data(WebDAVServer.password.utf8)), "the password is not in the helper's \(part)")
        }
        try place.create("one.batch", contents: Data("one".utf8))
        XCTAssertEqual(helper.processID, process, "one helper for the place's requests")
    }

    /// Without its helper, a WebDAV place says so, and nothing else happens.
    func testAMissingHelperIsSaidInWords() throws {
        let place = try WebDAVPlace(address: server.url("/dav/"), password: WebDAVServer.password, timeout: 10,
                                    helper: WebDAVHelper(path: folder.file("no-such-helper")))
        XCTAssertThrowsError(try place.prepare(create: true)) { error in
            guard case .unreachable(_, let reason)? = error as? SyncError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("flourish-webdav"), reason)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: (server.davFolder as NSString).appendingPathComponent("Flourish")))
    }

    func testEachRefusalOfTheServerIsSaidInWords() throws {
        XCTAssertThrowsError(try place("/dav/", password: "not it").prepare(create: true)) {
            XCTAssertEqual($0 as? SyncError, .wrongPassword(place: server.url("/dav/")))
        }
        let readOnly = try place("/readonly/")
        XCTAssertNoThrow(try readOnly.prepare(create: false))
        XCTAssertThrowsError(try readOnly.create("x.batch", contents: Data())) {
            XCTAssertEqual($0 as? SyncError, .permissionDenied(place: readOnly.displayName))
        }
        // 503 at every try: a busy server, tried twice here (four times, waiting, in the app).
        let broken = try WebDAVPlace(address: server.url("/broken/"), password: WebDAVServer.password, timeout: 10,
                                     helper: WebDAVHelper(), busy: BusyServer(tries: 2, firstWait: 0.1))
        XCTAssertThrowsError(try broken.prepare(create: true)) {
            XCTAssertEqual($0 as? SyncError, .busy(place: server.url("/broken/")))
        }
        XCTAssertThrowsError(try WebDAVPlace(address: "https://anna:secret@cloud.example.org/dav/", password: "")) { error in
            XCTAssertFalse((error as? SyncError)?.errorDescription?.contains("secret") ?? true, "a password in the address is refused, not repeated")
        }
        XCTAssertThrowsError(try WebDAVPlace(address: "http://anna@cloud.example.org/dav/", password: "")) { error in
            XCTAssertTrue((error as? SyncError)?.errorDescription?.contains("https://") ?? false, "\(error)")
        }
        let place = try place("/dav/")
        server.stop()
        XCTAssertThrowsError(try place.list("")) { error in
            guard case .unreachable(let where_, _)? = error as? SyncError else { return XCTFail("\(error)") }
            XCTAssertEqual(where_, place.displayName, "a server gone away is unreachable: offline, not an error of the journal")
        }
    }

    func testTwoMachinesSyncThroughTheServerAndItStoresOnlyCiphertext() throws {
        let laptop = try SyncMachine(folder.file("laptop.sqlite")), desktop = try SyncMachine(folder.file("desktop.sqlite"))
        let shared = try laptop.save("Zanzibar morning", "Tea with Quetzalcoatl", .reallyGood, at: 1_000)
        _ = try desktop.save("Desk day", at: 2_000)
        let place = try place("/dav/Flourish/")
        (laptop.sync, _) = try JournalSync.setUp(laptop.store, at: place, passphrase: passphrase, cost: .interactive)
        try laptop.syncNow()

        // A wrong password, then a wrong passphrase: refused, nothing changed at the server.
        let stored = { try FileManager.default.contentsOfDirectory(atPath: (self.server.davFolder as NSString).appendingPathComponent("Flourish")).sorted() }
        let before = try stored()
        XCTAssertThrowsError(try JournalSync.setUp(desktop.store, at: try self.place("/dav/Flourish/", password: "nope"), passphrase: passphrase))
        XCTAssertThrowsError(try JournalSync.setUp(desktop.store, at: place, passphrase: "not the passphrase"))
        XCTAssertEqual(try stored(), before)
        XCTAssertNil(try desktop.store.syncState())

        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: place, passphrase: passphrase)
        try desktop.syncNow()
        _ = try desktop.edit(try XCTUnwrap(try desktop.entry(shared.uuid)), title: "Zanzibar morning, edited", at: 3_000)
        try desktop.syncNow()
        XCTAssertEqual(try laptop.syncNow().received, 2, "the desktop's entry and its edit")
        XCTAssertEqual(try laptop.contents(), try desktop.contents())
        XCTAssertEqual(try laptop.entry(shared.uuid)?.title, "Zanzibar morning, edited")

        for name in try stored() {
            let data = try Data(contentsOf: URL(fileURLWithPath: (server.davFolder as NSString).appendingPathComponent("Flourish/\(name)")))
            for secret in ["Zanzibar", "Quetzalcoatl", "Desk day", passphrase, WebDAVServer.password, "work"] {
                XCTAssertNil(data.range(of: Data(secret.utf8)), "\(secret) in \(name)")
            }
        }
        XCTAssertEqual(try laptop.syncNow(), SyncReport(), "nothing to do: one PROPFIND, no file read or written")
    }

    func testOldFilesAreRemovedThroughTheServerAndAFullServerIsSaidInWordsAndLosesNothing() throws {
        let laptop = try SyncMachine(folder.file("laptop.sqlite")), desktop = try SyncMachine(folder.file("desktop.sqlite"))
        _ = try laptop.save("First", at: 1_000)
        let place = try place("/dav/Flourish/")
        let (sync, _) = try JournalSync.setUp(laptop.store, at: place, passphrase: passphrase, cost: .interactive)
        sync.snapshotEvery = 2
        laptop.sync = sync
        try laptop.syncNow()
        _ = try laptop.save("Second", at: 2_000)
        try laptop.syncNow()
        let id = try XCTUnwrap(try laptop.store.syncState()).machine
        let stored = { try FileManager.default.contentsOfDirectory(atPath: (self.server.davFolder as NSString).appendingPathComponent("Flourish")).sorted() }
        XCTAssertEqual(try stored(), ["\(id)-00000002.snapshot", "flourish-sync.json"], "both batches removed with DELETE once the snapshot held them")

        // The server's quota is used up: the sync says so, and nothing is lost here or there.
        _ = try laptop.save("Written while the server is full", at: 3_000)
        let fullAddress = server.url("/full/Flourish/")
        let full = try JournalSync.open(laptop.store, at: try self.place("/full/Flourish/"), key: sync.journalKey)
        XCTAssertThrowsError(try full.sync()) { error in
            XCTAssertEqual(error as? SyncError, .full(place: fullAddress))
            XCTAssertEqual((error as? SyncError)?.errorDescription, "\(fullAddress) is full. Make room there; nothing was lost.")
        }
        XCTAssertEqual(try stored(), ["\(id)-00000002.snapshot", "flourish-sync.json"])
        XCTAssertEqual(try laptop.syncNow().sent, 1, "sent once there is room")

        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: place, passphrase: passphrase, cost: .interactive)
        try desktop.syncNow()
        XCTAssertEqual(try desktop.contents(), try laptop.contents())
        XCTAssertEqual(try desktop.contents().count, 3)
    }

    // MARK: - A hostile server

    func testARedirectIsRefusedAndThePasswordGoesNowhereElse() throws {
        for path in ["/moved/Flourish/", "/moved-permanently/Flourish/"] {
            let place = try place(path)
            let operations: [(String, () throws -> Void)] = [
                ("prepare (PROPFIND)", { try place.prepare(create: true) }),
                ("list (PROPFIND)", { _ = try place.list("") }),
                ("read (GET)", { _ = try place.read("m1-00000001.batch") }),
                ("create (PUT)", { try place.create("m1-00000001.batch", contents: Data("first".utf8)) }),
                ("create in a folder (MKCOL)", { try place.create("old/m1-00000002.batch", contents: Data("second".utf8)) }),
                ("remove (DELETE)", { try place.remove("m1-00000001.batch") }),
            ]
            for (operation, run) in operations {
                XCTAssertThrowsError(try run(), "\(operation) at \(path)") { error in
                    let expected = "the server sent Flourish elsewhere, to \(server.elsewhere); "
                        + "Flourish follows no redirect, so the password went nowhere else"
                    XCTAssertEqual(error as? SyncError, .unreachable(place: place.displayName, reason: expected), "\(operation) at \(path)")
                    let words = (error as? SyncError)?.errorDescription ?? ""
                    XCTAssertFalse(words.contains(WebDAVServer.password) || words.contains("token"), words)
                }
            }
        }
        let log = try String(contentsOfFile: server.elsewhereLog, encoding: .utf8)
        XCTAssertFalse(log.contains("Basic"), "the password was sent elsewhere:\n\(log)")
        XCTAssertEqual(log, "", "not one request went elsewhere, with the password or without")
    }

    func testAFileLargerThanSyncReadsIsRefusedAtItsLength() throws {
        let place = try place("/dav/Flourish/")
        try place.prepare(create: true)
        // Sparse: 300 MiB that cost the disk nothing; Apache announces them in Content-Length.
        let path = (server.davFolder as NSString).appendingPathComponent("Flourish/m1-00000001.batch")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.truncate(atOffset: 300 << 20)
        try file.close()

        let started = Date()
        let grown = try memoryGrown {
            XCTAssertThrowsError(try place.read("m1-00000001.batch")) {
                XCTAssertEqual($0 as? SyncError, .skippedFile(name: "m1-00000001.batch"))
            }
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "refused on the length announced, not after reading")
        XCTAssertLessThan(grown, 64 << 20, "bytes held in memory")
    }

    func testAnAnswerThatNeverEndsIsCutOffAtTheLimit() throws {
        // /endless/ answers everything with a chunked body, no Content-Length, 1 GiB long.
        let place = try place("/endless/Flourish/")
        let grown = try memoryGrown {
            XCTAssertThrowsError(try place.read("m1-00000001.batch")) {
                XCTAssertEqual($0 as? SyncError, .skippedFile(name: "m1-00000001.batch"))
            }
        }
        XCTAssertLessThan(grown, SyncLimits.largestFile + 128 << 20, "bytes held in memory: the limit and no more")
        XCTAssertThrowsError(try place.list("")) { XCTAssertEqual($0 as? SyncError, .notAJournal(place: place.displayName)) }
        XCTAssertThrowsError(try place.prepare(create: true)) { XCTAssertEqual($0 as? SyncError, .notAJournal(place: place.displayName)) }
        XCTAssertThrowsError(try place.remove("m1-00000001.batch")) { error in
            guard case .unreachable(let shown, _)? = error as? SyncError else { return XCTFail("\(error)") }
            XCTAssertEqual(shown, place.displayName)
        }
    }

    /// How far the process's peak resident memory rose while `body` ran. The peak is reset first
    /// (Linux's clear_refs), so an earlier test's peak hides nothing.
    private func memoryGrown(_ body: () throws -> Void) throws -> Int {
        func kibibytes(_ field: String) throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
            return try XCTUnwrap(Int(line.split(whereSeparator: \.isWhitespace)[1]))
        }
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = try kibibytes("VmRSS")
        try body()
        return (try kibibytes("VmHWM") - before) * 1024
    }

    /// Photos through the real server: each stored on its own under photos/, read back byte for
    /// byte by the other machine; nothing the server stores shows a picture or its EXIF.
    func testPhotosTravelThroughTheServerSealed() throws {
        let laptop = try SyncMachine(folder.file("laptop.sqlite")), desktop = try SyncMachine(folder.file("desktop.sqlite"))
        let picture = PhotoStoreTests.picture(77, size: 300_000)
        let photo = try laptop.store.addPhoto(picture, fileName: "IMG_0077.jpg")
        let entry = try laptop.store.save(try EntryDraft(title: "Harbour", mood: .theBest, photos: [photo]).validated().get(), createdAt: Date())
        let place = try place("/dav/Flourish/")
        (laptop.sync, _) = try JournalSync.setUp(laptop.store, at: place, passphrase: passphrase, cost: .interactive)
        XCTAssertEqual(try laptop.syncNow().photosSent, 1)
        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: place, passphrase: passphrase)
        XCTAssertEqual(try desktop.syncNow().photosReceived, 1)
        let arrived = try XCTUnwrap(try desktop.entry(entry.uuid))
        XCTAssertEqual(try desktop.store.photo(try XCTUnwrap(arrived.photos.first)), picture, "byte for byte")

        let photos = (server.davFolder as NSString).appendingPathComponent("Flourish/photos")
        let stored = try FileManager.default.contentsOfDirectory(atPath: photos)
        XCTAssertEqual(stored.count, 1)
        for name in stored {
            let data = try Data(contentsOf: URL(fileURLWithPath: (photos as NSString).appendingPathComponent(name)))
            XCTAssertFalse(data.starts(with: [0xFF, 0xD8, 0xFF]), "no JPEG header")
            XCTAssertNil(data.range(of: Data("FLOURISH-EXIF-MARKER".utf8)), "no EXIF text")
            XCTAssertNil(data.range(of: picture.dropFirst(64).prefix(64)), "none of the picture's bytes")
        }
        XCTAssertEqual(try laptop.syncNow().photosSent, 0, "sent once")
    }
}
