import Foundation

/// Files beside a locked journal that Flourish never writes for one, set aside unread.
///
/// A locked journal is kept in WAL mode: SQLite never makes a rollback journal (`-journal`) for
/// it. One found there was put by someone else, and SQLite would play its pages back into the
/// journal the next time it is opened for writing, sealed under the real key: their pages would
/// become the person's. The encrypting VFS refuses to read a page from one (`journal_cipher.c`);
/// here it is moved out of SQLite's way before the journal is opened, kept for the person to
/// look at, and said in words (in the window, by every command, by `--check`) for as long as it
/// is kept.
///
/// So is a write-ahead log (`-wal`) written without the journal's key: the VFS masks its header's
/// checksum with the key, so SQLite would only ignore one made elsewhere, and the journal's next
/// write would overwrite it, unsaid. It is set aside only while no connection has the journal open
/// (`JournalFolderLock.othersHaveOpen`, the folder's lock held): a log in use is the journal's own.
public enum SetAsideFiles {
    /// One file set aside: where it was, and where it is kept now.
    public struct Kept: Equatable, Sendable {
        public let found: String
        public let keptAs: String

        /// What the person is told.
        public var words: String {
            String(format: tr("A file Flourish did not write was found beside the locked journal (%@). It was never read; it is kept as %@ for you to look at. If you did not put it there, someone else could write to the journal’s folder. Delete it once you have looked, and this message goes."),
                   (found as NSString).lastPathComponent, keptAs)
        }
    }

    /// What a kept file's name carries after the original name.
    static let mark = ".set-aside-"
    /// The side files of `file` that may be set aside: its rollback journal, its log.
    static func sideFiles(of file: String) -> [String] { [file + "-journal", file + "-wal"] }

    /// The side files of the locked journal `file` (its key `cipher`) that Flourish did not write:
    /// any rollback journal, and a log written without the key.
    static func foreign(of file: String, cipher: JournalCipher) -> [String] {
        foreign(in: Around(file), cipher: cipher)
    }

    /// The same, from a look at the folder already taken.
    private static func foreign(in around: Around, cipher: JournalCipher) -> [String] {
        sideFiles(of: around.file).filter { side in
            around.holds(side) && (side.hasSuffix("-journal") || cipher.logIsForeign(beside: around.file))
        }
    }

    /// Moves every foreign side file of the locked journal `file` aside (a rename in its folder),
    /// then returns every file kept aside beside it, these and any from before. A file that
    /// cannot be moved stops the opening: the journal is not opened while it is in SQLite's way.
    /// The moving holds the folder's lock exclusively (`JournalFolderLock`), taken here only when
    /// there is something to move (most openings have nothing), unless the caller holds it.
    static func setAside(beside file: String, shownAs path: String, cipher: JournalCipher, holdingFolderLock: Bool,
                         now: Date = Date()) throws(JournalError) -> [Kept] {
        // One look at the folder tells which side files are there and which are kept: every
        // opening of a locked journal looks, and most find nothing.
        var around = Around(file)
        let found = foreign(in: around, cipher: cipher)
        if !found.isEmpty {
            if holdingFolderLock {
                try moveAside(found, beside: file, shownAs: path, now: now)
            } else {
                // Looked at again under the lock: what was found may have gone meanwhile.
                try JournalFolderLock.holding(file, exclusive: true) { () throws(JournalError) in
                    try moveAside(foreign(of: file, cipher: cipher), beside: file, shownAs: path, now: now)
                }
            }
            around = Around(file)
        }
        return around.kept
    }

    /// Renames each of `found` aside.
    private static func moveAside(_ found: [String], beside file: String, shownAs path: String, now: Date) throws(JournalError) {
        let stamp = Self.stamp(now)
        for found in found {
            // A log some connection has open is the journal's own (its header read torn, say).
            if found.hasSuffix("-wal"), JournalFolderLock.othersHaveOpen(file) { continue }
            var status = stat()
            var keptAs = found + mark + stamp, number = 1
            while lstat(keptAs, &status) == 0 {
                number += 1
                keptAs = found + mark + stamp + "-\(number)"
            }
            guard rename(found, keptAs) == 0 else {
                throw .cannotOpen(path: path, reason: String(format: tr("a file Flourish did not write is beside it (%@) and could not be moved aside: %@. Move it away, then open the journal again"),
                                                             found, String(cString: strerror(errno))))
            }
        }
    }

    /// What `--check` says of the locked journal `file`, which it never changes: each foreign
    /// side file waiting beside it (set aside at the journal's next opening) and each kept.
    static func notices(beside file: String, cipher: JournalCipher) -> [String] {
        let around = Around(file)
        return foreign(in: around, cipher: cipher).map {
            String(format: tr("A file Flourish did not write is beside the locked journal (%@). It is never read, and is set aside when the journal next opens."),
                   ($0 as NSString).lastPathComponent)
        } + around.kept.map(\.words)
    }

    /// Every file kept aside beside the journal `file`, oldest first.
    static func kept(beside file: String) -> [Kept] { Around(file).kept }

    /// The names in the folder of a journal's `file` that begin with the journal's own name (its
    /// side files, their kept copies, its key file), from one listing of the folder.
    private struct Around {
        let file: String
        /// The file's path up to its name: "" for a name alone, else ending in "/".
        let folder: String
        let names: [String]
        /// Whether the folder could be listed: when not (no right to read it, only to pass
        /// through), each side file is looked for by its name.
        let listed: Bool

        init(_ file: String) {
            self.file = file
            let name: String
            if let slash = file.lastIndex(of: "/") {
                folder = String(file[...slash])
                name = String(file[file.index(after: slash)...])
            } else {
                (folder, name) = ("", file)
            }
            let entries = try? LocalFiles.entries(in: folder.isEmpty ? "." : folder)
            names = (entries ?? []).map(\.name).filter { $0.hasPrefix(name) }
            listed = entries != nil
        }

        func holds(_ path: String) -> Bool {
            guard listed else {
                var status = stat()
                return lstat(path, &status) == 0
            }
            return names.contains(String(path.dropFirst(folder.count)))
        }

        var kept: [Kept] {
            sideFiles(of: file).flatMap { found -> [Kept] in
                let prefix = String(found.dropFirst(folder.count)) + mark
                return names.filter { $0.hasPrefix(prefix) }.sorted().map { Kept(found: found, keptAs: folder + $0) }
            }
        }
    }

    /// A name part that sorts as time does and is unique to the second.
    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
