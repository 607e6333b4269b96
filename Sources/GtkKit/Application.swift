import CGtk

/// GtkApplication: the process's identity on the desktop and the owner of its windows.
@MainActor
public final class Application {
    let raw: UnsafeMutablePointer<GtkApplication>

    /// - Parameter unique: false lets several instances run (each on its own journal file).
    public init(id: String, unique: Bool) {
        let flags = unique ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE
        raw = gtk_application_new(id, flags)
        // GtkApplication's own startup handler runs first and initialises GTK; this runs before
        // any `onStartup` of the app's, so before its first window.
        Signal.connect(UnsafeMutableRawPointer(raw), "startup") { Toolkit.keepStandInWindowLast() }
    }

    var gapp: UnsafeMutablePointer<GApplication> { typed(raw) }

    public func onActivate(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(UnsafeMutableRawPointer(raw), "activate", action)
    }

    /// Once, in the process that owns the id (not in one that hands its launch to it), before
    /// any activation: the place for what the running application does with or without a window.
    public func onStartup(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(UnsafeMutableRawPointer(raw), "startup", action)
    }

    /// Runs the main loop until the last window closes and nothing holds the application.
    /// Command-line arguments are Flourish's own business (parsed before this), so GApplication
    /// sees only the program name, and `--gapplication-service` when it is to start as a
    /// background service (no window until it is activated).
    public func run(programName: String, asService: Bool = false) -> Int32 {
        MainLoop.integrateDispatch()
        Toolkit.skipGLUnderCairo()
        let arguments = [programName] + (asService ? ["--gapplication-service"] : [])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        return argv.withUnsafeMutableBufferPointer { buffer in
            g_application_run(gapp, Int32(arguments.count), buffer.baseAddress)
        }
    }

    /// Whether this process is the one running the application (false when a launch of it was
    /// handed to an instance already running).
    public var isPrimary: Bool { g_application_get_is_remote(gapp) == 0 }

    /// Registers without running the loop, so windows can be made (in-process tests pump the loop
    /// themselves). Returns whether it worked.
    @discardableResult
    public func register() -> Bool { g_application_register(gapp, nil, nil) != 0 }

    /// Keeps the application running with no window open (while start-up work finishes).
    public func hold() { g_application_hold(gapp) }
    public func release() { g_application_release(gapp) }

    /// Adds `app.NAME`, run by `action`, with keyboard accelerators such as "<Control>q".
    public func addAction(_ name: String, accelerators: [String] = [], _ action: @escaping @MainActor () -> Void) {
        Action.add(name, to: OpaquePointer(raw), action)
        setAccelerators(accelerators, for: "app.\(name)")
    }

    /// Sets the accelerators of a detailed action name ("win.save-entry").
    public func setAccelerators(_ accelerators: [String], for action: String) {
        let strings: [UnsafeMutablePointer<CChar>?] = accelerators.map { strdup($0) } + [nil]
        defer { strings.forEach { free($0) } }
        strings.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_application_set_accels_for_action(raw, action, $0)
            }
        }
    }
}

/// GSimpleAction added to an action map (the application or a window).
enum Action {
    static func add(_ name: String, to map: OpaquePointer, _ run: @escaping @MainActor () -> Void) {
        let action = g_simple_action_new(name, nil)!
        Signal.connectPointer(UnsafeMutableRawPointer(action), "activate", { _ in run() })
        g_action_map_add_action(map, action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }
}
