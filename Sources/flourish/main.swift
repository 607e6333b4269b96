import FlourishApp
import FlourishCore
import Foundation

// Flourish's command line. GTK never sees these arguments: they are Flourish's own.

// Before any thread starts: one malloc arena for all, so what background reads free is reused
// by the next rather than kept apart per thread.
shareOneMallocArena()

// Translations first: everything below may speak to the person.
Localization.setUp(localeDirectory: BuildProfile.installedDataDirectory.map { ($0 as NSString).appendingPathComponent("locale") })

// An imported photo is kept only when its pixels decode, by the window's reader.
ImportPictureCheck.install()

func usage() -> String {
    String(format: tr("Usage: flourish [OPTION…]\n\nA mood journal for the desktop: log how you feel, look back over your days.\n\nOptions:\n  --database PATH   open the journal at PATH instead of %@\n  --check           check the journal (or --database PATH) and exit: 0 healthy, 1 damaged\n  --recover PATH OUT  copy every entry that can still be read from the journal at PATH\n                    into a new journal at OUT (PATH is never changed)\n  --restore FILE    make the backup FILE the journal (or --database PATH); the journal\n                    it replaces is kept in the backups folder. Quit Flourish first.\n  --export FORMAT PATH  write the whole journal to PATH as json, zip (the JSON with every\n                    photo), csv or markdown (its photos in a folder beside it named\n                    NAME-photos), or markdown-by-year (one file a year into the folder\n                    PATH, its photos in PATH/photos), or pdf (a book to read or print:\n                    a cover with each year in pixels, then the entries with their moods\n                    and photos, on the locale's paper; plain even when the journal is locked)\n  --from YYYY-MM-DD  --to YYYY-MM-DD  the first and last day in --export pdf\n  --import PATH     add the entries of a Daylio CSV export or backup (.daylio, with its\n                    photos), a Day One or Journey export (its ZIP, with its photos), a Diaro\n                    backup, a jrnl JSON export, a folder of Markdown daily notes\n                    (2024-03-02.md), RedNotebook's data folder or a Flourish JSON or ZIP\n                    export (with its photos) at PATH\n                    (Daylio's moods: rad the best, good really good, meh okay, bad not so\n                    great, awful the worst, in any language; a backup's own moods by their\n                    step, any other okay); entries already there are skipped\n  --sync-setup TARGET  sync the journal through TARGET, a folder or a WebDAV address\n                    (https://USER@HOST/PATH/), end-to-end encrypted: join the journal there\n                    with its passphrase, or start one with a new passphrase; the WebDAV\n                    password, then the passphrase, are read from standard input when it is\n                    not a terminal, one line each; then sync once\n  --sync            sync once (the password and passphrase are read as for --sync-setup)\n  --sync-off        stop syncing on this computer; the journal stays as it is\n  --sync-passphrase  change the sync passphrase (the current one, then the new one, are\n                    read as for --sync-setup); other computers go on syncing\n  --sync-new-key    shut the other computers out: a new journal key and passphrase (read\n                    as for --sync-passphrase); each computer then needs the new passphrase\n  --encrypt         lock the journal: every byte of it on disk, and of its backups, is\n                    encrypted under a new passphrase (read as for --sync-setup); prints\n                    a recovery key, once\n  --decrypt         make a locked journal plain again (after its passphrase)\n  --lock-new-key    for a passphrase that may have leaked: the locked journal, its\n                    backups and its photos encrypted anew under a new key and a new\n                    passphrase (the current one, then the new one, are read as for\n                    --sync-passphrase); prints a new recovery key, once\n                    A locked journal's passphrase (or recovery key) is asked for first by\n                    every command that opens it, unless the keyring keeps its key; it is\n                    the first line of standard input when that is not a terminal\n  --unlock-at-login on  keep the locked journal's key in the desktop's keyring (after its\n                    passphrase): it opens without asking while you are logged in\n  --unlock-at-login off  the keyring no longer keeps it: the passphrase is asked for again\n  --remind HH:MM    remind me each day at HH:MM (24 hours) to write, with a desktop\n                    notification, unless today is written; also when Flourish is closed\n  --remind off      no more daily reminders\n  --version         print the version and exit\n  -h, --help        print this help and exit\n"),
           JournalPaths.defaultJournal())
}

func fail(_ message: String) -> Never {
    let hint = tr("Try “flourish --help” for more information.")
    FileHandle.standardError.write(Data("flourish: \(message)\n\(hint)\n".utf8))
    end(2)
}

