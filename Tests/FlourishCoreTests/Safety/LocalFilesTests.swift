@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// The system's own reads, which every opening of a locked journal makes (its key file, its
/// folder) and the folder lock's look at /proc/locks: whole files, whatever their size says.
final class LocalFilesTests: XCTestCase {
    private let folder = TemporaryFolder()

    func testAFileIsReadWholeWhateverItsSize() throws {
        for size in [0, 1, 4095, 4096, 4097, 200_000] {
            let file = folder.file("file-\(size)")
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            XCTAssertEqual(LocalFiles.bytes(of: file), bytes, "\(size) bytes")
        }
        XCTAssertNil(LocalFiles.bytes(of: folder.file("missing")))
    }

    func testTheStartOfAFileIsWhatItHasUpToTheCount() throws {
        let file = folder.file("key")
        let bytes = Array("{\n  \"pending\" : {}\n}\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(LocalFiles.start(of: file, upTo: 1 << 16), bytes, "a small file whole")
        XCTAssertEqual(LocalFiles.start(of: file, upTo: 5), Array(bytes[0..<5]))
        XCTAssertNil(LocalFiles.start(of: folder.file("missing"), upTo: 16))
    }

    func testAFileOfProcThatSaysItHasNoSizeIsReadToItsEnd() throws {
        // This process's mappings: more than one page's worth in a test run, and a size of 0.
        var status = stat()
        XCTAssertEqual(stat("/proc/self/maps", &status), 0)
        XCTAssertEqual(status.st_size, 0)
        let maps = try XCTUnwrap(LocalFiles.bytes(of: "/proc/self/maps"))
        XCTAssertGreaterThan(maps.count, 4096)
        XCTAssertEqual(maps.last, UInt8(ascii: "\n"), "its last line whole")
        let text = String(decoding: maps, as: UTF8.self)
        XCTAssertTrue(text.contains("[stack]"), "its mappings to the end")
    }

    func testAFolderListsEveryNameAndWhichAreFolders() throws {
        try FileManager.default.createDirectory(atPath: folder.file("inside"), withIntermediateDirectories: true)
        for name in ["a", ".hidden", "journal.sqlite-wal.set-aside-20261207T120000Z"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file(name)))
        }
        let entries = try LocalFiles.entries(in: folder.path).sorted { $0.name < $1.name }
        XCTAssertEqual(entries, [LocalFiles.Entry(name: ".hidden", isFolder: false), LocalFiles.Entry(name: "a", isFolder: false),
                                 LocalFiles.Entry(name: "inside", isFolder: true),
                                 LocalFiles.Entry(name: "journal.sqlite-wal.set-aside-20261207T120000Z", isFolder: false)])
        XCTAssertThrowsError(try LocalFiles.entries(in: folder.file("missing"))) { error in
            XCTAssertEqual(error as? LocalFiles.Failure, LocalFiles.Failure(code: ENOENT))
        }
    }
}
