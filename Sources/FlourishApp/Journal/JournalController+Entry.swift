import FlourishCore
import GtkKit

/// Opening an entry from the journal, going back to it, editing and deleting.
extension JournalController {
    func connectEntryActions() {
        backButton.tooltip = tr("Back to the journal (Alt+Left)")
        backButton.isVisible = false
        for rows in [list, resultsList] {
            rows.onActivate { [unowned self] id in open(id) }
            // Delete on a focused row deletes that entry (undoable from the notice).
            rows.onKeyPressed { [unowned self, unowned rows] key, modifiers in
                guard key == .delete || key == .keypadDelete, modifiers.meaningful.isEmpty,
                      let id = rows.focusedRow?.entryID else { return false }
                delete(id)
                return true
            }
        }
        // Escape leaves the entry view for the journal, and the edit form as Cancel does.
        view.onKeyPressed { [unowned self] key, modifiers in
            guard key == .escape, modifiers.meaningful.isEmpty else { return false }
            switch page {
            case .entry: back()
            case .edit: editor.cancel()
            case .entries where search.isSearching: search.stop()
            default: return false
            }
            return true
        }
        backButton.onClicked { [unowned self] in back() }
    }

    /// The entry view, made when the first entry is opened: a page of the journal's, hidden
    /// until shown.
    func makeEntryView() -> EntryViewController {
        let entryView = EntryViewController(thumbnails: thumbnails)
        entryViewIfMade = entryView
        view.addPage(entryView.view, name: Page.entry.rawValue)
        entryView.view.isVisible = false
        entryView.editButton.onClicked { [unowned self] in editOpenEntry() }
        entryView.deleteButton.onClicked { [unowned self, unowned entryView] in
            if let id = entryView.entry?.id { delete(id) }
        }
        entryView.onUseVersion = { [unowned self] version in useVersion(version) }
        onEntryViewMade(entryView)
        return entryView
    }

    /// The edit form, made when the first edit begins (or a kept edit comes back).
    func makeEditor() -> EditEntryController {
        let editor = EditEntryController(model: model, alerts: alerts, thumbnails: thumbnails)
        editorIfMade = editor
        view.addPage(editor.view, name: Page.edit.rawValue)
        editor.view.isVisible = false
        editor.onFinished = { [unowned self] updated in
            if let updated { entryView.show(updated, tags: model.tagNames(updated.tagIDs), measures: model.measureWords(updated.measures)) }
            show(.entry)
            entryView.editButton.grabFocus()
        }
        onEditorMade(editor)
        return editor
    }

    /// The versions sync kept of the entry on screen, read in the background.
    func showEarlierVersions(of entry: Entry) {
        model.earlierVersions(of: entry) { [weak self] versions in
            guard let self, entryView.entry?.id == entry.id else { return }
            entryView.showVersions(versions)
        }
    }

    /// "Use This Version": the version becomes the entry's, the one it replaces is kept.
    private func useVersion(_ version: EarlierVersion) {
        guard let entry = entryView.entry, entry.uuid == version.entryUUID else { return }
        use(version, forEntry: entry.id)
    }