var arguments = CommandLine.arguments.dropFirst()
var databasePath: String?
var checkOnly = false
var recovery: (from: String, to: String)?
var restoreFrom: String?
var exportTo: (format: ExportFormat, path: String)?
var importFrom: String?
var pdfTo: String?
var pdfFrom: Insights.Day?
var pdfUntil: Insights.Day?
var syncCommand: SyncCommand?
var remind: ReminderTime??
var asService = false
var lockCommand: String?
var unlockAtLogin: Bool?
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage(), terminator: "")
        end(0)
    case "--version":
        print("Flourish \(BuildProfile.version)")
        end(0)
    case "--check":
        checkOnly = true
    case "--recover":
        guard let from = arguments.popFirst(), let to = arguments.popFirst(), !from.isEmpty, !to.isEmpty else {
            fail(tr("--recover needs the damaged journal's path and a new file's path"))
        }
        recovery = (from, to)
    case "--restore":
        guard let file = arguments.popFirst(), !file.isEmpty else { fail(tr("--restore needs the backup's path")) }
        restoreFrom = file
    case "--export":
        guard let name = arguments.popFirst(), let path = arguments.popFirst(), !path.isEmpty else {
            fail(tr("--export needs a format (json, zip, csv, markdown, markdown-by-year or pdf) and a path"))
        }
        if name == "pdf" {
            pdfTo = path
            continue
        }
        guard let format = ExportFormat(rawValue: name) else {
            fail(String(format: tr("--export knows json, zip, csv, markdown, markdown-by-year and pdf, not “%@”"), name))
        }
        exportTo = (format, path)
    case "--from", "--to":
        guard let value = arguments.popFirst(), let day = bookDay(value) else {
            fail(String(format: tr("%@ needs a day as YYYY-MM-DD"), argument))
        }
        if argument == "--from" { pdfFrom = day } else { pdfUntil = day }
    case "--import":
        guard let path = arguments.popFirst(), !path.isEmpty else { fail(tr("--import needs the path of the file to import")) }
        importFrom = path
    case "--sync-setup":
        guard let target = arguments.popFirst(), !target.isEmpty else { fail(tr("--sync-setup needs the folder or WebDAV address to sync through")) }
        syncCommand = .setup(target)
    case "--sync":
        syncCommand = .sync
    case "--sync-off":
        syncCommand = .off
    case "--sync-passphrase":
        syncCommand = .changePassphrase
    case "--sync-new-key":
        syncCommand = .newKey
    case "--remind":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail(tr("--remind needs a time as HH:MM (24 hours), or off")) }
        if value == "off" {
            remind = .some(nil)
        } else if let time = ReminderTime(value) {
            remind = .some(time)
        } else {
            fail(String(format: tr("--remind needs a time as HH:MM (24 hours), such as 20:00, or off; “%@” is neither"), value))
        }
    case "--encrypt", "--decrypt", "--lock-new-key":
        lockCommand = argument
    case "--unlock-at-login":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail(tr("--unlock-at-login needs on or off")) }
        guard value == "on" || value == "off" else {
            fail(String(format: tr("--unlock-at-login needs on or off; “%@” is neither"), value))
        }
        unlockAtLogin = value == "on"
    case "--gapplication-service":
        // How the login item and D-Bus activation start Flourish: in the background, no window.
        asService = true
    case "--database":
        guard let path = arguments.popFirst(), !path.isEmpty else { fail(tr("--database needs a file path")) }
        databasePath = path
    default:
        if argument.hasPrefix("--database=") {
            databasePath = String(argument.dropFirst("--database=".count))
        } else {
            fail(String(format: tr("unknown option %@"), argument))
        }
    }
}

/// A rescue command that could not do its work: the reason on stderr, exit status 1.
func failed(_ error: JournalError) -> Never {
    FileHandle.standardError.write(Data("flourish: \(error.errorDescription ?? "\(error)")\n".utf8))
    end(1)
}

let journalPath = databasePath ?? JournalPaths.defaultJournal()
if let remind {
    let preferences = Preferences(path: Preferences.defaultPath(folderName: BuildProfile.dataFolderName))
    let loginItem = LoginItem(applicationID: BuildProfile.applicationID)
    do {
        if let time = remind {
            try ReminderSwitch.turnOn(at: time, preferences: preferences, loginItem: loginItem)
        } else {
            try ReminderSwitch.turnOff(preferences: preferences, loginItem: loginItem)
        }
        // Read again: what is said is what the file holds.
        print(ReminderSwitch.summary(Preferences(path: preferences.path)))
        end(0)
    } catch let notSaved as ReminderSwitch.NotSaved {
        FileHandle.standardError.write(Data("flourish: \(notSaved.errorDescription ?? ""); nothing was changed\n".utf8))
        end(1)
    } catch {
        print(ReminderSwitch.summary(Preferences(path: preferences.path)))
        let words = String(format: tr("the login item at %@ could not be changed: %@"), loginItem.path, error.localizedDescription)
        FileHandle.standardError.write(Data("flourish: \(words)\n".utf8))
        end(1)
    }
}
if let lockCommand {
    switch lockCommand {
    case "--encrypt": runEncrypt(journalPath)
    case "--lock-new-key": runLockNewKey(journalPath)
    default: runDecrypt(journalPath)
    }
}
if let unlockAtLogin { runUnlockAtLogin(unlockAtLogin, journalPath) }
if checkOnly {
    let verdict = JournalRescue.check(path: journalPath, cipher: cipherIfLocked(journalPath))
    print(verdict.lines.joined(separator: "\n"))
    end(verdict.healthy ? 0 : 1)
}
if let recovery {
    do {
        let result = try JournalRescue.recover(from: recovery.from, to: recovery.to, cipher: cipherIfLocked(recovery.from))
        print(String(format: tr("Recovered %@ entries into %@; %@ could not be read."),
                     "\(result.recovered)", result.output, "\(result.lost)"))
        end(0)
    } catch {
        failed(error)
    }
}
if let restoreFrom {
    do {
        let kept = try JournalRescue.restore(backup: restoreFrom, to: journalPath, cipher: cipherIfLocked(journalPath))
        print(String(format: tr("Restored %@ as the journal at %@."), restoreFrom, journalPath))
        if let kept { print(String(format: tr("The journal it replaced is kept at %@."), kept)) }
        end(0)
    } catch {
        failed(error)
    }
}

