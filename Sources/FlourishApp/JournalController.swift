import FlourishCore
import GtkKit

/// The "Journal" page: every entry, newest first, in a virtualized list; a friendly empty state;
/// a plain message if the journal cannot be read. The seeds' JournalController and its delegate.
@MainActor
final class JournalController: JournalModelDelegate {
    let view = Stack()
    let list: KeyedListView<JournalRow>
    let scroller = ScrolledWindow()
    let emptyState = Box(.vertical, spacing: 8)
    let problemLabel = Label()

    private let model: JournalModel

    enum Page: String { case loading, empty, entries, problem }

    init(model: JournalModel) {
        self.model = model
        list = KeyedListView(
            makeRow: {
                let row = JournalRow()
                return (row, row.view)
            },
            bind: { [model] row, key in
                guard let id = Int64(key) else { return }
                row.bind(id: id, entry: model.entry(id: id))
            },
            unbind: { row in row.unbind() })
        list.addClass("journal")
        scroller.setChild(list)
        scroller.expand(horizontally: true, vertically: true)

        let loading = Label("Opening your journal…")
        loading.addClass("empty-hint")

        let emptyTitle = Label("No entries yet")
        emptyTitle.addClass("empty-title")
        let emptyHint = Label("How are you feeling? Entries you save under New Entry appear here, newest first.")
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
        view.addPage(scroller, name: Page.entries.rawValue)
        view.addPage(problemLabel, name: Page.problem.rawValue)
        view.visiblePage = Page.loading.rawValue
        model.delegate = self
    }

    var page: Page { Page(rawValue: view.visiblePage) ?? .loading }

    // MARK: - JournalModelDelegate

    func journalModel(_ model: JournalModel, didChange change: JournalChange) {
        switch change {
        case .reloaded:
            list.splice(at: 0, removing: list.count, adding: model.ids.map(String.init))
            Trace.once("journal listed \(model.count) entries")
        case .inserted(let index):
            list.splice(at: index, removing: 0, adding: [String(model.ids[index])])
            list.scroll(to: index)
        case .entriesLoaded(let ids):
            // Fill in the rows that were waiting for these entries.
            for row in list.builtRows {
                if let id = row.entryID, row.entry == nil, ids.contains(id) {
                    row.bind(id: id, entry: model.entry(id: id))
                    if row.view.isMapped { Trace.once("first journal row shown") }
                }
            }
        }
        view.visiblePage = (model.count == 0 ? Page.empty : Page.entries).rawValue
    }

    func journalModel(_ model: JournalModel, didFailWith error: JournalError) {
        problemLabel.text = "Flourish could not read your journal.\n\n" + (error.errorDescription ?? "")
        if model.count == 0 || !model.isLoaded { view.visiblePage = Page.problem.rawValue }
    }

    /// The rows built so far, for tests.
    var rows: [JournalRow] { list.builtRows }
}
