@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// A busy server (423 Locked, 429 Too Many Requests, 503 Service Unavailable, with and without
/// `Retry-After`), made by a small proxy (`BusyProxy`) in front of a real Apache: its answers are
/// waited for and the request made again, a few times at most, each wait heard for the Sync
/// window; past the last try, or asked for too long a wait, it is `.busy`, and nothing is lost.
final class BusyServerTests: XCTestCase {
    private let folder = TemporaryFolder()
    private var server: WebDAVServer!
    private var proxy: BusyProxy!
    private let passphrase = "a long sync passphrase"
    /// What the waits are heard as, in seconds, in order.
    private let heard = Heard()

    override func setUpWithError() throws {
        server = try WebDAVServer(in: folder.file("server"))
        proxy = try BusyProxy(in: folder.file("proxy"), before: server)
    }

    override func tearDown() {
        proxy.stop()
        server.stop()
    }

    /// Through the proxy; a wait without `Retry-After` is 0.2 s, then doubled.
    private func place() throws -> WebDAVPlace {
        let place = try WebDAVPlace(address: proxy.url("/dav/Flourish/"), password: WebDAVServer.password, timeout: 10,
                                    helper: WebDAVHelper(), busy: BusyServer(tries: 4, firstWait: 0.2, longestWait: 60))
        place.hearBusy { [heard] in heard.add($0) }
        return place
    }

    func testBusyAnswersAreWaitedForAsAskedAndTheSyncCompletes() throws {
        let machine = try SyncMachine(folder.file("laptop.sqlite"))
        _ = try machine.save("Written while the server was busy", at: 1_000)
        try proxy.answerBusy([(423, "1"), (429, "1"), (503, nil)])
        (machine.sync, _) = try JournalSync.setUp(machine.store, at: try place(), passphrase: passphrase, cost: .interactive)
        XCTAssertGreaterThan(try machine.syncNow().sent, 0)
        let requests = try proxy.requests()
        XCTAssertEqual(requests.prefix(4).map(\.status), [423, 429, 503, 404], "the same PROPFIND, made again until it was answered")
        XCTAssertGreaterThanOrEqual(requests[1].at - requests[0].at, 0.95, "Retry-After: 1 waited for")
        XCTAssertGreaterThanOrEqual(requests[2].at - requests[1].at, 0.95, "Retry-After: 1 waited for")
        XCTAssertGreaterThanOrEqual(requests[3].at - requests[2].at, 0.75, "no Retry-After: 0.2 s, doubled twice")
        XCTAssertEqual(heard.seconds, [1, 1, 1], "each wait said, in whole seconds")
        try XCTAssertEqual(receivedTitles(), ["Written while the server was busy"])
    }

    /// What a second machine joining the journal receives: its entries' titles.
    private func receivedTitles() throws -> [String] {
        let other = try SyncMachine(folder.file("desktop.sqlite"))
        (other.sync, _) = try JournalSync.setUp(other.store, at: try place(), passphrase: passphrase, cost: .interactive)
        try other.syncNow()
        return try other.store.entries(ids: try other.store.entryIDs()).map(\.title)
    }

    func testAServerBusyAtEveryTryIsBusyAndTheNextSyncSendsWhatWaited() throws {
        let machine = try SyncMachine(folder.file("laptop.sqlite"))
        let place = try place()
        (machine.sync, _) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
        _ = try machine.save("Kept while the server was busy", at: 1_000)
        try proxy.answerBusy(Array(repeating: (503, "0"), count: 4))
        XCTAssertThrowsError(try machine.syncNow()) { error in
            XCTAssertEqual(error as? SyncError, .busy(place: place.displayName))
            XCTAssertEqual((error as? SyncError)?.errorDescription,
                           "The server at \(place.displayName) is busy. Your journal is kept here and syncs when the server is free again.")
        }
        XCTAssertEqual(try proxy.requests().suffix(4).map(\.status), [503, 503, 503, 503], "four tries, then no more")
        XCTAssertGreaterThan(try machine.syncNow().sent, 0)
        try XCTAssertEqual(receivedTitles(), ["Kept while the server was busy"], "the entry waited, and went with the next sync")
    }

    func testAServerAskingForTooLongAWaitIsBusyAtOnce() throws {
        let machine = try SyncMachine(folder.file("laptop.sqlite"))
        let place = try place()
        (machine.sync, _) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
        try proxy.answerBusy([(429, "3600")])
        let started = Date()
        XCTAssertThrowsError(try machine.syncNow()) { XCTAssertEqual($0 as? SyncError, .busy(place: place.displayName)) }
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "no hour-long wait")
        XCTAssertEqual(heard.seconds, [], "no wait was started")
    }

    func testAWaitEndsAtOnceWhenTheJournalCloses() throws {
        let machine = try SyncMachine(folder.file("laptop.sqlite"))
        let place = try place()
        (machine.sync, _) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
        try proxy.answerBusy([(503, "50")])
        let ended = expectation(description: "the sync ended")
        let outcome = Outcome()
        let sync = try XCTUnwrap(machine.sync)
        DispatchQueue.global().async {
            outcome.error = Result { try sync.sync() }.failure
            ended.fulfill()
        }
        // Once the wait has begun, closing ends it.
        let deadline = Date(timeIntervalSinceNow: 20)
        while heard.seconds.isEmpty, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(heard.seconds, [50], "the wait began")
        let closed = Date()
        JournalModel.finishSyncWork()
        wait(for: [ended], timeout: 10)
        XCTAssertLessThan(Date().timeIntervalSince(closed), 10)
        XCTAssertEqual(outcome.error as? SyncError, .busy(place: place.displayName))
    }

    func testRetryAfterIsReadInSecondsOrAsADate() {
        let now = Date(timeIntervalSince1970: 1_765_000_000)
        XCTAssertEqual(BusyServer.seconds(in: "30", now: now), 30)
        XCTAssertEqual(BusyServer.seconds(in: " 0 ", now: now), 0)
        let date = DateFormatter()
        date.locale = Locale(identifier: "en_US_POSIX")
        date.timeZone = TimeZone(identifier: "GMT")
        date.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        XCTAssertEqual(BusyServer.seconds(in: date.string(from: now.addingTimeInterval(45)), now: now), 45)
        XCTAssertEqual(BusyServer.seconds(in: date.string(from: now.addingTimeInterval(-45)), now: now), 0, "a date gone by: at once")
        XCTAssertNil(BusyServer.seconds(in: "soon", now: now))
        XCTAssertNil(BusyServer.seconds(in: "-5", now: now))
        let busy = BusyServer(tries: 3, firstWait: 5, longestWait: 60)
        XCTAssertEqual(busy.wait(after: 0, retryAfter: nil, now: now), 5)
        XCTAssertEqual(busy.wait(after: 1, retryAfter: nil, now: now), 10)
        XCTAssertNil(busy.wait(after: 2, retryAfter: nil, now: now), "three tries in all")
        XCTAssertEqual(busy.wait(after: 0, retryAfter: "12", now: now), 12)
        XCTAssertNil(busy.wait(after: 0, retryAfter: "61", now: now), "longer than a minute: not waited for")
    }
}

/// The waits heard, from the sync's thread.
private final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: [Int] = []
    func add(_ seconds: Int) { lock.withLock { heard.append(seconds) } }
    var seconds: [Int] { lock.withLock { heard } }
}

private final class Outcome: @unchecked Sendable {
    var error: Error?
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
