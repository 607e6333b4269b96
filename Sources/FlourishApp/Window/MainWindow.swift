import FlourishCore
import Foundation
import GtkKit

/// The window: a header bar whose switcher flips between "New Entry" and "Journal".
@MainActor
final class MainWindow {
    let window: Window
    let pages = Stack()
    let form: EntryFormController
    let journal: JournalController
    /// The Insights page, made the first time it is needed (shown, or made ready once the
    /// window is idle: see `onHealthChecked`), into `insightsPage`: start-up builds only what
    /// the first page shows.
    var insights: InsightsController { insightsIfMade ?? makeInsights() }
    private(set) var insightsIfMade: InsightsController?
    let insightsPage = Box(.vertical)
    let alerts: Alerts
    /// "Entry deleted" with Undo, over the top of the window.
    let notice: UndoNotice
    /// An entry's photos, one at a time, over the window.
    let viewer: PhotoViewer
    /// Across the top when the journal turns out to be damaged.
    let damageBar: DamageBar
    private let model: JournalModel
    private let preferences: Preferences
    /// The shortcuts window while it is open.
    private(set) var shortcutsWindow: BuilderWindow?
    /// The Tags window, once opened.
    private(set) var tagsWindow: TagsWindow?
    /// Preferences → Measures, once opened.
    private(set) var measuresWindow: MeasuresWindow?
    private(set) var templatesWindow: TemplatesWindow?
    /// The Export and Import windows, once opened.
    private(set) var exportWindow: ExportWindow?
    private(set) var importer: ImportWindow?
    /// Print… or Export as PDF…, made anew each time (the search it offers may have changed).
    private(set) var bookWindow: BookWindow?
    /// Sync, when the window has the journal's store (the app always does).
    let sync: SyncController?
    private(set) var syncWindow: SyncWindow?
    /// The daily reminder (the app's); nil where the journal is not the one people use.
    let reminders: ReminderService?
    private(set) var preferencesWindow: PreferencesWindow?
    /// The recovery key, shown once after the lock was turned on.
    private(set) var recoveryKeyWindow: RecoveryKeyWindow?
    /// The lock's switches, given by the application (which owns the journal).
    var lock: LockActions?
    /// For a locked journal: locks it after the chosen minutes without input in this window.
    private(set) var idleWatch: IdleWatch?
    /// Where turning the reminder on puts the login item (tests point it at their own folder).
    var loginItem = LoginItem(applicationID: BuildProfile.applicationID)
    /// How sync stands, in the header bar while it is on; it opens the Sync window.
    let syncStatus = Button("")
    /// The main menu (F10), its items made when it first opens.
    let mainMenu = MenuButton(iconName: "open-menu-symbolic", accessibleName: tr("Main Menu"), items: [
        (tr("_Tags"), "win.show-tags"),
        (tr("_Export…"), "win.export"),
        (tr("Export as _PDF…"), "win.export-pdf"),
        (tr("_Print…"), "win.print"),
        (tr("_Import…"), "win.import"),
        (tr("Import a _Folder of Notes…"), "win.import-folder"),
    ] + (RedNotebookData.hasJournal ? [(tr("Import from _RedNotebook"), "win.import-rednotebook")] : []) + [
        (tr("_Sync…"), "win.sync"),
        (tr("_Preferences"), "win.preferences"),
        (tr("_Lock"), "app.lock"),
        (tr("_Keyboard Shortcuts"), "win.show-help-overlay"),
        (tr("_About Flourish"), "win.about"),
    ])
    /// Gives freed memory back once the window is quiet; made as the window is presented.
    private var memoryTidy: MemoryTidy?
    private let application: Application
    /// The journal's file, to tell whether it is locked.
    private let journalPath: String

    enum Page: String {
        case newEntry = "new-entry"
        case journal
        case insights
    }

    /// Told once the window has closed (the application may keep running for reminders).
    var onClosed: () -> Void = {}
    /// Closing: it is not to be shown again.
    private(set) var isClosed = false

