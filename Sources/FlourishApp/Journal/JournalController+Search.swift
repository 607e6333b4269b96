import Foundation
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
        // Pressed before the journal's ids are in: the search opens as soon as they are.
        if page == .loading { searchWhenListed = true }
        guard page == .entries else { return }
        search.start()
    }

    /// The entries of one day (from the year in pixels), in the results list with the keyboard
    /// on them. Never over an edit in progress; from an open entry, back to the list first.
    func showDay(_ day: Date) {
        guard page != .edit else { return }
        if page == .entry { back() }
        focusResultsWhenShown = true
        search.showDay(day)
        // Before the journal's ids are in: the search runs as soon as they are.
        if !isListed { searchWhenListed = true }
    }

    /// The search bar's words and filters, when they ask for anything: what "Print…" offers as
    /// "the entries the search shows".
    var searchInEffect: JournalQuery? {
        let query = search.query
        return query.isEmpty ? nil : query
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
                // Said where the results would be: the last results are no answer to these words.
                guard !search.query.isEmpty else { return }
                if case .damagedJournal = error { model.checkHealth() }
                shown.query = query
                shown.ids = []
                resultsList.replaceAll(with: [])
                search.resultCount.text = ""
                noMatches.text = error.errorDescription ?? tr("The search failed.")
                showList(.noMatches)
            }
        }
    }

    private func show(_ ids: [Int64], for query: JournalQuery) {
        // The query changed while this one ran to nothing (the field was emptied meanwhile).
        guard !search.query.isEmpty else { return }
        let fresh = shown.query != query
        let before = shown.ids
        shown.query = query
        shown.ids = ids
        noMatches.text = tr("No entries match your search.")
        if fresh {
            // As on the page's first showing, the frame with the results lays out only the rows
            // the window can show; the rest of the rows built are filled in once it is painted.
            resultsFirstScreen.begin(windowHeight: Int(view.windowHeight))
            // The rows already built are kept and bound to the new results: GTK 4.8 told that
            // every item changed takes 30 ms and more to replace 90,000 by 80,000, and emptied
            // first it destroys and rebuilds every row it holds.
            resultsList.replaceKeepingRows(with: ids)
            resultsScroller.verticalPosition = 0 // new words start at the top
        } else {
            // The same search again, after a change to the journal: only the rows that changed
            // change, so the others keep their place and the keyboard stays where it was.
            let (position, removing, adding) = Self.difference(from: before, to: ids)
            if removing > 0 || !adding.isEmpty { resultsList.splice(at: position, removing: removing, adding: adding) }
        }
        search.show(count: ids.count)
        showList(ids.isEmpty ? .noMatches : .results)
        if page == .empty { view.visiblePage = Page.entries.rawValue }
        if focusResultsWhenShown {
            focusResultsWhenShown = false
            if !ids.isEmpty { focusList() }
        }
        resultsList.afterNextPaint { [weak self] in
            Trace.mark("search shown")
            self?.resultsFirstScreen.end()
            self?.fillWaitingRows()
        }
    }

    /// The one splice that turns `old` into `new`: what lies between their common start and
    /// their common end (a save, deletion or edit changes one run of results).
    nonisolated static func difference(from old: [Int64], to new: [Int64]) -> (position: Int, removing: Int, adding: [Int64]) {
        var start = 0
        while start < old.count, start < new.count, old[start] == new[start] { start += 1 }
        var end = 0
        while end < old.count - start, end < new.count - start, old[old.count - 1 - end] == new[new.count - 1 - end] { end += 1 }
        return (start, old.count - start - end, Array(new[start..<(new.count - end)]))
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
    func showList(_ shown: ListPage) {
        let pages: [(page: ListPage, widget: Widget)] = [(.journal, scroller), (.results, resultsScroller), (.noMatches, noMatches)]
        for (page, widget) in pages where page == shown { widget.isVisible = true }
        lists.visiblePage = shown.rawValue
        for (page, widget) in pages where page != shown { widget.isVisible = false }
    }
}

extension JournalChange {
    /// Whether the change can add, remove or change an entry a search found.
    var changesResults: Bool {
        switch self {
        case .inserted, .restored, .moved, .removed, .updated, .reloaded, .tagsChanged: true
        case .entriesLoaded, .checked: false
        }
    }
}
