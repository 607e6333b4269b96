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
