import FlourishCore
import GtkKit

/// The "Journal" page: every entry, newest first, in a virtualized list; a friendly empty state;
/// a plain message if the journal cannot be read. The seeds' JournalController and its delegate.
@MainActor
final class JournalController: JournalModelDelegate {
    let view = Stack()
    let list: KeyedListView<JournalRow, Int64>
    let scroller = ScrolledWindow()
    let emptyState = Box(.vertical, spacing: 8)
    let problemLabel = Label()
    /// Above the list when some entries could not be read; they are tried again shortly.
    let banner = Label()
    /// "On this day": entries of earlier years on today's date, above the list.
    let memories: MemoriesCard
    /// One entry, whole; and the same entry being edited. Each is made the first time it is
    /// needed (an entry opened, an edit begun), not with the window: start-up builds only what
    /// the first page shows.
    var entryView: EntryViewController { entryViewIfMade ?? makeEntryView() }
    var editor: EditEntryController { editorIfMade ?? makeEditor() }
    /// The entry view and the editor once made (set by `makeEntryView` and `makeEditor`); nil
    /// until then, when there is nothing to ask them.
    var entryViewIfMade: EntryViewController?
    var editorIfMade: EditEntryController?
    /// Told once each is made, for what the window wires to it (its photos to the viewer).
    var onEntryViewMade: (EntryViewController) -> Void = { _ in }
    var onEditorMade: (EditEntryController) -> Void = { _ in }
    /// Words and filters above the list (Ctrl+F, or typing on the list).
    let search: JournalSearch
    /// A search's results, in a list of their own beside the journal's: the journal's list stays
    /// as it was (scrolled, focused, kept current), so Escape is only a matter of showing it again.
    let resultsList: KeyedListView<JournalRow, Int64>
    let resultsScroller = ScrolledWindow()
    /// Said in place of the results when a search finds nothing.
    let noMatches = Label(tr("No entries match your search."))
    /// The journal's list, the results or "no entries match".
    let lists = Stack()
    /// The ids the search found, newest first, while they show; nil for the whole journal.
    var results: [Int64]? { shown.query == nil ? nil : shown.ids }
    /// The search the results list shows, shared with its bind closure.
    let shown = ShownSearch()
    /// Which result rows wait for the first frame of new results to be painted.
    let resultsFirstScreen = FirstScreen()
    /// In the header bar while an entry is open: back to the journal where it was.
    let backButton = Button(iconName: "go-previous-symbolic", accessibleName: tr("Back"))

    /// Told when the journal's health check has its verdict (`model.health`).
    var onHealthChecked: () -> Void = {}
    /// Told of each change to the journal's entries (a save, edit, deletion, undo, or another
    /// Flourish writing to the file): what the other pages' figures follow.
    var onEntriesChanged: () -> Void = {}

    /// Which rows wait for the first frame of the page to be painted.
    let firstScreen: FirstScreen

    /// How long to wait before reading again the entries that failed.
    static let retryMilliseconds: UInt32 = 2_000

    let model: JournalModel
    let alerts: Alerts
    let notice: UndoNotice
    /// The entry open in the entry view, whose row gets the focus back on the way out.
    var openID: Int64?
    /// Entries whose deletion is on its way to disk: a second Delete (key repeat) waits for none.
    var deleting: Set<Int64> = []

    enum Page: String { case loading, empty, entries, problem, entry, edit }
    enum ListPage: String { case journal, results, noMatches = "no-matches" }

    /// How many results ahead of a row binding are read with it.
    static let resultsReadAhead = 40

    /// A list of journal rows, bound by `bind` (the journal's, or a search's results).
    private static func makeList(thumbnails: PhotoThumbnails,
                                 bind: @escaping @MainActor (JournalRow, Int64, Int) -> Void) -> KeyedListView<JournalRow, Int64> {
        let list = KeyedListView<JournalRow, Int64>(
            makeRow: {
                let row = JournalRow(thumbnails: thumbnails)
                return (row, row.view)
            },
            bind: bind,
            unbind: { row in row.unbind() })
        list.addClass("journal")
        return list
    }

    /// Photos' thumbnails, shared by the list, the entry's page and the forms.
    let thumbnails: PhotoThumbnails

