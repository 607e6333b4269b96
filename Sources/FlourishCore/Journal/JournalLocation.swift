import Foundation

/// The XDG base directories Flourish uses. A variable that is unset or not absolute falls back
/// to its default under HOME (the XDG base directory specification says to ignore relative values).
public enum XDGDirectory {
    case data, config

    public func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let (variable, fallback) = switch self {
        case .data: ("XDG_DATA_HOME", ".local/share")
        case .config: ("XDG_CONFIG_HOME", ".config")
        }
        if let value = environment[variable], value.hasPrefix("/") { return value }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return (home as NSString).appendingPathComponent(fallback)
    }

    /// `name` inside `folderName` inside this directory.
    func file(_ name: String, in folderName: String, environment: [String: String]) -> String {
        (((path(environment: environment)) as NSString).appendingPathComponent(folderName) as NSString)
            .appendingPathComponent(name)
    }
}

/// Where the journal lives by default: `$XDG_DATA_HOME/flourish/journal.sqlite`, that is
/// `~/.local/share/flourish/journal.sqlite` when XDG_DATA_HOME is unset.
public enum JournalLocation {
    public static func defaultPath(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        folderName: String = "flourish"
    ) -> String {
        XDGDirectory.data.file("journal.sqlite", in: folderName, environment: environment)
    }
}

/// One running Flourish per journal file: the desktop identity (GApplication ID) a journal is
/// opened under. The default journal has the app's own ID (the one its desktop file and icon
/// carry); any other journal gets that ID with a suffix made from its full path, so a second
/// launch on the same file (by `--database` or by default) reaches the running one, which raises
/// its window, while other journals still open side by side.
public enum JournalIdentity {
    public static func applicationID(base: String, journal: String, defaultJournal: String) -> String {
        let file = canonical(journal)
        guard file != canonical(defaultJournal) else { return base }
        // FNV-1a: a stable hash (Swift's own Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in file.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return base + ".Journal_" + String(hash, radix: 16)
    }

    /// The absolute path with ".", ".." and symbolic links resolved.
    static func canonical(_ path: String) -> String {
        JournalFile.resolve(URL(fileURLWithPath: path).standardizedFileURL.path)
    }
}
