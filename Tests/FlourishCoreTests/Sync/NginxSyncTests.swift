import FlourishTestSupport
import XCTest

/// Sync through Debian's nginx with dav-ext, which ignores `If-None-Match: *` and refuses MKCOL
/// without a trailing slash and a PUT into a missing folder (Tests/Support/nginx_server.py): see `ServerChecks`.
final class NginxSyncTests: XCTestCase {
    private let folder = TemporaryFolder()
    private var server: WebDAVServer!
    private var checks: ServerChecks { ServerChecks(server: server, folder: folder) }

    override func setUpWithError() throws {
        server = try WebDAVServer(in: folder.file("server"), kind: .nginx)
    }

    override func tearDown() {
        server.stop()
    }

    func testAPlaceIsMadeAndFilesAreWrittenReadAndListed() throws {
        try checks.placeIsMadeAndFilesAreWrittenReadAndListed(.nginx)
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
