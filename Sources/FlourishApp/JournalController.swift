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
    /// One entry, whole; and the same entry being edited.
    let entryView = EntryViewController()
    let editor: EditEntryController
    /// In the header bar while an entry is open: back to the journal where it was.
    let backButton = Button(iconName: "go-previous-symbolic", accessibleName: tr("Back"))

    /// Told when the journal's health check has its verdict (`model.health`).
    var onHealthChecked: () -> Void = {}

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

    init(model: JournalModel, alerts: Alerts, notice: UndoNotice) {
        self.model = model
        self.alerts = alerts
        self.notice = notice
        editor = EditEntryController(model: model, alerts: alerts)
        let firstScreen = FirstScreen()
        self.firstScreen = firstScreen
        list = KeyedListView(
            makeRow: {
                let row = JournalRow()
                return (row, row.view)
            },
            bind: { [model] row, id, position in
                if firstScreen.waits(position) {
                    row.bind(id: id, entry: nil)
                } else {
                    row.bind(id: id, from: model)
                    model.readAhead(of: position)
                }
                Trace.reached(row: position)
            },
            unbind: { row in row.unbind() })
        list.addClass("journal")
        scroller.setChild(list)
        scroller.expand(horizontally: true, vertically: true)

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
        entries.append(banner)
        entries.append(scroller)
        view.addPage(entries, name: Page.entries.rawValue)
        view.addPage(problemLabel, name: Page.problem.rawValue)
        view.addPage(entryView.view, name: Page.entry.rawValue)
        view.addPage(editor.view, name: Page.edit.rawValue)
        entryView.view.isVisible = false
        editor.view.isVisible = false
        view.visiblePage = Page.loading.rawValue
        model.delegate = self
        connectEntryActions()
        view.onMap { [unowned self] in
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
        }
    }

    var page: Page { Page(rawValue: view.visiblePage) ?? .loading }

    /// The page that shows the journal itself: its entries, or the kind word for none.
    var listPage: Page { model.count == 0 ? .empty : .entries }

    // MARK: - JournalModelDelegate

    func journalModel(_ model: JournalModel, didChange change: JournalChange) {
        switch change {
        case .checked:
            onHealthChecked()
            return
        case .reloaded:
            Trace.once("journal loaded")
            isListed = false
            listIfShown()
        case _ where !isListed:
            break // listed whole, from the model, when the page first shows
        case .inserted(let index), .restored(let index):
            list.splice(at: index, removing: 0, adding: [model.ids[index]])
            list.scroll(to: index)
        case .updated(let id, _):
            // Only the rows showing this entry read it again.
            for row in list.builtRows where row.entryID == id { row.bind(id: id, from: model) }
        case .moved(_, let from, let to):
            list.splice(at: from, removing: 1, adding: [])
            list.splice(at: to, removing: 0, adding: [model.ids[to]])
        case .removed(let index):
            list.splice(at: index, removing: 1, adding: [])
        case .entriesLoaded(let ids):
            // Fill in the rows that were waiting for these entries.
            for row in list.builtRows {
                if let id = row.entryID, row.entry == nil, ids.contains(id) {
                    row.bind(id: id, from: model)
                    if row.view.isMapped { Trace.once("first journal row shown") }
                }
            }
            // The banner goes only when no row on screen still waits for a failed read.
            let stillWaiting = list.builtRows.contains { row in
                guard let id = row.entryID else { return false }
                return row.entry == nil && !model.isUnreadable(id: id)
            }
            if !stillWaiting { banner.isVisible = false }
        }
        // An open entry (or its edit) stays on screen whatever else changes underneath it.
        guard page != .entry && page != .edit else { return }
        view.visiblePage = listPage.rawValue
        if focusWhenListed && isListed {
            focusWhenListed = false
            focusList()
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
    private func fillWaitingRows() {
        for row in list.builtRows {
            if let id = row.entryID, row.entry == nil {
                row.bind(id: id, from: model)
            }
        }
    }

    /// The rows built so far, for tests.
    var rows: [JournalRow] { list.builtRows }
}

