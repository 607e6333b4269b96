import FlourishCore
import GtkKit

/// The "New Entry" page: title, mood, date, body, Save Entry. Validates, saves through the
/// journal model off the GTK thread, resets on success, and on failure keeps everything the
/// person typed and offers Retry.
@MainActor
final class EntryFormController {
    /// The page: the form scrolls when the window is shorter than it (a journal with many tags).
    let view = ScrolledWindow()
    let content = Box(.vertical, spacing: 6)
    let fields: EntryFields
    let saveButton = Button(mnemonic: tr("_Save Entry"))
    /// "Attach location": off until the person turns it on; remembered.
    let locationSwitch = Switch()
    /// Says where finding the location stands (locating, found, denied, …).
    let locationStatus = Label()

    var titleField: TextEntry { fields.titleField }
    var bodyField: TextView { fields.bodyField }
    var picker: MoodPicker { fields.picker }
    var datePicker: DatePicker { fields.datePicker }
    var moodError: Label { fields.moodError }
    var textError: Label { fields.textError }

    private let model: JournalModel
    private let alerts: Alerts
    private let location: LocationProvider
    private let preferences: Preferences
    /// The latest word from the location provider; its fix goes with the next save.
    private(set) var locationState: LocationStatus = .off
    private(set) var isSaving = false {
        didSet {
            // Locked while the entry is on its way to disk, so nothing typed meanwhile is wiped
            // by the reset that follows a successful save.
            fields.isSensitive = !isSaving
            saveButton.isSensitive = !isSaving
        }
    }
    /// Set when the window is asked to close while a save runs: called once the entry is safely
    /// on disk (a failed save cancels it and shows the error instead, the words still in the form).
    var closeWhenSaved: (@MainActor () -> Void)?

    init(model: JournalModel, alerts: Alerts, location: LocationProvider, preferences: Preferences, thumbnails: PhotoThumbnails) {
        self.model = model
        self.alerts = alerts
        self.location = location
        self.preferences = preferences
        fields = EntryFields(model: model, alerts: alerts, thumbnails: thumbnails)
        buildLayout()
        fields.takePhotos(on: view)
        // The remembered choice applies as the form opens; nothing asks for the location before.
        locationSwitch.isOn = preferences.attachLocation
        locationSwitch.onToggled { [unowned self] in attachLocationChanged() }
        if locationSwitch.isOn { startLocating() }
        saveButton.onClicked { [unowned self] in save() }
        fields.templateMenu.onChoose = { [unowned self] template in fields.apply(template, model: model) }
        // The default template fills the empty form once the templates are read, and when one
        // is made the default while the form is empty.
        model.observeTemplates { [weak self] in self?.startFromDefault() }
    }

    /// An empty New Entry form (no title, no body, no photos) starts from the default template.
    /// A form that holds anything is left as it is, whatever changed among the templates: a
    /// mood or tags chosen beside a template's words are the person's.
    func startFromDefault() {
        guard let template = model.defaultTemplate, !isSaving, titleField.text.isEmpty, bodyField.text.isEmpty,
              fields.photos.photos.isEmpty else { return }
        fields.apply(template, model: model, focus: false)
    }

    // MARK: - Layout

    private func buildLayout() {
        content.addClass("entry-form")
        view.setChild(content)
        // Its indicator would fade in and out around the body's too at every key (see keepScrollbarBeside).
        view.keepScrollbarBeside()
        saveButton.addClass("suggested-action")
        saveButton.addClass("save-button")
        // Expands so it keeps the right edge whether or not the location status line is showing.
        saveButton.expand(horizontally: true)
        saveButton.align(horizontal: .end, vertical: .center)
        saveButton.tooltip = tr("Save Entry (Ctrl+Enter)")

        let bottomRow = Box(.horizontal, spacing: 12)
        bottomRow.setMargins(top: 12)
        let locationLabel = Label()
        locationLabel.setMnemonic(tr("Attach _location"), for: locationSwitch)
        locationLabel.addClass("field-label")
        bottomRow.append(locationLabel)
        locationSwitch.align(vertical: .center)
        bottomRow.append(locationSwitch)
        locationStatus.addClass("location-status")
        locationStatus.alignStart()
        locationStatus.enableWrapping()
        locationStatus.expand(horizontally: true)
        locationStatus.align(vertical: .center)
        locationStatus.isVisible = false
        bottomRow.append(locationStatus)
        bottomRow.append(saveButton)

        for widget in fields.widgets + [bottomRow] { content.append(widget) }
    }

    // MARK: - Saving

    /// Whether closing now would lose words the person typed, or photos they added.
    var hasUnsavedText: Bool {
        (!draft.problems.contains(.missingText) && !fields.isTemplateFillUntouched) || !fields.photos.photos.isEmpty
    }

    /// What the form holds now; the location only while the switch is on and a fix is known.
    /// Puts back the words the form held when the journal was locked.
    func restore(_ kept: EntryDraft) { fields.fill(from: kept) }

    var draft: EntryDraft {
        fields.draft(location: locationSwitch.isOn ? locationState.location : nil)
    }

    // MARK: - Location

    private func attachLocationChanged() {
        preferences.attachLocation = locationSwitch.isOn
        if locationSwitch.isOn {
            startLocating()
        } else {
            location.stop()
            showLocation(.off)
        }
    }

    private func startLocating() {
        location.start { [weak self] status in self?.showLocation(status) }
    }

    private func showLocation(_ status: LocationStatus) {
        locationState = status
        locationStatus.text = status.message ?? ""
        locationStatus.isVisible = status.message != nil
    }

    /// Save Entry (the button, Ctrl+Enter): checks the draft, then saves it in the background.
    func save() {
        guard !isSaving else { return }
        switch draft.validated() {
        case .failure(let invalid):
            fields.show(invalid.problems)
            _ = fields.measuresRead()
        case .success(let entry):
            fields.show([])
            guard fields.measuresRead() else { return }
            persist(entry)
        }
    }

    private func persist(_ entry: NewEntry) {
        isSaving = true
        model.save(entry) { [weak self] result in
            guard let self else { return }
            isSaving = false
            let close = closeWhenSaved
            closeWhenSaved = nil
            switch result {
            case .success:
                reset()
                if let close { return close() }
                alerts.showSaved { [weak self] in self?.titleField.grabFocus() }
            case .failure(let error):
                // The form is untouched: the person's words stay where they typed them.
                alerts.showError(error.errorDescription ?? tr("The entry could not be saved."),
                                 retry: { [weak self] in self?.retry(entry) })
            }
        }
    }

    /// The seeds' retry: the same entry, saved again.
    private func retry(_ entry: NewEntry) {
        guard !isSaving else { return }
        persist(entry)
    }

    /// Empties the form: title and body blank, mood back to "select" in #3687FF, date "Now".
    func reset() {
        fields.reset()
        startFromDefault()
    }
}
