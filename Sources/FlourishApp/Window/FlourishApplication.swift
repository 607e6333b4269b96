import FlourishCore
import Foundation
import GtkKit

/// The running program: opens the journal off the GTK thread, then shows the window.
@MainActor
public final class FlourishApplication {
    public nonisolated static let applicationID = BuildProfile.applicationID

    let application: Application
    let journalPath: String
    private let asService: Bool
    var model: JournalModel?
    var store: JournalStore?
    private(set) var mainWindow: MainWindow?
    private let preferences = Preferences(path: Preferences.defaultPath(folderName: BuildProfile.dataFolderName))
    /// The daily reminder, for the journal people use (see `ReminderService`).
    private(set) var reminders: ReminderService?
    /// Write entry was chosen while the journal was still opening: the form shows once it is.
    private var writeWhenOpen = false
    /// A locked journal's key, from its unlocking until it is locked again (or its window closes).
    var cipher: JournalCipher?
    /// The unlock page, while a locked journal waits for its passphrase.
    var unlockWindow: UnlockWindow?
    /// Locked by the person (or the screen locking): the keyring does not open it again, only the
    /// passphrase does.
    var lockedByPerson = false
    /// The keyring is being asked for the journal's key.
    var askingKeyring = false
    /// Whether the open journal's key is kept in the keyring ("Unlock when I log in").
    var unlocksAtLogin = false
    /// Told with the main window once the journal next opens (after the lock was turned on or off).
    var whenOpened: ((MainWindow) -> Void)?

    /// - Parameters:
    ///   - journalPath: the journal file. One instance runs per journal file: a second launch on
    ///     it raises the running window (see `JournalIdentity`).
    ///   - asService: started by the login item (`--gapplication-service`): no window until
    ///     activated, and it keeps running for the daily reminder.
    public init(journalPath: String, asService: Bool = false) {
        Trace.begin()
        self.journalPath = journalPath
        self.asService = asService
        let id = JournalIdentity.applicationID(base: Self.applicationID, journal: journalPath,
                                               defaultJournal: JournalPaths.defaultJournal())
        application = Application(id: id, unique: true)
        application.onActivate { [unowned self] in activate() }
        application.addAction("quit", accelerators: ["<Control>q"]) { [unowned self] in quit() }
        application.addAction("lock", accelerators: ["<Control>l"]) { [unowned self] in lockAsked() }
        // Only the journal people use has reminders: the login item opens that one.
        if id == Self.applicationID {
            let reminders = ReminderService(application: application, preferences: preferences, journalPath: journalPath,
                                            applicationID: Self.applicationID)
            self.reminders = reminders
            application.onStartup { reminders.start() }
            application.addAction(ReminderService.writeAction) { [unowned self] in
                reminders.answered()
                writeEntry()
            }
            application.addAction(ReminderService.laterAction) { reminders.later() }
        }
    }

    /// Ends what the app's objects left running in the background once they are let go (the
    /// spelling dictionaries' freeing): called as the process ends, after the application.
    nonisolated public static func finishBackgroundWork() {
        SpellingDictionary.finishPendingWork()
    }

    /// Runs until the last window closes (and, with reminders on, for as long as the session
    /// lasts); returns the exit status. Every save started before the window closed has reached
    /// the disk when this returns.
    public func run() -> Int32 {
        let status = application.run(programName: "flourish", asService: asService)
        // A window closed last closes its journal in the background: that close (its saves, its
        // log merged back) ends before the process does.
        closing.wait()
        model?.finishPendingWork()
        model?.finishSyncWork()
        store?.close()
        // A locked journal's key is wiped before the process ends.
        JournalCipher.wipeAllKeys()
        // A journal that could not be opened ends the app as a failure, for scripts and launchers.
        return problemWindow == nil ? status : 1
    }

    private var isOpening = false
    /// Locks a locked journal when the desktop locks the screen or the computer goes to sleep.
    private var screenLockWatch: ScreenLockWatch?
    /// Follows the desktop's light or dark preference for as long as the app runs.
    private var appearance: AppearanceWatcher?