    /// Told once the journal has passed its health check (the day's backup is written then).
    var onHealthy: () -> Void = {}

    /// How long after the window appears the journal's health check starts: the first frame and
    /// the person's first look come first; a save made before then waits for the check.
    static let healthCheckDelay: UInt32 = 1_500

    init(application: Application, model: JournalModel, journalPath: String, location: LocationProvider,
         preferences: Preferences, store: JournalStore? = nil, reminders: ReminderService? = nil) {
        Theme.install()
        self.preferences = preferences
        self.reminders = reminders
        self.model = model
        self.application = application
        self.journalPath = journalPath
        let window = Window(application: application)
        self.window = window
        window.title = "Flourish"
        // The size it had when last closed, else one that fits the form and a few rows.
        let size = preferences.windowSize ?? (width: 720, height: 640)
        window.setDefaultSize(width: Int32(clamping: size.width), height: Int32(clamping: size.height))
        if preferences.windowMaximized { window.maximize() }
        // A development build looks different (striped header bar) so it is never mistaken.
        if BuildProfile.isDevelopment { window.addClass("devel") }
        alerts = Alerts(window: window)
        let thumbnails = PhotoThumbnails(model: model)
        form = EntryFormController(model: model, alerts: alerts, location: location, preferences: preferences, thumbnails: thumbnails)
        notice = UndoNotice(model: model, alerts: alerts)
        journal = JournalController(model: model, alerts: alerts, notice: notice, thumbnails: thumbnails, preferences: preferences)
        viewer = PhotoViewer(model: model, alerts: alerts)
        // Each form's photos to the viewer and the notice: the Edit page's once it is made.
        Self.connect(form.fields.photos, to: viewer, notice: notice)
        journal.onEditorMade = { [unowned viewer, unowned notice] editor in Self.connect(editor.fields.photos, to: viewer, notice: notice) }
        journal.onEntryViewMade = { [unowned viewer] entryView in
            entryView.onOpenPhoto = { [unowned viewer] photos, index, tile in viewer.open(photos, at: index, from: tile) }
        }
        damageBar = DamageBar(journalPath: journalPath, alerts: alerts, quit: { [unowned window] in window.close() })
        sync = store.map { SyncController(store: $0, model: model) }

        pages.addPage(form.view, name: Page.newEntry.rawValue, title: tr("New Entry"))
        pages.addPage(journal.view, name: Page.journal.rawValue, title: tr("Journal"))
        pages.addPage(insightsPage, name: Page.insights.rawValue, title: tr("Insights"))
        let header = HeaderBar()
        header.packStart(journal.backButton)
        header.setTitleWidget(StackSwitcher(stack: pages))
        header.packEnd(mainMenu)
        syncStatus.addClass("flat")
        header.packEnd(syncStatus)
        syncStatus.onClicked { [unowned self] in showSync() }
        sync?.observe { [unowned self] in showSyncStatus() }
        showSyncStatus()
        window.setTitlebar(header)
        let overlay = Overlay(child: pages)
        overlay.addOverlay(viewer.view)
        overlay.addOverlay(notice.view)
        // Under the viewer, nothing takes the keyboard (Tab stays among its buttons).
        viewer.onOpenChanged = { [unowned self] open in pages.isSensitive = !open }
        let content = Box(.vertical)
        content.append(damageBar.view)
        content.append(overlay)
        window.setChild(content)
        window.releaseTextFocusOnOutsideClicks()

        window.addAction("save-entry") { [unowned self] in
            // Ctrl+Enter saves the form on screen; elsewhere on the journal it takes the person to New Entry.
            if page == .newEntry {
                form.save()
            } else if journal.page == .edit {
                journal.editor.save()
            } else {
                show(.newEntry)
            }
        }
        window.addAction("back") { [unowned self] in if page == .journal { journal.back() } }
        window.addAction("edit-entry") { [unowned self] in if page == .journal { journal.editOpenEntry() } }
        window.addAction("undo") { [unowned self] in notice.undo() }
        // Ctrl+Z undoes a deletion while the notice offers it. Not an application shortcut:
        // those run before the focused widget, and a text field's own Ctrl+Z (undo typing) comes first.
        window.setActionEnabled("undo", false)
        window.onKeyPressed { [unowned self] key, modifiers in
            guard key.isLetter("z"), modifiers.meaningful == .control, self.window.isActionEnabled("undo") else { return false }
            return self.window.activateAction("win.undo")
        }
        notice.onVisibilityChanged = { [unowned self] showing in self.window.setActionEnabled("undo", showing) }
        window.addAction("show-new-entry") { [unowned self] in show(.newEntry) }
        window.addAction("show-journal") { [unowned self] in
            Trace.mark("show journal")
            show(.journal)
        }
        window.addAction("show-insights") { [unowned self] in
            Trace.mark("show insights")
            show(.insights)
        }
        // Insights on screen follows every change; hidden, it reads its figures when shown.
        journal.onEntriesChanged = { [unowned self] in
            if let insights = insightsIfMade, insights.view.isMapped { insights.refresh() }
            sync?.journalChanged()
            reminders?.journalChanged()
        }
        window.addAction("show-help-overlay") { [unowned self] in showShortcuts() }
        window.addAction("show-tags") { [unowned self] in showTags() }
        // Template → Edit Templates…, in the New Entry form and in the Edit page once it is made.
        form.fields.templateMenu.onEdit = { [unowned self] in showTemplates() }
        let madeEditor = journal.onEditorMade
        journal.onEditorMade = { [unowned self] editor in
            madeEditor(editor)
            editor.fields.templateMenu.onEdit = { [unowned self] in showTemplates() }
        }
        window.addAction("export") { [unowned self] in showExport() }
        window.addAction("export-pdf") { [unowned self] in showBook(.pdf) }
        window.addAction("print") { [unowned self] in showBook(.print) }
        window.addAction("import") { [unowned self] in chooseImport() }
        window.addAction("import-folder") { [unowned self] in importWindow().chooseFolder(from: window) }
        // Offered when this computer keeps a RedNotebook journal: its preview at once.
        window.addAction("import-rednotebook") { [unowned self] in importWindow().read(RedNotebookData.defaultFolder) }
        window.addAction("sync") { [unowned self] in showSync() }
        window.addAction("preferences") { [unowned self] in showPreferences() }
        window.setActionEnabled("sync", sync != nil)
        window.addAction("find") { [unowned self] in
            show(.journal)
            journal.startSearch()
        }
        window.addAction("about") { [unowned self] in
            AboutDialog.present(parent: self.window, name: "Flourish", version: BuildProfile.version,
                                comments: tr("Log how you feel and look back over your days"),
                                iconName: BuildProfile.applicationID)
        }
        application.setAccelerators(["<Control>question"], for: "win.show-help-overlay")
        application.setAccelerators(["<Control>Return", "<Control>KP_Enter"], for: "win.save-entry")
        application.setAccelerators(["<Alt>1"], for: "win.show-new-entry")
        application.setAccelerators(["<Alt>2"], for: "win.show-journal")
        application.setAccelerators(["<Alt>3"], for: "win.show-insights")
        application.setAccelerators(["<Alt>Left"], for: "win.back")
        application.setAccelerators(["<Control>e"], for: "win.edit-entry")
        application.setAccelerators(["<Control>f"], for: "win.find")
        application.setAccelerators(["<Control>comma"], for: "win.preferences")
        application.setAccelerators(["<Control>p"], for: "win.print")
        window.onCloseRequest { [unowned self] in keepOpenForUnsavedEntry() }
        journal.onHealthChecked = { [unowned self] in
            Trace.once("journal checked")
            // The check read every page of the file: what it let go of goes back once all is quiet.
            memoryTidy?.activity()
            // The check has just read the whole file, so the list's ids now come from memory:
            // read them in the background, and Alt+2 shows the journal without waiting for them.
            model.loadIfNeeded()
            // And the Insights page, a part at a time, while nobody is waiting.
            insights.prepare()
            switch model.health {
            case .damaged?:
                damageBar.show()
                sync?.journalDamaged()
            case .healthy?:
                model.watchForOtherWriters()
                onHealthy()
                sync?.start()
            case nil: break
            }
        }
        pages.onPageChanged { [unowned self] in
            if page == .journal {
                Trace.mark("journal page shown")
                journal.focusList()
            }
            if page == .newEntry { form.titleField.grabFocus() }
            if page == .insights { insights.focusPeriod() }
        }
    }

