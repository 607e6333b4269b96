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
    case readOnly(path: String)
    case diskFull
    case busy
    case io(reason: String)
    case other(reason: String)

    public var errorDescription: String? {
        switch self {
        case let .cannotCreateFolder(path, reason):
            "Flourish could not create the folder for your journal at \(path): \(reason)."
        case let .cannotOpen(path, reason):
            "Flourish could not open your journal at \(path): \(reason)."
        case let .damaged(path):
            "The journal at \(path) is damaged or is not a database. Flourish left it untouched; "
                + "restore it from a backup or open another journal with --database."
        case let .notAJournal(path):
            "The file at \(path) is a database of another program, not a Flourish journal. "
                + "Flourish left it untouched."
        case let .newerVersion(path):
            "The journal at \(path) was written by a newer version of Flourish. "
                + "Update Flourish to open it; it was left untouched."
        case let .readOnly(path):
            "Flourish cannot write to your journal at \(path): the file or its folder is read-only."
        case .diskFull:
            "There is no space left on the disk, so the entry was not saved. Free some space and try again."
        case .busy:
            "The journal is in use by another program. Try again in a moment."
        case let .io(reason):
            "Flourish could not read or write the journal (\(reason)). Check the disk and try again."
        case let .other(reason):
            reason
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
        switch database.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: self = .damaged(path: path)
        case .SQLITE_FULL: self = .diskFull
        case .SQLITE_READONLY, .SQLITE_PERM: self = .readOnly(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy
        case .SQLITE_CANTOPEN: self = .cannotOpen(path: path, reason: database.message ?? "the file cannot be opened")
        case .SQLITE_IOERR: self = .io(reason: database.message ?? "input/output error")
        default: self = .other(reason: "The journal reported an error: \(database.message ?? "\(database.resultCode)").")
        }
    }
}
