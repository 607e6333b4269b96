import FlourishCore
import GtkKit

/// Searching the journal: the bar's query runs in the background as the person types, and the
/// list shows what it found, newest first, its words highlighted; Escape brings the whole
/// journal back where it was.
extension JournalController {
    func connectSearch() {
        search.onQueryChanged = { [unowned self] in runSearch() }
        search.onSearchingChanged = { [unowned self] in
            // Closed (Escape, its close button): the keyboard goes back to the list.
            if !search.isSearching, page == .entries { focusList() }
        }
        // Typing on the list starts a search with what was typed.
        search.bar.captureKeys(from: lists)
    }

    /// Ctrl+F: the search bar, with the keyboard in its words field. From an open entry, back to
    /// the list first; never over an edit in progress.
    func startSearch() {
        guard page != .edit else { return }
        if page == .entry { back() }
        guard page == .entries else { return }
        search.start()
    }

    /// Asks for the bar's query now; the whole journal again when it asks for nothing.
    func runSearch() {
        let query = search.query
        guard !query.isEmpty else { return showWholeJournal() }
        // Before the ids are read there is no order to put results in: the listing runs it.
        guard model.isLoaded else { return }
        Trace.mark("search started")
        model.search(query) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let ids): show(ids, for: query)
            case .failure(let error):
                search.resultCount.text = error.errorDescription ?? tr("The search failed.")
            }
        }
    }

    private func show(_ ids: [Int64], for query: JournalQuery) {
        // The query changed while this one ran to nothing (the field was emptied meanwhile).
        guard !search.query.isEmpty else { return }
        let fresh = shown.query != query
        shown.query = query
        shown.ids = ids
        // As on the page's first showing, the frame with the results lays out only the rows the
        // window can show; the rest of the rows built are filled in once it is painted.
        resultsFirstScreen.begin(windowHeight: Int(view.windowHeight))
        resultsList.replaceAll(with: ids)
        // New words start at the top; the same search run again (after an edit) stays put.
        if fresh { resultsScroller.verticalPosition = 0 }
        search.show(count: ids.count)
        showList(ids.isEmpty ? .noMatches : .results)
        if page == .empty { view.visiblePage = Page.entries.rawValue }
        resultsList.afterNextPaint { [weak self] in
            Trace.mark("search shown")
            self?.resultsFirstScreen.end()
            self?.fillWaitingRows()
        }
    }

    /// The whole journal again, as it was left: its list was never touched by the search.
    func showWholeJournal() {
        guard results != nil else { return }
        shown.query = nil
        shown.ids = []
        resultsList.replaceAll(with: [])
        search.resultCount.text = ""
        showList(.journal)
        if page == .entries && model.count == 0 { view.visiblePage = Page.empty.rawValue }
    }

    /// Shows one of the lists. The others are hidden as well as not shown: GTK 4.8 reports a
    /// stack's hidden pages to screen readers as visible, and the journal's rows would be read
    /// out among the results.
    private func showList(_ shown: ListPage) {
        for (page, widget) in [(ListPage.journal, scroller as Widget), (.results, resultsScroller), (.noMatches, noMatches)] {
            if page == shown { widget.isVisible = true }
        }
        lists.visiblePage = shown.rawValue
        for (page, widget) in [(ListPage.journal, scroller as Widget), (.results, resultsScroller), (.noMatches, noMatches)] {
            if page != shown { widget.isVisible = false }
        }
    }
}