    var page: Page { Page(rawValue: pages.visiblePage) ?? .newEntry }

    private func makeInsights() -> InsightsController {
        let made = InsightsController(model: model, alerts: alerts)
        insightsIfMade = made
        // A day of the year in pixels: its entries, in the journal's search.
        made.onShowDay = { [unowned self] day in
            show(.journal)
            journal.showDay(day)
        }
        insightsPage.append(made.view)
        return made
    }

    /// A form's photos: one taken off comes back with Undo, as a deleted entry does; one
    /// opened shows in the viewer.
    private static func connect(_ photos: PhotoAttachments, to viewer: PhotoViewer, notice: UndoNotice) {
        photos.onRemoved = { [unowned notice] photo, undo in notice.add(removedPhoto: photo, undo: undo) }
        photos.onOpen = { [unowned viewer, unowned photos] list, index in
            viewer.open(list, at: index, from: photos.tiles.indices.contains(index) ? photos.tiles[index].tile.button : nil)
        }
    }

    private var discardConfirmed = false

    /// The close button and Ctrl+Q ask before an unsaved entry is lost. Returns true to stay open.
    private func keepOpenForUnsavedEntry() -> Bool {
        let keepOpen = mustStayOpen()
        if !keepOpen {
            idleWatch?.stop()
            closeOtherWindows()
            // Once this window is gone, not while GTK is still closing it.
            isClosed = true
            MainLoop.after(milliseconds: 0) { [weak self] in self?.onClosed() }
        }
        return keepOpen
    }

