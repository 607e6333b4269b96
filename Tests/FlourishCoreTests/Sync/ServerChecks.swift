@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// What every WebDAV server from Debian is put through, beside Apache (`WebDAVSyncTests`): each
/// server's own test class (`LighttpdSyncTests`, `NginxSyncTests`, `RcloneSyncTests`) runs these
/// against its real server, on 127.0.0.1.
struct ServerChecks {
    let server: WebDAVServer
    let folder: TemporaryFolder
    let passphrase = "a long sync passphrase"

    func place(_ path: String) throws -> WebDAVPlace {
        try WebDAVPlace(address: server.url(path), password: WebDAVServer.password, timeout: 10)
    }

    /// A place is made (with MKCOL's trailing slash, which nginx needs), files are written, read,
    /// listed with their names decoded, and removed. A second write of one name is refused where
    /// the server honours `If-None-Match: *`; nginx and rclone replace the file, which sync never
    /// relies on (`placedFilesAreNeverWrittenOver`).
    func placeIsMadeAndFilesAreWrittenReadAndListed(_ kind: WebDAVServer.Kind) throws {
        let place = try place("/dav/Flourish/")
        XCTAssertThrowsError(try place.prepare(create: false)) { XCTAssertEqual($0 as? SyncError, .missing(place: place.displayName)) }
        try place.prepare(create: true)
        try place.prepare(create: false)
        try place.create("m1-00000001.batch", contents: Data("first".utf8))
        if kind.keepsFilesOnce {
            XCTAssertThrowsError(try place.create("m1-00000001.batch", contents: Data("second".utf8))) {
                XCTAssertEqual($0 as? SyncError, .fileExists(name: "m1-00000001.batch"))
            }
        }
        XCTAssertEqual(try place.read("m1-00000001.batch"), Data("first".utf8))
        try place.create("name with spaces é @.batch", contents: Data())
        // In a folder of its own, made first (nginx refuses a PUT into a missing folder).
        try place.create("photos/abc.photo", contents: Data("photo".utf8))
        XCTAssertEqual(Set(try place.list("")), ["m1-00000001.batch", "name with spaces é @.batch"])
        XCTAssertEqual(try place.list("photos"), ["abc.photo"])
        XCTAssertEqual(try place.read("photos/abc.photo"), Data("photo".utf8))
        try place.remove("m1-00000001.batch")
        XCTAssertEqual(try place.list(""), ["name with spaces é @.batch"])
        XCTAssertNil(try place.read("m1-00000001.batch"))
    }

    /// Two machines set up, sync entries and an edit both ways; the server holds ciphertext only.
    func twoMachinesSyncAndTheServerHoldsOnlyCiphertext() throws {
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
        for name in names where name != "photos" {
            let data = try Data(contentsOf: URL(fileURLWithPath: (stored as NSString).appendingPathComponent(name)))
            for secret in ["Zanzibar", "Quetzalcoatl", "Desk day", passphrase, WebDAVServer.password] {
                XCTAssertNil(data.range(of: Data(secret.utf8)), "\(secret) in \(name)")
            }
        }
    }

    /// A photo goes up sealed (into the place's photos folder, made first) and comes down byte
    /// for byte; a snapshot's batches are removed with DELETE once it holds them.
    func photosTravelAndOldFilesAreRemoved() throws {
        let laptop = try SyncMachine(folder.file("laptop.sqlite")), desktop = try SyncMachine(folder.file("desktop.sqlite"))
        let picture = PhotoStoreTests.picture(78, size: 200_000)
        let photo = try laptop.store.addPhoto(picture, fileName: "IMG_0078.jpg")
        let entry = try laptop.store.save(try EntryDraft(title: "Harbour", mood: .theBest, photos: [photo]).validated().get(),
                                          createdAt: Date(timeIntervalSince1970: 1_000))
        let place = try place("/dav/Flourish/")
        let (sync, _) = try JournalSync.setUp(laptop.store, at: place, passphrase: passphrase, cost: .interactive)
        sync.snapshotEvery = 2
        laptop.sync = sync
        XCTAssertEqual(try laptop.syncNow().photosSent, 1)
        _ = try laptop.save("Second", at: 2_000)
        try laptop.syncNow()
        let machine = try XCTUnwrap(try laptop.store.syncState()).machine
        let stored = (server.davFolder as NSString).appendingPathComponent("Flourish")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: stored).sorted(),
                       ["\(machine)-00000002.snapshot", "flourish-sync.json", "photos"], "both batches removed once the snapshot held them")
        let photos = try FileManager.default.contentsOfDirectory(atPath: (stored as NSString).appendingPathComponent("photos"))
        XCTAssertEqual(photos.count, 1)
        for name in photos {
            let data = try Data(contentsOf: URL(fileURLWithPath: (stored as NSString).appendingPathComponent("photos/\(name)")))
            XCTAssertFalse(data.starts(with: [0xFF, 0xD8, 0xFF]), "no JPEG header")
        }
        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: place, passphrase: passphrase, cost: .interactive)
        XCTAssertEqual(try desktop.syncNow().photosReceived, 1)
        let arrived = try XCTUnwrap(try desktop.entry(entry.uuid))
        XCTAssertEqual(try desktop.store.photo(try XCTUnwrap(arrived.photos.first)), picture, "byte for byte")
        XCTAssertEqual(try desktop.contents(), try laptop.contents())
    }

    /// A file already under the name this machine would write next (one an earlier sync wrote
    /// without recording it, or anyone's) is never written over, even where the server ignores
    /// `If-None-Match: *`: sync writes past every name the place listed. Without that, nginx and
    /// rclone replace the file.
    func placedFilesAreNeverWrittenOver() throws {
        let laptop = try SyncMachine(folder.file("laptop.sqlite")), desktop = try SyncMachine(folder.file("desktop.sqlite"))
        let place = try place("/dav/Flourish/")
        (laptop.sync, _) = try JournalSync.setUp(laptop.store, at: place, passphrase: passphrase, cost: .interactive)
        (desktop.sync, _) = try JournalSync.setUp(desktop.store, at: place, passphrase: passphrase, cost: .interactive)
        let machine = try XCTUnwrap(try laptop.store.syncState()).machine
        let next = SyncBatch.fileName(machine: machine, number: 1)
        let planted = Data("not the laptop's: kept as it is".utf8)
        try place.create(next, contents: planted)
        _ = try laptop.save("Written after the file was put there", at: 1_000)
        let report = try laptop.syncNow()
        XCTAssertEqual(report.refused, [next], "the file under its name does not open: said, never applied")
        XCTAssertEqual(try place.read(next), planted, "the file is as it was put there")
        XCTAssertEqual(try desktop.syncNow().received, 1)
        XCTAssertNotNil(try desktop.store.entries(ids: try desktop.store.entryIDs()).first { $0.title == "Written after the file was put there" })
    }
}
