import Foundation

/// What the tools that keep a sync folder in step leave in it besides Flourish's files, and the
/// copies they make of a file two computers changed at once. Their own files are ignored in
/// silence (most are hidden, and a place's listing leaves hidden names out); a conflict copy of
/// one of Flourish's files is opened with the key like any file (`JournalSync.takeConflictCopies`).
enum SyncToolFiles {
    /// Whether `name` (a file directly in the place) is a syncing tool's own: Syncthing's
    /// half-received files (`.syncthing.NAME.tmp`, or `~syncthing~NAME.tmp` where dotted names
    /// are not hidden) and folder marks (`.stfolder`, `.stignore`, `.stversions`), the Nextcloud
    /// and ownCloud clients' databases, logs and downloads (`.sync_*.db*`, `._sync_*.db*`,
    /// `.owncloudsync.log`, `.NAME.~XXXXXXXX`), Dropbox's, and the desktops' folder files.
    static func isToolFile(_ name: String) -> Bool {
        if name.hasPrefix(".") { return true }
        if name.hasPrefix("~syncthing~") && name.hasSuffix(".tmp") { return true }
        return ["desktop.ini", "thumbs.db", "icon\r"].contains(name.lowercased())
    }

    /// The name of the file `name` is a conflict copy of, or nil when it is none:
    /// - Syncthing: `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.EXT` (the extension kept);
    /// - the Nextcloud and ownCloud clients: `NAME (conflicted copy YYYY-MM-DD HHMMSS).EXT`, and
    ///   older ownCloud clients `NAME_conflict-YYYYMMDD-HHMMSS.EXT`;
    /// - Dropbox: `NAME (USER's conflicted copy YYYY-MM-DD).EXT`, maybe with " (1)" inside.
    static func conflictOriginal(of name: String) -> String? {
        let (stem, suffix) = split(name)
        for pattern in conflictMarks {
            guard let range = stem.range(of: pattern, options: .regularExpression) else { continue }
            let original = String(stem[..<range.lowerBound]) + suffix
            return original.isEmpty || original == name ? nil : original
        }
        return nil
    }

    /// What each tool adds at the end of the name, before its extension.
    private static let conflictMarks = [
        #"\.sync-conflict-[0-9]{8}-[0-9]{6}(-[A-Z0-9]{7})?$"#,
        #" \(([^()]*'s )?conflicted copy.*\)$"#,
        #"_conflict-[0-9]{8}-[0-9]{6}$"#,
    ]

    /// The name without its extension, and the extension with its dot ("" when it has none).
    private static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }
}
