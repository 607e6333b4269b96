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
    /// The side files of `file` that a locked journal never has.
    static func foreign(of file: String) -> [String] { [file + "-journal"] }

    /// Moves every foreign side file of the locked journal `file` aside (a rename in its folder),
    /// then returns every file kept aside beside it, these and any from before. A file that
    /// cannot be moved stops the opening: the journal is not opened while it is in SQLite's way.
    static func setAside(beside file: String, shownAs path: String, now: Date = Date()) throws(JournalError) -> [Kept] {
        let stamp = Self.stamp(now)
        for found in foreign(of: file) {
            var status = stat()
            guard lstat(found, &status) == 0 else { continue }
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
        return kept(beside: file)
    }

    /// What `--check` says of the locked journal `file`, which it never changes: each foreign
    /// side file waiting beside it (set aside at the journal's next opening) and each kept.
    static func notices(beside file: String) -> [String] {
        let waiting = foreign(of: file).filter { path in
            var status = stat()
            return lstat(path, &status) == 0
        }
        return waiting.map {
            String(format: tr("A file Flourish did not write is beside the locked journal (%@). It is never read, and is set aside when the journal next opens."),
                   ($0 as NSString).lastPathComponent)
        } + kept(beside: file).map(\.words)
    }

    /// Every file kept aside beside the journal `file`, oldest first.
    static func kept(beside file: String) -> [Kept] {
        let folder = (file as NSString).deletingLastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return foreign(of: file).flatMap { found -> [Kept] in
            let prefix = (found as NSString).lastPathComponent + mark
            return names.filter { $0.hasPrefix(prefix) }.sorted().map {
                Kept(found: found, keptAs: (folder as NSString).appendingPathComponent($0))
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