    init(model: JournalModel, alerts: Alerts, notice: UndoNotice, thumbnails: PhotoThumbnails, preferences: Preferences) {
        self.model = model
        memories = MemoriesCard(model: model, preferences: preferences)
        self.alerts = alerts
        self.notice = notice
        self.thumbnails = thumbnails
        search = JournalSearch(model: model)
        let firstScreen = FirstScreen()
        self.firstScreen = firstScreen
        let shown = self.shown
        list = Self.makeList(thumbnails: thumbnails, bind: { [model] row, id, position in
            if firstScreen.waits(position) {
                row.bind(id: id, entry: nil)
            } else {
                row.bind(id: id, from: model)
                model.readAhead(of: position)
            }
            Trace.reached(row: position)
        })
        let resultsFirstScreen = self.resultsFirstScreen
        resultsList = Self.makeList(thumbnails: thumbnails, bind: { [model] row, id, position in
            if resultsFirstScreen.waits(position) {
                row.bind(id: id, entry: nil)
            } else {
                // The results about to show, read together (the journal's neighbours are not).
                model.prefetch(shown.ids[position..<min(shown.ids.count, position + Self.resultsReadAhead)])
                row.bind(id: id, from: model, query: shown.query)
            }
        })
        list.setAccessibleLabel(tr("Journal entries"))
        resultsList.setAccessibleLabel(tr("Search results"))
        scroller.setChild(list)
        scroller.expand(horizontally: true, vertically: true)
        resultsScroller.setChild(resultsList)
        resultsScroller.expand(horizontally: true, vertically: true)

        let loading = Label(tr("Opening your journal…"))
        loading.addClass("empty-hint")

        let emptyTitle = Label(tr("No entries yet"))
        emptyTitle.addClass("empty-title")
        let emptyHint = Label(tr("How are you feeling? Entries you save under New Entry appear here, newest first."))
        emptyHint.addClass("empty-hint")
        emptyHint.enableWrapping()
        emptyState.append(emptyTitle)
        emptyState.append(emptyHint)
        emptyState.align(horizontal: .center, vertical: .center)
        emptyState.setMargins(24)

        problemLabel.enableWrapping()
        problemLabel.isSelectable = true
        problemLabel.setMargins(24)
        problemLabel.addClass("field-error")

        view.addPage(loading, name: Page.loading.rawValue)
        view.addPage(emptyState, name: Page.empty.rawValue)
        banner.addClass("journal-banner")
        banner.enableWrapping()
        banner.alignStart()
        banner.isVisible = false
        let entries = Box(.vertical)
        entries.append(search.bar)
        entries.append(banner)
        entries.append(memories.view)
        noMatches.addClass("empty-hint")
        noMatches.setMargins(24)
        noMatches.align(vertical: .start)
        lists.addPage(scroller, name: ListPage.journal.rawValue)
        lists.addPage(resultsScroller, name: ListPage.results.rawValue)
        lists.addPage(noMatches, name: ListPage.noMatches.rawValue)
        lists.expand(horizontally: true, vertically: true)
        entries.append(lists)
        view.addPage(entries, name: Page.entries.rawValue)
        view.addPage(problemLabel, name: Page.problem.rawValue)
        view.visiblePage = Page.loading.rawValue
        model.delegate = self
        connectEntryActions()
        connectSearch()
        showList(.journal)
        memories.onOpen = { [unowned self] entry in open(entry) }
        memories.onClosed = { [unowned self] in focusList() }
        view.onMap { [unowned self] in
            // Shown again, perhaps on another day than it was.
            if isListed { memories.refresh() }
            // The first showing reads the ids; the list takes the focus once they are in.
            if !model.isLoaded { focusWhenListed = true }
            model.loadIfNeeded()
            listIfShown()
        }
    }

    /// Whether the list holds the journal's ids. Not until the page is first shown: a journal
    /// no one is looking at costs nothing (no rows built, bound, read or laid out).
    private(set) var isListed = false
    /// The page was shown before the ids were read: the list takes the focus when they are.
    private var focusWhenListed = false
    /// Ctrl+F came before the ids were read: the search opens when they are.
    var searchWhenListed = false
    /// A day was asked for (from Insights): its results take the keyboard when they come.
    var focusResultsWhenShown = false

    private func listIfShown() {
        guard !isListed, model.isLoaded, view.isMapped else { return }
        isListed = true
        firstScreen.begin(windowHeight: Int(view.windowHeight))
        list.replaceAll(with: model.ids)
        Trace.once("journal listed \(model.count) entries")
        list.afterNextPaint { [weak self] in
            guard let self else { return }
            firstScreen.end()
            fillWaitingRows()
            // Looked up once the journal is on screen: it costs the first frame nothing.
            memories.refresh()
        }
    }

    var page: Page { Page(rawValue: view.visiblePage) ?? .loading }

    /// The page that shows the journal itself: its entries, or the kind word for none.
    var listPage: Page { model.count == 0 && results == nil ? .empty : .entries }

