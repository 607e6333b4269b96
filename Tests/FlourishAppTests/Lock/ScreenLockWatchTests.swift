import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The screen savers on the test's session bus, as GNOME and KDE announce a locked screen.
/// Mock services from python3-dbusmock; the watch's system bus is one with nothing on it.
final class ScreenLockWatchTests: XCTestCase {
    func testGNOMEsScreenSaverComingOnLocksAndGoingOffDoesNot() throws {
        let gnome = try DBusMock(.session, name: "org.gnome.ScreenSaver", path: "/org/gnome/ScreenSaver",
                                 interface: "org.gnome.ScreenSaver")
        defer { gnome.stop() }
        try expectLocks(from: gnome, path: "/org/gnome/ScreenSaver", interface: "org.gnome.ScreenSaver")
    }

    func testKDEsScreenSaverComingOnLocksAndGoingOffDoesNot() throws {
        let kde = try DBusMock(.session, name: "org.freedesktop.ScreenSaver", path: "/ScreenSaver",
                               interface: "org.freedesktop.ScreenSaver")
        defer { kde.stop() }
        try kde.addObject("/org/freedesktop/ScreenSaver", interface: "org.freedesktop.ScreenSaver", asking: "/ScreenSaver")
        // Plasma has sent it from both paths.
        try expectLocks(from: kde, path: "/ScreenSaver", interface: "org.freedesktop.ScreenSaver")
        try expectLocks(from: kde, path: "/org/freedesktop/ScreenSaver", interface: "org.freedesktop.ScreenSaver")
    }

    func testAnotherServiceSayingActiveChangedIsNotTheScreenSaver() throws {
        // The same interface and signal, from a name that is not the screen saver's.
        let impostor = try DBusMock(.session, name: "org.example.NotAScreenSaver", path: "/org/gnome/ScreenSaver",
                                    interface: "org.gnome.ScreenSaver")
        defer { impostor.stop() }
        try MainActor.assumeIsolated {
            var locks = 0
            let watch = ScreenLockWatch(systemBusAddress: Self.noBus) { locks += 1 }
            XCTAssertTrue(MainLoop.run(until: { watch.hearing.contains(.screenSaver) }), "the session bus answered")
            try impostor.emit("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "ActiveChanged", signature: "b", "[<true>]")
            MainLoop.run(for: 0.3)
            XCTAssertEqual(locks, 0)
        }
    }

    func testOnceTheWatchIsLetGoNothingIsHeard() throws {
        let gnome = try DBusMock(.session, name: "org.gnome.ScreenSaver", path: "/org/gnome/ScreenSaver",
                                 interface: "org.gnome.ScreenSaver")
        defer { gnome.stop() }
        try MainActor.assumeIsolated {
            // A second watch keeps the shared session connection open, as the running
            // application does: were it closed, a subscription left behind would go unseen.
            var kept = 0, dropped = 0
            let keeper = ScreenLockWatch(systemBusAddress: Self.noBus) { kept += 1 }
            var watch: ScreenLockWatch? = ScreenLockWatch(systemBusAddress: Self.noBus) { dropped += 1 }
            XCTAssertTrue(MainLoop.run(until: { watch?.hearing.contains(.screenSaver) == true && keeper.hearing.contains(.screenSaver) }))
            watch = nil
            try gnome.emit("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "ActiveChanged", signature: "b", "[<true>]")
            XCTAssertTrue(MainLoop.run(until: { kept == 1 }), "the watch still held hears it")
            MainLoop.run(for: 0.2)
            XCTAssertEqual(dropped, 0, "the subscriptions went with the watch")
        }
    }

    /// A system bus address where no bus listens.
    static let noBus = "unix:path=/nonexistent/flourish-test-bus"

    /// Off, then on, then on again: two locks, none for off. A bus delivers one sender's signals in
    /// order, so a lock for "off" would be counted before the first "on" had been.
    private func expectLocks(from mock: DBusMock, path: String, interface: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        try MainActor.assumeIsolated {
            var locks = 0
            let watch = ScreenLockWatch(systemBusAddress: Self.noBus) { locks += 1 }
            XCTAssertTrue(MainLoop.run(until: { watch.hearing.contains(.screenSaver) }), "the session bus answered",
                          file: file, line: line)
            try mock.emit(path, interface, "ActiveChanged", signature: "b", "[<false>]")
            try mock.emit(path, interface, "ActiveChanged", signature: "b", "[<true>]")
            XCTAssertTrue(MainLoop.run(until: { locks >= 1 }), "ActiveChanged(true) heard", file: file, line: line)
            XCTAssertEqual(locks, 1, "ActiveChanged(false) is the screen coming back: no lock", file: file, line: line)
            try mock.emit(path, interface, "ActiveChanged", signature: "b", "[<true>]")
            XCTAssertTrue(MainLoop.run(until: { locks >= 2 }), "every time it comes on", file: file, line: line)
            MainLoop.run(for: 0.2)
            XCTAssertEqual(locks, 2, file: file, line: line)
            XCTAssertFalse(watch.hearing.contains(.sleep), "no system bus, no logind", file: file, line: line)
        }
    }
}
