import Foundation

/// Everything that can go wrong with sync, worded for the person: what happened and what to do.
/// None of them carries a passphrase, a password or a key.
public enum SyncError: Error, Equatable, Sendable, LocalizedError {
    /// The folder or server cannot be reached now (the window calls this offline).
    case unreachable(place: String, reason: String)
    /// The folder (or its parent, for a new one) does not exist.
    case missing(place: String)
    case permissionDenied(place: String)
    /// The WebDAV server refused the user name or password (401).
    case wrongPassword(place: String)
    /// The server answered with an error of its own (5xx, or a status sync cannot use).
    case serverError(place: String, status: Int)
    case full(place: String)
    /// The place holds files, but not a Flourish journal.
    case notAJournal(place: String)
    /// The place now holds another synced journal than the one this journal syncs with.
    case otherJournal(place: String)
    /// Sync is not set up for this journal.
    case notSetUp
    /// The place holds a journal written by a newer Flourish.
    case newerFormat(place: String)
    case wrongPassphrase
    /// The key this machine keeps no longer opens the journal: it was changed on another
    /// computer ("Shut out other computers…"), and the new passphrase is needed.
    case keyChanged
    /// A file at the place failed its check: tampered with, truncated, or moved from elsewhere.
    /// Nothing of it was applied.
    case refusedFile(name: String)
    /// A file at the place that sync does not read: a link, a device, a pipe, or larger than
    /// any file Flourish writes.
    case skippedFile(name: String)
    /// Files that other files at the place say exist are not there: the place withholds them,
    /// or they have not arrived yet. What came is kept; they are applied when they come.
    case missingChanges(computers: String)
    /// A file that Flourish writes once was there already (it never overwrites one).
    case fileExists(name: String)
    /// The server said it was busy (423, 429, 503) at every try of one request.
    case busy(place: String)
    case other(reason: String)

    public var errorDescription: String? {
        switch self {
        case let .unreachable(place, reason):
            String(format: tr("%@ cannot be reached (%@). Your journal is kept here and syncs when it can."), place, reason)
        case let .missing(place):
            String(format: tr("%@ does not exist. Check the address, or create its parent folder first."), place)
        case let .permissionDenied(place):
            String(format: tr("Flourish may not write to %@. Check its permissions, or choose another place."), place)
        case let .wrongPassword(place):
            String(format: tr("%@ refused the user name or password. Check them (Nextcloud wants an app password). Nothing was changed."), place)
        case let .serverError(place, status):
            String(format: tr("The server at %@ answered with an error (HTTP %@). Your journal is kept here; try again later."), place, "\(status)")
        case let .full(place):
            String(format: tr("%@ is full. Make room there; nothing was lost."), place)
        case let .notAJournal(place):
            String(format: tr("%@ holds other files, not a Flourish journal. Choose an empty folder or the one your journal syncs through."), place)
        case let .otherJournal(place):
            String(format: tr("%@ now holds another synced journal. Turn sync off, then set it up again to join that one."), place)
        case .notSetUp:
            tr("Sync is not set up for this journal. Set it up first.")
        case let .newerFormat(place):
            String(format: tr("The journal at %@ was written by a newer Flourish. Update Flourish on this computer."), place)
        case .wrongPassphrase:
            tr("That is not the passphrase of this journal. Nothing was changed.")
        case .keyChanged:
            tr("The journal's key was changed on another computer. Type the new sync passphrase to go on syncing; the changes not sent from here are kept and sent then.")
        case let .refusedFile(name):
            String(format: tr("The file %@ at the sync place failed its check (changed, cut short or moved there from elsewhere). Nothing of it was applied."), name)
        case let .skippedFile(name):
            String(format: tr("%@ at the sync place is not a file Flourish wrote (a link, a device, or larger than 256 MiB). It was skipped, not read."), name)
        case let .missingChanges(computers):
            String(format: tr("Changes from %@ are missing at the sync place: later files say they were written, but they are not there. What arrived is kept, and the rest is applied when it comes."), computers)
        case let .fileExists(name):
            String(format: tr("The file %@ is already at the sync place, and Flourish never overwrites one."), name)
        case let .busy(place):
            String(format: tr("The server at %@ is busy. Your journal is kept here and syncs when the server is free again."), place)
        case let .other(reason):
            String(format: tr("Sync failed: %@."), reason)
        }
    }
}

extension SyncError {
    /// What is said while a busy server is waited for, `seconds` before the next try (`.busy` is
    /// said once the last try was busy too): in the Sync window and by the command line alike.
    public static func busyWait(seconds: Int) -> String {
        String(format: tr("The server is busy; trying again in %@ s."), "\(seconds)")
    }
}
