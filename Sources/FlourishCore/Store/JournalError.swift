import Foundation
import GRDB

/// Everything that can go wrong with the journal file, worded for the person using Flourish.
/// `errorDescription` is what the "Error" dialog shows.
public enum JournalError: Error, Equatable, Sendable, LocalizedError {
    case cannotCreateFolder(path: String, reason: String)
    case cannotOpen(path: String, reason: String)
    /// The file exists but is not an SQLite database, or is damaged. It is never written to.
    case damaged(path: String)
    /// The file is an SQLite database of some other program. It is never written to.
    case notAJournal(path: String)
    /// The journal was upgraded by a newer Flourish than this one.
    case newerVersion(path: String)
    /// The path is a folder, not a file.
    case isFolder(path: String)
    /// The path is a pipe, a device or a socket, not a file.
    case notAFile(path: String)
    /// A Flourish journal that failed its health check: shown as far as it can be read, never
    /// written to.
    case damagedJournal(path: String)
    case readOnly(path: String)
    /// The journal is locked: it opens only with its passphrase or recovery key.
    case locked(path: String)
    /// What was typed opens neither the passphrase's wrapping of the key nor the recovery key's.
    case wrongPassphrase
    /// A key file beside a journal that is not locked: locking or unlocking it was cut short, or
    /// someone replaced the locked journal with a plain file. Nothing opens it (nothing is written
    /// in the clear by mistake) until the person says which it is: `--encrypt` or `--decrypt`.
    case halfLocked(path: String)
    /// A locked journal whose key file (`<journal>.key`) is not beside it.
    case keyFileMissing(path: String)
    /// A locked journal's key file that is not one.
    case keyFileDamaged(path: String)
    /// The entry was deleted meanwhile (in another window, or by hand).
    case entryMissing
    /// A tag's name that cannot be used (said next to the field).
    case tagName(TagName.Problem)
    /// A measure's definition that cannot be kept (said next to the field).
    case measure(MeasureDefinition.Problem)
    /// The measure was deleted meanwhile (in another window).
    case measureMissing
    /// The entry's row is there but cannot be read (edited by hand outside Flourish); it is left as it is.
    case unreadableEntry
    /// The search index refused the words as asked (see `JournalStore.matches`).
    case refusedSearch
    case diskFull
    case busy
    /// The journal was closed (locked, say) while this was on its way.
    case closed
    case io(reason: String)
    case other(reason: String)
    /// A file added as a photo that is not a JPEG, PNG, WebP or HEIC picture.
    case notAPicture(name: String)
    /// A picture that could not be read (damaged, cut short), with why.
    case unreadablePicture(name: String, reason: String)
    /// A photo whose file is no longer in the journal's photo folder.
    case photoMissing(name: String)
    /// A photo whose file is not what Flourish wrote (changed or cut short): never shown.
    case photoDamaged(name: String)