/// Opens the journal for the export and import commands; a journal that cannot be opened fails them.
func openJournal() -> JournalStore {
    do {
        let store = try JournalStore(path: journalPath, cipher: cipherIfLocked(journalPath))
        OpenedJournal.shared.hold(store)
        // Not a failure (the journal is as the person left it), but never passed over in silence.
        for kept in store.setAside { FileHandle.standardError.write(Data("flourish: \(kept.words)\n".utf8)) }
        if let cipher = store.cipher {
            sealPlainCopies(of: store, cipher: cipher)
            if store.finishedNewKey { sayRenewedRecoveryKey(of: store, cipher: cipher) }
        }
        return store
    } catch {
        failed(error)
    }
}

if let exportTo {
    let store = openJournal()
    do {
        let result = try store.export(exportTo.format, to: exportTo.path)
        print(String(format: tr("Exported %@ entries to %@."), "\(result.entries)", result.files.joined(separator: ", ")))
        if result.unreadable > 0 { print(String(format: tr("%@ entries could not be read and were left out."), "\(result.unreadable)")) }
        if result.photos > 0 {
            let photos = PhotoCount.words(result.photos)
            print(result.photosIncluded ? String(format: tr("%@ written with them."), photos)
                : String(format: tr("%@ not included: use --export zip to have them."), photos))
        }
        end(0)
    } catch {
        FileHandle.standardError.write(Data("flourish: \(error.message)\n".utf8))
        end(1)
    }
}
if pdfFrom != nil || pdfUntil != nil, pdfTo == nil {
    fail(tr("--from and --to choose the days of --export pdf"))
}
if let pdfTo {
    runPDFExport(openJournal(), to: pdfTo, from: pdfFrom, to: pdfUntil)
}
if let syncCommand {
    let store = openJournal()
    switch syncCommand {
    case .setup(let target): runSyncSetup(store, target: target)
    case .sync: runSync(store)
    case .off: runSyncOff(store)
    case .changePassphrase: runSyncKeyChange(store, newKey: false)
    case .newKey: runSyncKeyChange(store, newKey: true)
    }
}
if let importFrom {
    let store = openJournal()
    do {
        let entries: [ImportedEntry], tags: [String]
        let file = try ImportFile.read(path: importFrom)
        switch file {
        case .daylio(let export):
            for mood in export.moods {
                print(String(format: tr("Daylio’s “%@” (%@ entries) becomes “%@”."), mood.name, "\(mood.count)", mood.proposed.title))
            }
            (entries, tags) = (export.entries(), [])
        case .flourish(let read, let names, _, _):
            (entries, tags) = (read, names)
        case .foreign(let journal):
            print(journal.entries.count == 1 ? String(format: tr("A journal from %@: 1 entry."), journal.source)
                  : String(format: tr("A journal from %@: %@ entries."), journal.source, "\(journal.entries.count)"))
            (entries, tags) = (journal.entries, journal.tags)
        }
        if !entries.spanWords.isEmpty { print(entries.spanWords) }
        if !file.remarks.isEmpty { print(file.remarks) }
        let notKept = ImportFile.valuesNotKept(in: entries, measures: file.measures)
        if !notKept.isEmpty { print(notKept) }
        switch entries.withoutMood {
        case 0: break
        case 1: print(tr("1 of them has no mood, and is kept without one."))
        case let count: print(String(format: tr("%@ of them have no mood, and are kept without one."), "\(count)"))
        }
        let summary = try store.importSummary(entries)
        let receipt = try store.importEntries(entries, tags: tags, measures: file.measures, templates: file.templates)
        print(String(format: tr("Imported %@ entries (%@ already in your journal) and %@ new tags."),
                     "\(receipt.entryIDs.count)", "\(summary.already)", "\(receipt.tagIDs.count)"))
        if receipt.photos > 0 { print(String(format: tr("%@ came with them."), PhotoCount.words(receipt.photos))) }
        end(0)
    } catch let problem as ImportProblem {
        FileHandle.standardError.write(Data("flourish: \(importFrom): \(problem.message)\n".utf8))
        end(1)
    } catch let error as JournalError {
        failed(error)
    } catch {
        FileHandle.standardError.write(Data("flourish: \(error)\n".utf8))
        end(1)
    }
}

let status = MainActor.assumeIsolated {
    let app = FlourishApplication(journalPath: journalPath, asService: asService)
    return app.run()
}
end(status)