    func activate() {
        Window.setDefaultIcon(name: Self.applicationID)
        if appearance == nil {
            appearance = AppearanceWatcher { scheme in Self.follow(scheme) }
        }
        if screenLockWatch == nil {
            // Told more than once for one lock at times (two desktops' ways); locking again does nothing.
            screenLockWatch = ScreenLockWatch { [weak self] in self?.lock() }
        }
        if let mainWindow, !mainWindow.isClosed {
            mainWindow.present()
            return
        }
        // The window is going, or its journal is still being closed: open a new one after.
        if mainWindow != nil || isClosing {
            openWhenClosed = true
            return
        }
        // A second launch forwarded to this instance while the journal is still opening.
        guard !isOpening else { return }
        // A locked journal opens with its passphrase first.
        if cipher == nil, JournalLock.isLocked(journalPath) {
            return lockedByPerson ? showUnlock() : unlockFromKeyring()
        }
        // Unlocked: the window's sync takes over from the locked one.
        lockedSync.stop()
        isOpening = true
        // Keep the application alive while the journal opens without a window on screen yet.
        application.hold()
        let path = journalPath
        let cipher = cipher
        // Opening is quick, unless a journal of an earlier version is brought up to date first
        // (its search index built again: about a second for 100,000 entries). Past half a
        // second, a small window says what is happening, so the launch is not taken for a failure.
        MainLoop.after(milliseconds: Self.openingNoticeDelay) { [weak self] in
            guard let self, isOpening else { return }
            showOpeningNotice()
        }
        DispatchQueue.global(qos: .userInitiated).async {
            // A sync of the locked journal still running (`lockedSync`) ends first: opened beside
            // it, the journal's readers could take the file as no one writes it while it does.
            JournalModel.finishSyncWork()
            let opened = Result { () throws(JournalError) in
                let store = try JournalStore(path: path, cipher: cipher)
                // What the form held when the journal was locked comes back into it.
                let kept = store.keptDrafts()
                // The entry an unsaved edit was of, read now: the list reads its rows later.
                let edited = kept.edit.flatMap { try? store.entries(ids: [$0.entryID]).first }
                // The forms' tags and measures, so the window is built with them (nil: the
                // window reads them itself, and retries, as after any failed read).
                let lists = try? (tags: store.tags(counted: false), measures: store.measures())
                // This opening finished a New Key… cut short, whose recovery key may never have
                // been shown: a new one is made, and shown over the window.
                let recoveryKey = store.finishedNewKey ? store.cipher.flatMap { try? JournalLock.renewRecoveryKey(path: path, cipher: $0) } : nil
                return Opened(store: store, kept: kept, edited: edited, lists: lists,
                              keyKept: cipher != nil && LockKeyring.isKept(file: store.file), recoveryKey: recoveryKey)
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.opened(opened) }
            }
        }
    }

    /// How long opening may take before the opening notice shows, in milliseconds.
    static let openingNoticeDelay: UInt32 = 500
    /// "Opening your journal…", while a slow opening lasts.
    private var openingNotice: Window?

    private func showOpeningNotice() {
        openingNotice = messageWindow(tr("Opening your journal…"), width: 360, height: 120, hint: true)
    }

    /// A small window of the app's own, before or instead of the main one, saying `text`.
    private func messageWindow(_ text: String, width: Int32, height: Int32, hint: Bool = false) -> Window {
        Theme.install()
        let window = Window(application: application)
        window.title = "Flourish"
        window.setDefaultSize(width: width, height: height)
        let message = Label(text)
        if hint { message.addClass("empty-hint") }
        message.setMargins(24)
        window.setChild(message)
        window.present()
        return window
    }

    /// Write entry (the reminder): the window, on a New Entry form.
    private func writeEntry() {
        if let mainWindow, !mainWindow.isClosed {
            mainWindow.showNewEntry()
            mainWindow.present()
        } else {
            writeWhenOpen = true
            activate()
        }
    }

    /// The window closed while the application keeps running (reminders are on): the journal is
    /// closed off the GTK thread (a sync in flight may take a while to end, and the service must
    /// keep answering D-Bus meanwhile), and opened again when the window is next asked for.
    ///
    /// A locked journal's key goes with it: the journal is locked again until its passphrase.
    /// `draft` (the form's words, when the journal is being locked) is kept inside the journal;
    /// `work` runs once the journal is closed, still off the GTK thread, and `finish` after it.
    ///
    /// The key is wiped once the journal is closed (`wipeKey`, a locked journal's unless told
    /// otherwise), whatever still holds its object.
    func windowClosed(keeping drafts: KeptDrafts? = nil, wipeKey: Bool? = nil, then work: (@Sendable () -> Void)? = nil,
                      finish: (@MainActor () -> Void)? = nil) {
        guard let model, let store else { return }
        let wipe = wipeKey ?? (cipher != nil)
        self.mainWindow = nil
        self.model = nil
        self.store = nil
        cipher = nil
        isClosing = true
        closing.enter()
        DispatchQueue.global(qos: .userInitiated).async { [closing] in
            model.finishPendingWork()
            model.finishSyncWork()
            if let drafts, !drafts.isEmpty { try? store.keep(drafts) }
            store.close()
            // This journal's key only: a key unlocked meanwhile (the unlock page is quick) stays.
            if wipe { store.cipher?.wipe() }
            work?()
            closing.leave()
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.isClosing = false
                    finish?()
                    // Asked for while it was closing (the menu, Write entry): open it now.
                    if self.openWhenClosed {
                        self.openWhenClosed = false
                        self.activate()
                    }
                }
            }
        }
        reminders?.journalChanged()
    }

    /// The journal of a closed window is still being closed.
    var isClosing = false
    /// Held while a journal closes in the background, or a locked one syncs (`run` waits for it).
    private let closing = DispatchGroup()
    /// A locked journal's sync while the unlock page shows, when the keyring keeps its key.
    private(set) lazy var lockedSync = LockedSync(journalPath: journalPath, running: closing)
    private var openWhenClosed = false

    /// What opening the journal read, off the main thread.
    private struct Opened {
        let store: JournalStore
        /// What the form held when the journal was locked.
        let kept: KeptDrafts
        /// The entry an unsaved edit was of.
        let edited: Entry?
        let lists: (tags: [Tag], measures: [Measure])?
        /// Whether the keyring keeps a locked journal's key.
        let keyKept: Bool
        /// A recovery key made anew as the journal opened (`JournalStore.finishedNewKey`).
        let recoveryKey: String?
    }

    private func opened(_ result: Result<Opened, JournalError>) {
        isOpening = false
        openingNotice?.destroy()
        openingNotice = nil
        defer { application.release() }
        switch result {
        case .success(let opening):
            let store = opening.store, kept = opening.kept, edited = opening.edited
            unlocksAtLogin = opening.keyKept
            Trace.once("journal opened")
            self.store = store
            let model = JournalModel(store: store)
            if let lists = opening.lists { model.begin(tags: lists.tags, measures: lists.measures) }
            self.model = model
            // The ids are read when the Journal page is first shown (`JournalController`), not
            // here: start-up reads as little of a ten-year journal as of an empty one.
            let mainWindow = MainWindow(application: application, model: model, journalPath: journalPath,
                                        location: GeoClueLocationProvider(desktopID: Self.applicationID),
                                        preferences: preferences, store: store, reminders: reminders)
            self.mainWindow = mainWindow
            mainWindow.onHealthy = { Self.keepUp(store, forgettingKeptDrafts: !kept.isEmpty) }
            if let draft = kept.newEntry { mainWindow.form.restore(draft) }
            if let edit = kept.edit, let edited, edited.id == edit.entryID { mainWindow.resumeEditing(edited, with: edit.draft) }
            mainWindow.onClosed = { [weak self] in self?.windowClosed() }
            mainWindow.lock = lockActions(for: mainWindow)
            if cipher != nil { mainWindow.watchIdle { [weak self] in self?.lock() } }
            if writeWhenOpen {
                writeWhenOpen = false
                mainWindow.showNewEntry()
            }
            mainWindow.present()
            // Files someone else put beside the locked journal, kept unread: said each opening
            // until the person deletes them.
            if !store.setAside.isEmpty {
                mainWindow.alerts.showMessage(title: tr("Files Set Aside"),
                                              message: store.setAside.map(\.words).joined(separator: "\n\n"))
            }
            if let whenOpened {
                self.whenOpened = nil
                whenOpened(mainWindow)
            }
            // Last: it stands for any recovery key shown before it.
            if let recoveryKey = opening.recoveryKey { mainWindow.showRecoveryKey(recoveryKey, occasion: .newKey) }
        case .failure(let error):
            showUnopenableJournal(error)
        }
    }

    /// The start-up upkeep in the background: a locked journal's copies left plain sealed, photos
    /// nothing names let go, today's backup if it is due. A failure is no reason to stop anyone
    /// writing: it is said on stderr and tried again at the next start. The kept drafts (now back in the window) are forgotten only after it:
    /// until then they name their photos, so the upkeep keeps them.
    private static func keepUp(_ store: JournalStore, forgettingKeptDrafts: Bool) {
        DispatchQueue.global(qos: .utility).async {
            do {
                if let cipher = store.cipher {
                    for removed in try JournalLock.sealPlainCopies(path: store.path, cipher: cipher).removed {
                        let words = String(format: tr("Removed the backup %@: it could not be read, and no copy of the journal may stay behind as it was."), removed)
                        FileHandle.standardError.write(Data("flourish: \(words)\n".utf8))
                    }
                }
                if try JournalBackups(journal: store.path).keepUp(store) != nil {
                    DispatchQueue.main.async { Trace.once("backup written") }
                }
            } catch {
                FileHandle.standardError.write(Data("flourish: \((error as? JournalError)?.errorDescription ?? "\(error)")\n".utf8))
            }
            if forgettingKeptDrafts { try? store.forgetKeptDraft() }
        }
    }

    /// Dark when the desktop prefers dark; light otherwise (no preference means the theme's light).
    static func follow(_ scheme: AppearanceWatcher.Scheme) {
        let dark = scheme == .preferDark
        Toolkit.setPrefersDark(dark)
        Theme.apply(dark: dark)
    }

    /// A journal that cannot be opened is reported and left untouched; the app then quits.
    private func showUnopenableJournal(_ error: JournalError) {
        let window = messageWindow(tr("Flourish could not open your journal."), width: 480, height: 200)
        let alerts = Alerts(window: window)
        alerts.showMessage(title: tr("Error"), message: error.errorDescription ?? tr("The journal could not be opened.")) {
            window.close()
        }
        problemWindow = (window, alerts)
    }

    private var problemWindow: (Window, Alerts)?

    /// Ctrl+Q: closes the windows as their close buttons would (so an unsaved entry is asked
    /// about); the application ends when the last one has gone.
    func quit() {
        mainWindow?.window.close()
        problemWindow?.0.close()
        unlockWindow?.window.close()
    }
}
