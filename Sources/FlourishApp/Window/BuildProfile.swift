import Foundation

/// What differs between the build people use and a development build (meson's `profile` option,
/// compiled in as FLOURISH_DEVELOPMENT): the application id, its icon, and the folder of its
/// journal, so a development build never touches the person's real journal.
public enum BuildProfile {
    #if FLOURISH_DEVELOPMENT
    public static let isDevelopment = true
    public static let applicationID = "org.flourishjournal.Flourish.Devel"
    public static let dataFolderName = "flourish-devel"
    #else
    public static let isDevelopment = false
    public static let applicationID = "org.flourishjournal.Flourish"
    public static let dataFolderName = "flourish"
    #endif

    /// The release: meson.build's project version, read in at build time (Plugins/ProjectVersion).
    public static let version = ProjectVersion.string

    /// …/share beside the running binary (an installed tree), if there is one.
    public static var installedDataDirectory: String? {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let share = executable.deletingLastPathComponent().appendingPathComponent("../share").standardized
        return FileManager.default.fileExists(atPath: share.appendingPathComponent("flourish").path) ? share.path : nil
    }
}
