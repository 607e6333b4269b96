import CGtk

/// GtkApplication: the process's identity on the desktop and the owner of its windows.
@MainActor
public final class Application {
    let raw: UnsafeMutablePointer<GtkApplication>

    /// - Parameter unique: false lets several instances run (each on its own journal file).
    public init(id: String, unique: Bool) {
        let flags = unique ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE
        raw = gtk_application_new(id, flags)
    }

    private var gapp: UnsafeMutablePointer<GApplication> { typed(raw) }

    public func onActivate(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(UnsafeMutableRawPointer(raw), "activate", action)
    }

    /// Runs the main loop until the last window closes. Command-line arguments are Flourish's own
    /// business (parsed before this), so GTK sees only the program name.
    public func run(programName: String) -> Int32 {
        MainLoop.integrateDispatch()
        Toolkit.skipGLUnderCairo()
        var name = strdup(programName)
        defer { free(name) }
        return withUnsafeMutablePointer(to: &name) { argv in
            g_application_run(gapp, 1, argv)
        }
    }

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
