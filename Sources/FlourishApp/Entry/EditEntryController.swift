import FlourishCore
import GtkKit

/// Edit: the entry in the same fields as New Entry, filled in, with "Save" and "Cancel". The
/// same validation and failure handling: a failed save keeps every change and offers Retry;
/// Cancel with changes asks first.
@MainActor
final class EditEntryController {
    /// The page: the form scrolls when the window is shorter than it (a journal with many tags).
    let view = ScrolledWindow()
    let content = Box(.vertical, spacing: 6)
    let fields: EntryFields
    let saveButton = Button(mnemonic: tr("_Save"))
    let cancelButton = Button(mnemonic: tr("_Cancel"))

    /// The entry as it was when editing began.
    private(set) var original: Entry?
    /// Called when editing ends: with the entry as saved, or nil when cancelled.
    var onFinished: (@MainActor (Entry?) -> Void)?

    private let model: JournalModel
    private let alerts: Alerts
    private(set) var isSaving = false {
        didSet {
            fields.isSensitive = !isSaving
            saveButton.isSensitive = !isSaving
            cancelButton.isSensitive = !isSaving
        }
    }

    init(model: JournalModel, alerts: Alerts, thumbnails: PhotoThumbnails) {
        self.model = model
        self.alerts = alerts
        fields = EntryFields(model: model, alerts: alerts, thumbnails: thumbnails)
        fields.carriesPhotosExactly = true
        content.addClass("entry-form")
        view.setChild(content)
        saveButton.addClass("suggested-action")
        saveButton.addClass("save-button")
        saveButton.tooltip = tr("Save the changes (Ctrl+Enter)")
        let buttons = Box(.horizontal, spacing: 12)
        buttons.setMargins(top: 12)
        buttons.align(horizontal: .end)
        buttons.append(cancelButton)
        buttons.append(saveButton)
        for widget in fields.widgets + [buttons] { content.append(widget) }
        fields.takePhotos(on: view)
        fields.templateMenu.onChoose = { [unowned self] template in fields.apply(template, model: model) }
        saveButton.onClicked { [unowned self] in save() }
        cancelButton.onClicked { [unowned self] in cancel() }
    }

    /// Starts editing `entry`.
    func edit(_ entry: Entry) {
        original = entry
        fields.fill(from: entry)
    }

    /// The fields' draft; the location is the entry's own (editing never looks it up again).
    var draft: EntryDraft { fields.draft(location: original?.location) }

    /// Whether the fields differ from the entry as it was.
    var hasChanges: Bool {
        guard let original else { return false }
        let draft = self.draft
        return draft.title != original.title || draft.body != original.body || draft.mood != original.mood || draft.date != nil
            || draft.tagIDs != model.currentTags(original.tagIDs) || (draft.photos ?? []) != original.photos
            || (draft.measures ?? original.measures) != original.measures || !fields.measures.allRead
    }

    func save() {
        guard !isSaving, let original else { return }
        // An entry that came without a mood may stay without; one that had a mood keeps one.
        switch draft.validated(requiringMood: original.mood != nil) {
        case .failure(let invalid):
            fields.show(invalid.problems)
            _ = fields.measuresRead()
        case .success(let entry):
            fields.show([])
            guard fields.measuresRead() else { return }
            persist(entry, id: original.id)
        }
    }

    private func persist(_ entry: NewEntry, id: Int64) {
        isSaving = true
        model.update(id: id, with: entry) { [weak self] result in
            guard let self else { return }
            isSaving = false
            switch result {
            case .success(let updated):
                original = nil
                onFinished?(updated)
            case .failure(let error):
                // Every change stays in the fields; Retry saves the same changes again.
                alerts.showError(error.errorDescription ?? tr("The changes could not be saved."),
                                 retry: { [weak self] in
                                     guard let self, !isSaving else { return }
                                     persist(entry, id: id)
                                 })
            }
        }
    }

    /// Cancel (the button, Escape): leaves at once without changes, else asks first.
    func cancel() {
        guard !isSaving, original != nil else { return }
        guard hasChanges else { return finish() }
        guard alerts.current == nil else { return }
        alerts.confirmDiscardChanges { [weak self] discard in
            if discard { self?.finish() } else { self?.fields.titleField.grabFocus() }
        }
    }

    /// Ends the edit, its changes dropped (the person chose Discard when closing, or the entry
    /// was deleted meanwhile).
    func discard() {
        guard original != nil else { return }
        finish()
    }

    private func finish() {
        original = nil
        onFinished?(nil)
    }
}
