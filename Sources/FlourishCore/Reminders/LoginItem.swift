import Foundation

/// The login item that keeps reminders coming while Flourish is not open: a desktop file in
/// `$XDG_CONFIG_HOME/autostart/`, which GNOME and KDE start at login. It starts Flourish as a
/// background service (`--gapplication-service`: no window, the same application id as the
/// window, so opening Flourish from the menu joins that process).
public struct LoginItem: Sendable {
    /// `<application id>.desktop` in the autostart folder.
    public let path: String
    let applicationID: String

    public init(applicationID: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.applicationID = applicationID
        path = ((XDGDirectory.config.path(environment: environment) as NSString).appendingPathComponent("autostart") as NSString)
            .appendingPathComponent("\(applicationID).desktop")
    }

    public var isInstalled: Bool { FileManager.default.fileExists(atPath: path) }

    /// Writes the login item; `command` is how to start Flourish ("flourish" when it is on the
    /// PATH, else the binary's full path).
    public func install(command: String, name: String, comment: String) throws {
        let text = """
            [Desktop Entry]
            Type=Application
            Name=\(name)
            Comment=\(comment)
            Exec=\(Self.quoted(command)) --gapplication-service
            Icon=\(applicationID)
            NoDisplay=true
            X-GNOME-Autostart-enabled=true

            """
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Written whole then renamed: a session starting now reads the old file or the new one.
        let temporary = path + ".new"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    public func remove() throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw CocoaError(.fileWriteNoPermission) }
    }

    /// An Exec argument as the desktop entry specification wants it: in double quotes where it
    /// has a reserved character, with `"`, `` ` ``, `$` and `\` escaped inside them; then, the
    /// value being a string, every backslash doubled again; and `%` doubled, as it is not a
    /// field code.
    static func quoted(_ argument: String) -> String {
        let reserved = " \t\n\"'\\><~|&;$*?#()`"
        var value = argument
        if argument.contains(where: { reserved.contains($0) }) {
            var escaped = ""
            for character in argument {
                if "\"`$\\".contains(character) { escaped.append("\\") }
                escaped.append(character)
            }
            value = "\"\(escaped)\""
        }
        return value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "%%")
    }

    /// How a login item starts this binary: "flourish" when that name on the PATH is this very
    /// binary, else its full path (a build run from its folder). `executable` is the running
    /// binary (the kernel's link to it, whatever name it was started by) or, in tests, a path
    /// or a bare name looked up on the PATH.
    public static func command(executable: String = "/proc/self/exe",
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let onPath = { (name: String) -> String? in
            folders.map { URL(fileURLWithPath: $0).appendingPathComponent(name).path }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        let found = executable.contains("/") ? executable : onPath(executable) ?? executable
        let binary = URL(fileURLWithPath: found).resolvingSymlinksInPath().path
        if let named = onPath("flourish"), URL(fileURLWithPath: named).resolvingSymlinksInPath().path == binary { return "flourish" }
        return binary
    }
}