    // MARK: - JournalModelDelegate

    func journalModel(_ model: JournalModel, didChange change: JournalChange) {
        if change.changesResults {
            onEntriesChanged()
            if isListed { memories.refresh() }
        }
        switch change {
        case .checked:
            onHealthChecked()
            return
        case .reloaded:
            Trace.once("journal loaded")
            isListed = false
            listIfShown()
        case .tagsChanged:
            rebindRows()
            if page == .entry, let open = entryView.entry, let entry = model.entry(id: open.id) {
                entryView.show(entry, tags: model.tagNames(entry.tagIDs), measures: model.measureWords(entry.measures))
            }
        case .updated(let id, _):
            // Only the rows showing this entry read it again.
            for (row, query) in allRows where row.entryID == id { row.bind(id: id, from: model, query: query) }
        case _ where !isListed:
            break // listed whole, from the model, when the page first shows
        case .inserted(let index), .restored(let index):
            list.splice(at: index, removing: 0, adding: [model.ids[index]])
            list.scroll(to: index)
        case .moved(_, let from, let to):
            list.splice(at: from, removing: 1, adding: [])
            list.splice(at: to, removing: 0, adding: [model.ids[to]])
        case .removed(let index):
            list.splice(at: index, removing: 1, adding: [])
        case .entriesLoaded(let ids):
            // Fill in the rows that were waiting for these entries.
            for (row, query) in allRows {
                if let id = row.entryID, row.entry == nil, ids.contains(id) {
                    row.bind(id: id, from: model, query: query)
                    if row.view.isMapped { Trace.once("first journal row shown") }
                }
            }
            // The banner goes only when no row on screen still waits for a failed read.
            let stillWaiting = allRows.contains { row, _ in
                guard let id = row.entryID else { return false }
                return row.entry == nil && !model.isUnreadable(id: id)
            }
            if !stillWaiting { banner.isVisible = false }
        }
        // The results shown are found again after any change that could add, remove or change one.
        if results != nil && change.changesResults { runSearch() }
        // An open entry (or its edit) stays on screen whatever else changes underneath it; and
        // until the ids are read, the page says it is opening (a tag read first changes nothing).
        guard page != .entry && page != .edit, model.isLoaded else { return }
        view.visiblePage = listPage.rawValue
        if focusWhenListed && isListed {
            focusWhenListed = false
            focusList()
        }
        if searchWhenListed && isListed {
            searchWhenListed = false
            if page == .entries {
                if !search.isSearching { search.start() }
                runSearch() // what was asked for before the ids came (a day from Insights)
            }
        }
    }

    func journalModel(_ model: JournalModel, didFailWith error: JournalError) {
        let reason = error.errorDescription ?? ""
        guard model.isLoaded else {
            problemLabel.text = tr("Flourish could not read your journal.") + "\n\n" + reason
            view.visiblePage = Page.problem.rawValue
            return
        }
        // Entries for rows on screen could not be read: say so, and try again shortly rather
        // than leave the rows waiting for ever.
        banner.text = tr("Some entries could not be read. Flourish will try again.") + " " + reason
        banner.isVisible = true
        MainLoop.after(milliseconds: Self.retryMilliseconds) { [weak self] in self?.fillWaitingRows() }
    }

    /// Binds again every row still waiting for its entry: from memory if it is there now, else
    /// by asking for it again.
    func fillWaitingRows() {
        for (row, query) in allRows {
            if let id = row.entryID, row.entry == nil {
                row.bind(id: id, from: model, query: query)
            }
        }
    }

    /// Binds every built row again: their tags' names changed.
    func rebindRows() {
        for (row, query) in allRows {
            if let id = row.entryID { row.bind(id: id, from: model, query: query) }
        }
    }

    /// Every built row of both lists, each with the search it highlights (none for the journal's).
    var allRows: [(row: JournalRow, query: JournalQuery?)] {
        list.builtRows.map { ($0, nil) } + resultsList.builtRows.map { ($0, shown.query) }
    }

    /// The list on screen: the search's results while they show, else the journal's.
    var shownList: KeyedListView<JournalRow, Int64> { results == nil ? list : resultsList }

    /// The search the results list shows, shared with its bind closure.
    final class ShownSearch {
        var query: JournalQuery?
        var ids: [Int64] = []
    }

    /// The journal list's rows built so far, for tests.
    var rows: [JournalRow] { list.builtRows }
    /// The results list's rows built so far, for tests.
    var resultRows: [JournalRow] { resultsList.builtRows }
}