    public var errorDescription: String? {
        switch self {
        case let .cannotCreateFolder(path, reason):
            String(format: tr("Flourish could not create the folder for your journal at %@: %@."), path, reason)
        case let .cannotOpen(path, reason):
            String(format: tr("Flourish could not open your journal at %@: %@."), path, reason)
        case let .damaged(path):
            String(format: tr("The journal at %@ is damaged or is not a database. Flourish left it untouched; restore it from a backup or open another journal with --database."), path)
        case let .notAJournal(path):
            String(format: tr("The file at %@ is not a Flourish journal (it may belong to another program). Flourish left it untouched."), path)
        case let .newerVersion(path):
            String(format: tr("The journal at %@ was written by a newer version of Flourish. Update Flourish to open it; it was left untouched."), path)
        case let .isFolder(path):
            String(format: tr("%@ is a folder, not a journal file. Give the path of a journal file (it is created if it does not exist)."), path)
        case let .notAFile(path):
            String(format: tr("%@ is not a regular file (it is a pipe, a device or a socket), so it cannot be a journal. Flourish left it untouched."), path)
        case let .damagedJournal(path):
            String(format: tr("The journal at %@ is damaged, so Flourish will not write to it and nothing was saved. Recover your entries into a new journal with “Recover…” or “flourish --recover”."), path)
        case let .readOnly(path):
            String(format: tr("Flourish cannot write to your journal at %@: the file or its folder is read-only."), path)
        case let .locked(path):
            String(format: tr("The journal at %@ is locked: it opens with its passphrase or its recovery key."), path)
        case .wrongPassphrase:
            tr("That passphrase does not open this journal. Check it and try again, or use the recovery key.")
        case let .halfLocked(path):
            String(format: tr("The journal at %@ is not locked, but its key file (%@.key) is beside it: locking or unlocking it was cut short, or someone replaced the locked journal with a plain file. Flourish opens it only once you say which it is: “flourish --encrypt” locks it again with the key file’s passphrase, “flourish --decrypt” makes it plain for good (each asks for the passphrase). If you did neither, the file there is not your journal: move it away and put a copy of your locked journal in its place (the backups folder keeps locked copies)."),
                   path, (path as NSString).lastPathComponent)
        case let .keyFileMissing(path):
            String(format: tr("The journal at %@ is locked, and its key file (%@.key) is not beside it. Put the key file back beside the journal to open it."), path, (path as NSString).lastPathComponent)
        case let .keyFileDamaged(path):
            String(format: tr("The key file at %@ is damaged, so the journal beside it cannot be opened. Put back a copy of the key file (one is kept beside the backups)."), path)
        case .entryMissing:
            tr("This entry is no longer in the journal; it may have been deleted in another window.")
        case .tagName(let problem):
            problem.message
        case .measure(let problem):
            problem.message
        case .measureMissing:
            tr("This measure is no longer in the journal; it may have been deleted in another window.")
        case .refusedSearch:
            tr("Flourish could not search for these words.")
        case .unreadableEntry:
            tr("This entry could not be read, so Flourish left it as it is.")
        case .diskFull:
            tr("There is no space left on the disk, so the entry was not saved. Free some space and try again.")
        case .busy:
            tr("The journal is in use by another program. Try again in a moment.")
        case .closed:
            tr("The journal was closed before this was done.")
        case let .io(reason):
            String(format: tr("Flourish could not read or write the journal (%@). Check the disk and try again."), reason)
        case let .other(reason):
            reason
        case let .notAPicture(name):
            String(format: tr("“%@” is not a picture Flourish can keep: only JPEG, PNG, WebP and HEIC photos can be added."), name)
        case let .unreadablePicture(name, reason):
            String(format: tr("“%@” could not be read as a picture (%@), so it was not added."), name, reason)
        case let .photoMissing(name):
            String(format: tr("The photo “%@” is no longer in the journal's photo folder."), name)
        case let .photoDamaged(name):
            String(format: tr("The photo “%@” was changed or cut short since Flourish kept it, so it is not shown."), name)
        }
    }

    /// Translates SQLite's result codes into the person's terms.
    init(_ error: any Error, path: String) {
        if let journalError = error as? JournalError {
            self = journalError
            return
        }
        guard let database = error as? DatabaseError else {
            self = .other(reason: error.localizedDescription)
            return
        }
        // A sealed page that did not open (changed, cut short, moved): damage, as SQLite's own
        // corruption is.
        if database.extendedResultCode == .SQLITE_IOERR_DATA {
            self = .damaged(path: path)
            return
        }
        switch database.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: self = .damaged(path: path)
        case .SQLITE_FULL: self = .diskFull
        case .SQLITE_READONLY, .SQLITE_PERM: self = .readOnly(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy
        case .SQLITE_CANTOPEN: self = .cannotOpen(path: path, reason: database.message ?? tr("the file cannot be opened"))
        case .SQLITE_IOERR: self = .io(reason: database.message ?? tr("input/output error"))
        case .SQLITE_ERROR where database.message?.hasPrefix("fts5:") == true: self = .refusedSearch
        default: self = .other(reason: String(format: tr("The journal reported an error: %@."), database.message ?? "\(database.resultCode)"))
        }
    }
}
