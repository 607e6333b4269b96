import FlourishCore

/// Where the journal lives unless `--database` says otherwise.
public enum JournalPaths {
    public static func defaultJournal() -> String { JournalLocation.defaultPath(folderName: BuildProfile.dataFolderName) }
}