    /// Locking: the window and every window of its own go at once, with nothing asked. What it
    /// held unsaved (the form's words, an edit) is returned, to be kept inside the journal. The
    /// application is told through its own lock, not `onClosed`.
    func closeForLock() -> KeptDrafts {
        idleWatch?.stop()
        var kept = KeptDrafts(newEntry: form.hasUnsavedText ? form.draft : nil)
        if let editor = journal.editorIfMade, editor.hasChanges, let original = editor.original {
            kept.edit = (original.id, editor.draft)
        }
        closeOtherWindows()
        isClosed = true
        window.destroy()
        return kept
    }

    /// An edit the lock kept: the entry open in its editor again, with the fields as they were.
    func resumeEditing(_ entry: Entry, with draft: EntryDraft) {
        show(.journal)
        journal.resumeEditing(entry, with: draft)
    }

    private func closeOtherWindows() {
        rememberSize()
        // They only hide when closed; left, they would keep the application running. A
        // running export stops, leaving no file behind.
        exportWindow?.cancel()
        // Windows over these windows go first: GTK otherwise unhooks them from a parent already gone.
        preferencesWindow?.letGoOfLockWindow()
        for window in [measuresWindow?.window, templatesWindow?.window, tagsWindow?.window, exportWindow?.window, importer?.window, syncWindow?.window,
                       bookWindow?.window, preferencesWindow?.window, recoveryKeyWindow?.window] {
            window?.destroy()
        }
        measuresWindow = nil
        templatesWindow = nil
        tagsWindow = nil
        exportWindow = nil
        importer = nil
        bookWindow = nil
        syncWindow = nil
        preferencesWindow = nil
        recoveryKeyWindow = nil
    }

    /// Starts the idle lock (a locked journal's window): input anywhere in the window counts.
    func watchIdle(clock: @escaping () -> Date = Date.init, lock: @escaping @MainActor () -> Void) {
        let watch = IdleWatch(limitMinutes: preferences.lockAfterIdleMinutes, clock: clock, due: lock)
        idleWatch = watch
        window.onAnyInput { [weak watch] in watch?.noteActivity() }
    }

