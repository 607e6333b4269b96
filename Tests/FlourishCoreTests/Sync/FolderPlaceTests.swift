import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// A folder as a sync place, on the real file system: made when asked, files written once and
/// never replaced, half-written files never listed.
final class FolderPlaceTests: XCTestCase {
    private let folder = TemporaryFolder()

    func testAPlaceIsMadeOnlyWhereItsParentIsAndOnlyWhenAsked() throws {
        let place = FolderPlace(path: folder.file("Flourish"))
        XCTAssertThrowsError(try place.prepare(create: false)) { XCTAssertEqual($0 as? SyncError, .missing(place: place.path)) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: place.path), "joining makes nothing")
        try place.prepare(create: true)
        XCTAssertEqual(try permissions(of: place.path), 0o700)
        XCTAssertNoThrow(try place.prepare(create: false))

        let deep = FolderPlace(path: folder.file("no/such/parent/Flourish"))
        XCTAssertThrowsError(try deep.prepare(create: true)) { XCTAssertEqual($0 as? SyncError, .missing(place: deep.path)) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("no")))

        FileManager.default.createFile(atPath: folder.file("a file"), contents: Data("x".utf8))
        let file = FolderPlace(path: folder.file("a file"))
        XCTAssertThrowsError(try file.prepare(create: true)) { XCTAssertEqual($0 as? SyncError, .notAJournal(place: file.path)) }
    }

    func testAFileIsWrittenOnceAndNeverReplaced() throws {
        let place = FolderPlace(path: folder.path)
        try place.create("m1/00000001.batch", contents: Data("first".utf8))
        XCTAssertThrowsError(try place.create("m1/00000001.batch", contents: Data("second".utf8))) {
            XCTAssertEqual($0 as? SyncError, .fileExists(name: "m1/00000001.batch"))
        }
        XCTAssertEqual(try place.read("m1/00000001.batch"), Data("first".utf8), "the first stays, byte for byte")
        XCTAssertEqual(try permissions(of: folder.file("m1/00000001.batch")), 0o600)
        XCTAssertEqual(try permissions(of: folder.file("m1")), 0o700)
        XCTAssertNil(try place.read("m1/00000002.batch"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.file("m1")), ["00000001.batch"],
                       "no temporary file left behind")
    }

    func testListingShowsFilesNotFoldersOrHalfWrittenOnes() throws {
        let place = FolderPlace(path: folder.path)
        try place.create("flourish-sync.json", contents: Data("{}".utf8))
        try place.create("m1/00000001.batch", contents: Data())
        try place.create("m1/00000002.batch", contents: Data("2".utf8))
        // What a syncing tool leaves: its own partial file, and a "conflicted copy".
        FileManager.default.createFile(atPath: folder.file("m1/.syncthing.00000003.batch.tmp"), contents: Data("half".utf8))
        FileManager.default.createFile(atPath: folder.file("m1/00000002 (conflicted copy).batch"), contents: Data("c".utf8))
        XCTAssertEqual(Set(try place.list("")), ["flourish-sync.json"])
        XCTAssertEqual(Set(try place.list("m1")), ["00000001.batch", "00000002.batch", "00000002 (conflicted copy).batch"])
        XCTAssertEqual(try place.list("m2"), [], "a folder not there yet lists nothing")
        XCTAssertEqual(try place.read("m1/00000001.batch"), Data(), "an empty file reads as empty, not as missing")
    }

    /// Photos are written together: each whole under its name, a name taken already left as it is,
    /// and no temporary file left behind.
    func testFilesWrittenTogetherAreEachWholeAndNeverReplaceOne() throws {
        let place = FolderPlace(path: folder.path)
        try place.create("photos/b", contents: Data("there first".utf8))
        try place.createEach([("photos/a", Data("a".utf8)), ("photos/b", Data("b".utf8)), ("photos/c", Data(repeating: 7, count: 300_000))])
        XCTAssertEqual(try place.read("photos/a"), Data("a".utf8))
        XCTAssertEqual(try place.read("photos/b"), Data("there first".utf8), "never replaced")
        XCTAssertEqual(try place.read("photos/c"), Data(repeating: 7, count: 300_000))
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.file("photos"))), ["a", "b", "c"])
        XCTAssertEqual(try permissions(of: folder.file("photos/c")), 0o600)
    }
}
