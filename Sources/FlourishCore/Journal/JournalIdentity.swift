import Foundation

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