    func showRecoveryKey(_ recoveryKey: String, occasion: RecoveryKeyWindow.Occasion = .locked) {
        recoveryKeyWindow?.window.destroy()
        let made = RecoveryKeyWindow(application: application, parent: window, recoveryKey: recoveryKey, occasion: occasion)
        recoveryKeyWindow = made
        made.present()
    }

    /// Next time, the window opens as the person left it.
    private func rememberSize() {
        preferences.windowMaximized = window.isMaximized
        if !window.isMaximized {
            let size = window.size
            preferences.windowSize = (Int(size.width), Int(size.height))
        }
    }

    /// The Tags window (main menu): made the first time, shown again after.
    func showTags() {
        let tags = tagsWindow ?? TagsWindow(application: application, parent: window, model: model)
        tagsWindow = tags
        tags.present()
    }

    /// Print… (Ctrl+P) or Export as PDF… (main menu): which entries, then GTK's print dialog or
    /// a file chooser.
    func showBook(_ purpose: BookWindow.Purpose) {
        bookWindow?.window.destroy()
        let book = BookWindow(purpose, application: application, parent: window, model: model, alerts: alerts,
                              searchQuery: journal.searchInEffect, locked: JournalLock.isLocked(journalPath))
        bookWindow = book
        book.present()
    }

    /// The Export window (main menu): made the first time, shown again after.
    func showExport() {
        let export = exportWindow ?? ExportWindow(application: application, parent: window, model: model, alerts: alerts)
        exportWindow = export
        export.present()
    }

    /// Preferences (main menu, Ctrl+,): made the first time, shown again after.
    func showPreferences() {
        let made = preferencesWindow ?? PreferencesWindow(application: application, parent: window, preferences: preferences,
                                                          reminders: reminders, loginItem: loginItem, lock: lock,
                                                          idleChanged: { [weak self] minutes in self?.idleWatch?.setLimit(minutes: minutes) },
                                                          showMeasures: { [weak self] in self?.showMeasures() },
                                                          showTemplates: { [weak self] in self?.showTemplates() })
        preferencesWindow = made
        made.present()
    }

    /// Preferences → Measures: made the first time, shown again after, over Preferences when
    /// that is open.
    func showMeasures() {
        let parent = preferencesWindow.map { $0.window.isVisible ? $0.window : window } ?? window
        let made = measuresWindow ?? MeasuresWindow(application: application, parent: parent, model: model)
        measuresWindow = made
        made.present()
    }

    /// Preferences → Templates (or the forms' Template menu → Edit Templates…): made the first
    /// time, shown again after, over Preferences when that is open.
    func showTemplates() {
        let parent = preferencesWindow.map { $0.window.isVisible ? $0.window : window } ?? window
        let made = templatesWindow ?? TemplatesWindow(application: application, parent: parent, model: model)
        templatesWindow = made
        made.present()
    }

    /// New Entry, as the reminder's Write entry asks: the form, with the keyboard in its title.
    /// Words already typed there stay: nothing unsaved is thrown away.
    func showNewEntry() {
        show(.newEntry)
        form.titleField.grabFocus()
    }

    /// The Sync window (main menu, or the header bar's status): made the first time, shown again after.
    func showSync() {
        guard let sync else { return }
        let made = syncWindow ?? SyncWindow(application: application, parent: window, controller: sync)
        syncWindow = made
        made.present()
    }

    /// The header bar's word on sync: shown while it is on, its whole sentence for a screen reader.
    private func showSyncStatus() {
        guard let sync else { return syncStatus.isVisible = false }
        syncStatus.isVisible = sync.isOn
        syncStatus.label = sync.shortText
        syncStatus.accessibleName = String(format: tr("Sync: %@"), sync.sentence)
        syncStatus.tooltip = sync.sentence
    }

    /// Import (main menu): the file chooser, then the Import window for what was chosen.
    func chooseImport() {
        importWindow().chooseFile(from: window)
    }

