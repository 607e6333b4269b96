import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// logind on a bus of the test's own (python3-dbusmock's logind template), given to the watch
/// as its system bus: the session's Lock and going to sleep.
final class LogindLockWatchTests: XCTestCase {
    private var bus: PrivateBus!
    private var logind: DBusMock!
    private var sessionID: String?

    private static let manager = "/org/freedesktop/login1"
    private static func session(_ id: String) -> String { "/org/freedesktop/login1/session/\(id)" }

    override func setUpWithError() throws {
        sessionID = getenv("XDG_SESSION_ID").map { String(cString: $0) }
        bus = try PrivateBus()
        logind = try DBusMock(.system(address: bus.address), template: "logind", name: "org.freedesktop.login1")
        // This process's session and another person's.
        for (id, uid, name) in [("c1", 1000, "ours"), ("c2", 1001, "theirs")] {
            try logind.call(Self.manager, "org.freedesktop.DBus.Mock.AddSession",
                            [logind.quoted(id), logind.quoted("seat0"), "uint32 \(uid)", logind.quoted(name), "true"])
        }
    }

    override func tearDown() {
        logind?.stop()
        bus?.stop()
        if let sessionID { setenv("XDG_SESSION_ID", sessionID, 1) } else { unsetenv("XDG_SESSION_ID") }
    }

    func testLockingThisSessionLocksAndLockingAnotherDoesNot() throws {
        setenv("XDG_SESSION_ID", "c1", 1)
        try MainActor.assumeIsolated {
            var locks = 0
            let watch = ScreenLockWatch(systemBusAddress: bus.address) { locks += 1 }
            XCTAssertTrue(MainLoop.run(until: { watch.hearing.contains(.session) }), "the session was found")
            // What `loginctl lock-session` asks of logind; the session emits Lock.
            try logind.call(Self.session("c2"), "org.freedesktop.login1.Session.Lock")
            try logind.call(Self.session("c1"), "org.freedesktop.login1.Session.Lock")
            XCTAssertTrue(MainLoop.run(until: { locks >= 1 }), "our session's Lock heard")
            MainLoop.run(for: 0.2)
            XCTAssertEqual(locks, 1, "another session's Lock is not ours")
        }
    }

    func testWithoutASessionIDTheSessionIsFoundByProcess() throws {
        unsetenv("XDG_SESSION_ID")
        // logind's answer for this process (and only for it): c2.
        let pid = ProcessInfo.processInfo.processIdentifier
        try logind.call(Self.manager, "org.freedesktop.DBus.Mock.AddMethod", [
            logind.quoted("org.freedesktop.login1.Manager"), logind.quoted("GetSessionByPID"), logind.quoted("u"), logind.quoted("o"),
            logind.quoted("ret = '/org/freedesktop/login1/session/' + ('c2' if args[0] == \(pid) else 'elsewhere')"),
        ])
        try MainActor.assumeIsolated {
            var locks = 0
            let watch = ScreenLockWatch(systemBusAddress: bus.address) { locks += 1 }
            XCTAssertTrue(MainLoop.run(until: { watch.hearing.contains(.session) }), "the session was found")
            try logind.call(Self.session("c1"), "org.freedesktop.login1.Session.Lock")
            try logind.call(Self.session("c2"), "org.freedesktop.login1.Session.Lock")
            XCTAssertTrue(MainLoop.run(until: { locks >= 1 }), "the Lock of the session found by process heard")
            MainLoop.run(for: 0.2)
            XCTAssertEqual(locks, 1)
        }
    }

    func testGoingToSleepLocksAndWakingDoesNot() throws {
        setenv("XDG_SESSION_ID", "c1", 1)
        try MainActor.assumeIsolated {
            var locks = 0
            let watch = ScreenLockWatch(systemBusAddress: bus.address) { locks += 1 }
            XCTAssertTrue(MainLoop.run(until: { watch.hearing.contains(.sleep) }), "the system bus answered")
            try logind.emit(Self.manager, "org.freedesktop.login1.Manager", "PrepareForSleep", signature: "b", "[<false>]")
            try logind.emit(Self.manager, "org.freedesktop.login1.Manager", "PrepareForSleep", signature: "b", "[<true>]")
            XCTAssertTrue(MainLoop.run(until: { locks >= 1 }), "PrepareForSleep(true) heard")
            MainLoop.run(for: 0.2)
            XCTAssertEqual(locks, 1, "waking (false) is no reason to lock")
        }
    }

    func testASystemBusWithoutLogindHearsNoSessionAndBreaksNothing() throws {
        logind.stop()
        setenv("XDG_SESSION_ID", "c1", 1)
        try MainActor.assumeIsolated {
            var locks = 0
            let watch = ScreenLockWatch(systemBusAddress: bus.address) { locks += 1 }
            XCTAssertTrue(MainLoop.run(until: { watch.hearing.contains(.sleep) }), "the bus itself answered")
            // Every question about the session fails at once (no such service): nothing to wait on.
            MainLoop.run(for: 0.5)
            XCTAssertFalse(watch.hearing.contains(.session))
            XCTAssertEqual(locks, 0)
        }
    }

    func testNoSystemBusAtAllHearsNothingFromIt() throws {
        try MainActor.assumeIsolated {
            let watch = ScreenLockWatch(systemBusAddress: "unix:path=/nonexistent/flourish-test-bus") {}
            XCTAssertTrue(MainLoop.run(until: { watch.hearing.contains(.screenSaver) }), "the session bus still serves")
            MainLoop.run(for: 0.3)
            XCTAssertTrue(watch.hearing.isDisjoint(with: [.sleep, .session]))
        }
    }

    /// A system bus that takes the connection and never answers: a watch that waited for it on
    /// the GTK thread would hold the window up for as long as the bus stayed silent.
    func testASystemBusThatNeverAnswersDoesNotHoldTheWindowUp() throws {
        let folder = TemporaryFolder()
        let bus = try SilentBus(path: folder.file("silent-bus"))
        defer { bus.end() }
        try MainActor.assumeIsolated {
            let watch = ScreenLockWatch(systemBusAddress: "unix:path=\(bus.path)") {}
            XCTAssertFalse(bus.ended, "the watch came back only once the bus went away: it waited for it on the GTK thread")
            XCTAssertTrue(MainLoop.run(until: { watch.hearing.contains(.screenSaver) }), "the session bus still serves")
            XCTAssertFalse(watch.hearing.contains(.sleep))
        }
    }
}

/// A socket that takes connections into its backlog and never answers, until it goes away:
/// after `silence` seconds (a bound for a test whose watch would otherwise wait for ever) or
/// at `end`. Whether it went away on its own says a caller waited for it that long.
private final class SilentBus: @unchecked Sendable {
    let path: String
    private let socket: Int32
    private let lock = NSLock()
    private var gone = false
    private var endedAlone = false

    init(path: String, silence: Double = 30) throws {
        self.path = path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // A path cut short would name no socket, and the watch would fail at once, untested.
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else { throw CocoaError(.fileWriteInvalidFileName) }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard socket >= 0, bound == 0, listen(socket, 4) == 0 else {
            if socket >= 0 { Glibc.close(socket) }
            throw CocoaError(.fileWriteUnknown)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + silence) { [self] in close(alone: true) }
    }

    /// Whether it went away on its own, its silence over.
    var ended: Bool { lock.withLock { endedAlone } }

    func end() { close(alone: false) }

    private func close(alone: Bool) {
        lock.withLock {
            guard !gone else { return }
            (gone, endedAlone) = (true, alone)
            Glibc.close(socket)
        }
    }
}
