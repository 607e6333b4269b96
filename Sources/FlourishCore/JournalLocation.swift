import Foundation

/// Where the journal lives by default: `$XDG_DATA_HOME/flourish/journal.sqlite`, or
/// `~/.local/share/flourish/journal.sqlite` when XDG_DATA_HOME is unset or not absolute
/// (the XDG base directory specification says to ignore relative values).
public enum JournalLocation {
    public static func defaultPath(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        folderName: String = "flourish"
    ) -> String {
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            dataHome = (home as NSString).appendingPathComponent(".local/share")
        }
        return ((dataHome as NSString).appendingPathComponent(folderName) as NSString)
            .appendingPathComponent("journal.sqlite")
    }
}