    func importWindow() -> ImportWindow {
        if let importer { return importer }
        let made = ImportWindow(application: application, parent: window, model: model, alerts: alerts)
        made.onImported = { [unowned self] receipt in notice.add(receipt) }
        importer = made
        return made
    }

    /// The keyboard shortcuts window (Ctrl+?), from Resources/shortcuts.ui.
    func showShortcuts() {
        if let shortcutsWindow, shortcutsWindow.isVisible { return shortcutsWindow.present() }
        guard let file = ResourceLocator.path(named: "shortcuts.ui"),
              let shortcuts = BuilderWindow(file: file, id: "shortcuts", translationDomain: Localization.domain,
                                            transientFor: window) else { return }
        shortcutsWindow = shortcuts
        shortcuts.present()
    }

    private func mustStayOpen() -> Bool {
        if let editor = journal.editorIfMade, editor.isSaving {
            return true
        }
        if let editor = journal.editorIfMade, editor.hasChanges {
            guard alerts.current == nil else { return true }
            show(.journal)
            alerts.confirmDiscardChanges { [unowned self, unowned editor] discard in
                if discard {
                    editor.discard()
                    window.close()
                } else {
                    editor.fields.titleField.grabFocus()
                }
            }
            return true
        }
        if form.isSaving {
            // The words are on their way to disk: close once they are there (or, if the save
            // fails, stay open with the error and the words).
            form.closeWhenSaved = { [unowned self] in window.close() }
            return true
        }
        guard form.hasUnsavedText, !discardConfirmed else { return false }
        guard alerts.current == nil else { return true }
        show(.newEntry)
        alerts.confirmDiscard { [unowned self] discard in
            if discard {
                discardConfirmed = true
                window.close()
            } else {
                form.titleField.grabFocus()
            }
        }
        return true
    }

    func show(_ page: Page) { pages.visiblePage = page.rawValue }

    /// The window appears in its final look at once. When a window first gets the keyboard, GTK
    /// fades every control from its unfocused look over 0.2 s: twenty frames of work before
    /// the app is ready, for a change no one is waiting to watch. Transitions are off (see
    /// `window.appearing` in flourish.css) until that first active frame is painted.
    private func appearAtOnce() {
        window.addClass("appearing")
        window.onFirstActive { [window] in
            window.afterNextPaint { window.removeClass("appearing") }
        }
    }

    func present() {
        appearAtOnce()
        window.present()
        Trace.once("window presented")
        Trace.frames(of: window)
        memoryTidy = MemoryTidy(window: window)
        form.titleField.grabFocus()
        // The forms' tags and measures: read with the journal as it opened, or else now, after
        // the first frame is on its way.
        if !model.hasListsFromOpening {
            model.loadTags()
            model.loadMeasures()
        }
        // The templates: the Template menu's items, and the default one for the empty form.
        model.loadTemplates()
        MainLoop.after(milliseconds: Self.healthCheckDelay) { [model] in
            // For the benchmark's table: what the window keeps, whatever the journal's size. Said
            // here, not as the window appears: its numbers, formatted, cost start-up some time.
            Trace.once("caches at most: \(JournalModel.cacheLimit.formatted()) entries, \(PhotoThumbnails.limit) thumbnails, "
                       + "SQLite's page cache (its default 2,000 KiB; 8 MiB for a locked journal, see JournalCipher)")
            Trace.once("journal check started")
            model.checkHealth()
            Self.loadDateRules()
        }
    }

    /// The first date or number formatted loads the language's and the calendar's rules (ICU's
    /// data): some milliseconds that the Journal page's first showing (its rows' dates) would
    /// otherwise wait for. Loaded in the background once the window has settled, not at start-up.
    private static func loadDateRules() {
        DispatchQueue.global(qos: .utility).async {
            _ = JournalRow.makeDateFormatter().string(from: Date())
            _ = Foundation.Calendar.current.component(.year, from: Date())
            _ = 1_000.formatted()
        }
    }
}
