import CGtk
import Foundation

/// Hears when the desktop locks the screen or the computer goes to sleep, the moments the
/// journal should lock itself too:
/// - the screen saver turning on, `ActiveChanged(true)` on the session bus, from GNOME Shell
///   (`org.gnome.ScreenSaver`) or KDE (`org.freedesktop.ScreenSaver`);
/// - logind's `Lock` for this process's own session, on the system bus (`loginctl lock-session`,
///   and desktops that lock through logind);
/// - logind's `PrepareForSleep(true)`: what is on screen when the lid closes is seen when it opens.
///
/// `locked` may be called more than once for one lock (a desktop can say it two ways); locking
/// again must do nothing. Without a bus, or a service on it, that source is not heard and the
/// others still serve. The buses are reached without blocking the GTK thread.
@MainActor
public final class ScreenLockWatch {
    /// What the watch hears, each from the moment the bus has taken its subscription.
    public enum Source: Hashable, Sendable {
        /// GNOME's and KDE's screen savers.
        case screenSaver
        /// logind's Lock, once this process's session is known.
        case session
        /// logind's PrepareForSleep.
        case sleep
    }

    /// Grows as buses answer; what is not there after a while is not heard at all.
    public private(set) var hearing: Set<Source> = []

    static let login1 = "org.freedesktop.login1"
    static let login1Path = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"

    private let locked: @MainActor () -> Void
    private let cancellable = g_cancellable_new()!
    private var sessionBus: BusConnection?
    private var systemBus: BusConnection?

    /// - Parameters:
    ///   - systemBusAddress: where logind is heard; nil for the system bus (tests give a
    ///     stand-in bus of their own).
    ///   - locked: called on the GTK thread when the journal should lock.
    public init(systemBusAddress: String? = nil, locked: @escaping @MainActor () -> Void) {
        self.locked = locked
        BusConnection.open(G_BUS_TYPE_SESSION, address: nil, cancellable: cancellable) { [weak self] bus in
            guard let self, let bus else { return }
            sessionBus = bus
            hearScreenSavers(on: bus)
        }
        BusConnection.open(G_BUS_TYPE_SYSTEM, address: systemBusAddress, cancellable: cancellable) { [weak self] bus in
            guard let self, let bus else { return }
            systemBus = bus
            hearSleep(on: bus)
            findSession(on: bus, asking: SessionQuestion.inTurn[...])
        }
    }

    isolated deinit {
        // Pending calls answer "cancelled" and find no watch; the connections, let go with the
        // watch, drop their subscriptions.
        g_cancellable_cancel(cancellable)
        g_object_unref(UnsafeMutableRawPointer(cancellable))
    }

    // MARK: - Session bus

    private func hearScreenSavers(on bus: BusConnection) {
        // The handlers hold `locked`, not the watch: after the watch goes, only a subscription
        // left behind could call it, which the tests would see.
        let locked = self.locked
        // KDE has used both /ScreenSaver and /org/freedesktop/ScreenSaver: any path.
        for (service, path) in [("org.gnome.ScreenSaver", "/org/gnome/ScreenSaver"), ("org.freedesktop.ScreenSaver", nil)] {
            bus.subscribe(sender: service, interface: service, member: "ActiveChanged", path: path) { parameters in
                // (b): true when the screen saver (and with it the lock screen) comes on.
                if Variant.bool(at: 0, of: parameters) == true { locked() }
            }
        }
        bus.flushed(cancellable: cancellable) { [weak self] in self?.hearing.insert(.screenSaver) }
    }

    // MARK: - System bus

    private func hearSleep(on bus: BusConnection) {
        let locked = self.locked
        bus.subscribe(sender: Self.login1, interface: Self.managerInterface, member: "PrepareForSleep",
                      path: Self.login1Path) { parameters in
            // (b): true going to sleep, false woken.
            if Variant.bool(at: 0, of: parameters) == true { locked() }
        }
        bus.flushed(cancellable: cancellable) { [weak self] in self?.hearing.insert(.sleep) }
    }

    /// Asks logind for this process's session object, one question after another until one is
    /// answered, then hears that session's Lock. No answer: Lock is not heard.
    private func findSession(on bus: BusConnection, asking questions: ArraySlice<SessionQuestion>) {
        guard let question = questions.first else { return }
        bus.call(Self.login1, Self.login1Path, Self.managerInterface, question.method, question.parameters,
                 cancellable: cancellable) { [weak self] reply in
            guard let self else { return }
            guard let reply, let path = Variant.string(at: 0, of: reply) else {
                return findSession(on: bus, asking: questions.dropFirst())
            }
            let locked = self.locked
            bus.subscribe(sender: Self.login1, interface: "org.freedesktop.login1.Session", member: "Lock",
                          path: path) { _ in locked() }
            bus.flushed(cancellable: cancellable) { [weak self] in self?.hearing.insert(.session) }
        }
    }
}

/// The ways to ask logind which session this process is in, most exact first.
enum SessionQuestion {
    /// GetSession(XDG_SESSION_ID): set by pam_systemd for what a login started.
    case id(String)
    /// GetSessionByPID(pid): for a process inside the session's scope.
    case process(UInt32)
    /// GetSession("auto"): the caller's session, or else the person's graphical session; for
    /// apps started by a systemd user service, outside any session.
    case automatic

    /// Read when asked, not at launch: the environment is the process's own at that moment.
    static var inTurn: [SessionQuestion] {
        let id = getenv("XDG_SESSION_ID").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        return (id.map { [.id($0)] } ?? []) + [.process(UInt32(ProcessInfo.processInfo.processIdentifier)), .automatic]
    }

    var method: String {
        switch self {
        case .id, .automatic: "GetSession"
        case .process: "GetSessionByPID"
        }
    }

    /// A floating tuple, taken by the call.
    var parameters: OpaquePointer? {
        switch self {
        case let .id(id): Variant.tuple([g_variant_new_string(id)])
        case let .process(pid): Variant.tuple([g_variant_new_uint32(pid)])
        case .automatic: Variant.tuple([g_variant_new_string("auto")])
        }
    }
}
