import FlourishTestSupport
import XCTest

/// Sync through Debian's rclone's `serve webdav`, which ignores `If-None-Match: *`
/// (Tests/Support/rclone_server.py): see `ServerChecks`.
final class RcloneSyncTests: XCTestCase {
    private let folder = TemporaryFolder()
    private var server: WebDAVServer!
    private var checks: ServerChecks { ServerChecks(server: server, folder: folder) }

    override func setUpWithError() throws {
        server = try WebDAVServer(in: folder.file("server"), kind: .rclone)
    }

    override func tearDown() {
        server.stop()
    }

    func testAPlaceIsMadeAndFilesAreWrittenReadAndListed() throws {
        try checks.placeIsMadeAndFilesAreWrittenReadAndListed(.rclone)
    }

    func testTwoMachinesSyncAndTheServerHoldsOnlyCiphertext() throws {
        try checks.twoMachinesSyncAndTheServerHoldsOnlyCiphertext()
    }

    func testAFileUnderTheNextNameIsNeverWrittenOver() throws {
        try checks.placedFilesAreNeverWrittenOver()
    }

    func testPhotosTravelAndOldFilesAreRemoved() throws {
        try checks.photosTravelAndOldFilesAreRemoved()
    }
}
