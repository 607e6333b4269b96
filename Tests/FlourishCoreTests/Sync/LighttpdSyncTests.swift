import FlourishTestSupport
import XCTest

/// Sync through Debian's lighttpd with mod_webdav, which refuses a PROPFIND whose body is not
/// said to be XML (415) (Tests/Support/lighttpd_server.py): see `ServerChecks`.
final class LighttpdSyncTests: XCTestCase {
    private let folder = TemporaryFolder()
    private var server: WebDAVServer!
    private var checks: ServerChecks { ServerChecks(server: server, folder: folder) }

    override func setUpWithError() throws {
        server = try WebDAVServer(in: folder.file("server"), kind: .lighttpd)
    }

    override func tearDown() {
        server.stop()
    }

    func testAPlaceIsMadeAndFilesAreWrittenReadAndListed() throws {
        try checks.placeIsMadeAndFilesAreWrittenReadAndListed(.lighttpd)
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