    /// The entry it is for is fixed once: a Retry after another entry was opened still means it.
    private func use(_ version: EarlierVersion, forEntry id: Int64) {
        model.useEarlierVersion(version, forEntry: id) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let entry):
                guard entryView.entry?.id == id else { return }
                entryView.show(entry, tags: model.tagNames(entry.tagIDs), measures: model.measureWords(entry.measures))
                showEarlierVersions(of: entry)
                entryView.editButton.grabFocus()
            case .failure(let error):
                if entryView.entry?.id == id, let entry = entryView.entry { showEarlierVersions(of: entry) }
                alerts.showError(error.errorDescription ?? tr("The entry could not be changed."), retry: { [weak self] in
                    self?.use(version, forEntry: id)
                })
            }
        }
    }

    /// Shows the entry with `id` whole: the one its row shows (the model may have let it go since).
    func open(_ id: Int64) {
        guard let entry = allRows.first(where: { $0.row.entryID == id })?.row.entry ?? model.entry(id: id) else { return }
        open(entry)
    }

    /// Shows `entry` whole (one read already: a memory's, which may have no row built).
    func open(_ entry: Entry) {
        openID = entry.id
        Trace.mark("entry opened")
        entryView.show(entry, tags: model.tagNames(entry.tagIDs), measures: model.measureWords(entry.measures))
        showEarlierVersions(of: entry)
        show(.entry)
        entryView.editButton.grabFocus()
    }

    /// An edit kept by the lock: the entry shown and its editor open, holding the kept fields.
    func resumeEditing(_ entry: Entry, with draft: EntryDraft) {
        openID = entry.id
        entryView.show(entry, tags: model.tagNames(entry.tagIDs), measures: model.measureWords(entry.measures))
        editor.edit(entry)
        editor.fields.fill(from: draft)
        show(.edit)
        editor.fields.titleField.grabFocus()
    }

    /// Back to the journal at the same scroll position, the opened entry's row focused.
    func back() {
        guard page == .entry else { return }
        show(listPage)
        focusList()
    }

    /// Gives the keyboard to the list: the open entry's row if it is still there, else the list.
    func focusList() {
        guard page == .entries else { return }
        let id = openID
        let rows = shownList
        if id == nil || !rows.focusRow(where: { $0.entryID == id }) { rows.grabFocus() }
    }

    /// Edit (the button, Ctrl+E on the entry view).
    func editOpenEntry() {
        guard page == .entry, let entry = entryView.entry, !deleting.contains(entry.id) else { return }
        editor.edit(entry)
        show(.edit)
        editor.fields.titleField.grabFocus()
    }

    /// Deletes at once, from the list and the file; the notice offers Undo.
    func delete(_ id: Int64) {
        guard !deleting.contains(id) else { return }
        deleting.insert(id)
        setEntryActionsSensitive(false, for: id)
        // The focus goes on to the next row (or the one before, at the end of the list).
        let shown = shownList.keys // the whole journal, or a search's results
        let index = shown.firstIndex(of: id)
        let neighbour = index.flatMap { shown.indices.contains($0 + 1) ? shown[$0 + 1] : ($0 > 0 ? shown[$0 - 1] : nil) }
        model.delete(id: id) { [weak self] result in
            guard let self else { return }
            deleting.remove(id)
            setEntryActionsSensitive(true, for: id)
            switch result {
            case .success(let deleted):
                notice.add(deleted)
                openID = neighbour
                if let editor = editorIfMade, editor.original?.id == id { editor.discard() }
                // Back to the journal if the deleted entry was the one open; there, the focus moves on.
                if page == .entry || page == .edit, entryView.entry?.id == id { show(listPage) }
                if page == .entries || page == .empty {
                    show(listPage)
                    focusList()
                }
            case .failure(let error):
                alerts.showError(error.errorDescription ?? tr("The entry could not be deleted."),
                                 retry: { [weak self] in self?.delete(id) })
            }
        }
    }

    /// Edit and Delete wait while the open entry is being deleted.
    private func setEntryActionsSensitive(_ sensitive: Bool, for id: Int64) {
        guard let entryView = entryViewIfMade, entryView.entry?.id == id else { return }
        entryView.editButton.isSensitive = sensitive
        entryView.deleteButton.isSensitive = sensitive
    }

    func show(_ page: Page) {
        // The entry view and the edit form exist only while shown, so that a screen reader never
        // finds a hidden entry's words (GTK 4.8 reports hidden stack pages as visible).
        if page == .entry {
            entryView.putBackWords()
            entryView.view.isVisible = true
        }
        if page == .edit { editor.view.isVisible = true }
        view.visiblePage = page.rawValue
        if page != .entry, let entryView = entryViewIfMade {
            entryView.view.isVisible = false
            entryView.letGoOfWords()
        }
        if page != .edit { editorIfMade?.view.isVisible = false }
        backButton.isVisible = page == .entry
    }
}
