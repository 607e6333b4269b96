import FlourishCore
import GtkKit

/// The "New Entry" page: title, body, mood, Save Entry. Validates, saves through the journal
/// model off the GTK thread, resets on success, and on failure keeps everything the person typed
/// and offers Retry.
@MainActor
final class EntryFormController {
    let view = Box(.vertical, spacing: 6)
    let titleField = TextEntry()
    let bodyField = TextView()
    let picker = MoodPicker()
    let saveButton = Button(mnemonic: tr("_Save Entry"))
    /// Said next to the mood button when no mood is chosen.
    let moodError = Label()
    /// Said under the body when both title and body are empty.
    let textError = Label()
    /// "Attach location": off until the person turns it on; remembered.
    let locationSwitch = Switch()
    /// Says where finding the location stands (locating, found, denied, …).
    let locationStatus = Label()

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
            for widget in [saveButton, titleField, bodyField, picker.button] as [Widget] {
                widget.isSensitive = !isSaving
            }
        }
    }
    /// Set when the window is asked to close while a save runs: called once the entry is safely
    /// on disk (a failed save cancels it and shows the error instead, the words still in the form).
    var closeWhenSaved: (@MainActor () -> Void)?

    init(model: JournalModel, alerts: Alerts, location: LocationProvider, preferences: Preferences) {
        self.model = model
        self.alerts = alerts
        self.location = location
        self.preferences = preferences
        buildLayout()
        // The remembered choice applies as the form opens; nothing asks for the location before.
        locationSwitch.isOn = preferences.attachLocation
        locationSwitch.onToggled { [unowned self] in attachLocationChanged() }
        if locationSwitch.isOn { startLocating() }
        saveButton.onClicked { [unowned self] in save() }
        // Enter in the title moves on to the body, as people expect of a form.
        titleField.onActivate { [unowned self] in bodyField.grabFocus() }
        titleField.onChanged { [unowned self] in clear(.missingText) }
        bodyField.onChanged { [unowned self] in clear(.missingText) }
        picker.onChange = { [unowned self] mood in if mood != nil { clear(.missingMood) } }
    }

    // MARK: - Layout

    private func buildLayout() {
        view.addClass("entry-form")
        let titleLabel = fieldLabel(tr("_Title"), for: titleField)
        titleField.placeholder = tr("What is today about?")

        let bodyLabel = fieldLabel(tr("_Body"), for: bodyField)
        bodyField.addClass("body-field")
        let bodyScroller = ScrolledWindow(bodyField)
        bodyScroller.addClass("body-scroller")
        bodyScroller.setMinContentHeight(160)
        bodyScroller.expand(vertically: true)

        let moodRow = Box(.horizontal, spacing: 12)
        moodRow.append(fieldLabel(tr("I’m _feeling"), for: picker.button, namesWidget: false))
        moodRow.append(picker.button)
        moodRow.append(moodError)
        picker.button.align(vertical: .center)

        for error in [moodError, textError] {
            error.addClass("field-error")
            error.alignStart()
            error.isVisible = false
        }

        saveButton.addClass("suggested-action")
        saveButton.addClass("save-button")
        // Expands so it keeps the right edge whether or not the location status line is showing.
        saveButton.expand(horizontally: true)
        saveButton.align(horizontal: .end, vertical: .center)
        saveButton.tooltip = tr("Save Entry (Ctrl+Enter)")

        let bottomRow = Box(.horizontal, spacing: 12)
        bottomRow.setMargins(top: 12)
        bottomRow.append(fieldLabel(tr("Attach _location"), for: locationSwitch))
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

        // As in the seeds, the mood sits under the title and its picker drops down over the body.
        for widget in [titleLabel, titleField, moodRow, bodyLabel, bodyScroller, textError, bottomRow] as [Widget] {
            view.append(widget)
        }
        moodRow.setMargins(top: 8, bottom: 4)
    }

    private func fieldLabel(_ mnemonic: String, for field: Widget, namesWidget: Bool = true) -> Label {
        let label = Label()
        label.setMnemonic(mnemonic, for: field, namesWidget: namesWidget)
        label.addClass("field-label")
        label.alignStart()
        return label
    }

    // MARK: - Saving

    /// Whether closing now would lose words the person typed.
    var hasUnsavedText: Bool { !draft.problems.contains(.missingText) }

    /// What the form holds now; the location only while the switch is on and a fix is known.
    var draft: EntryDraft {
        EntryDraft(title: titleField.text, body: bodyField.text, mood: picker.mood,
                   location: locationSwitch.isOn ? locationState.location : nil)
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
            show(invalid.problems)
        case .success(let entry):
            show([])
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

    /// Empties the form: title and body blank, mood back to "select" in #3687FF.
    func reset() {
        titleField.text = ""
        bodyField.text = ""
        picker.reset()
        show([])
    }

    // MARK: - Problems

    private func show(_ problems: [EntryDraft.Problem], focusFirst: Bool = true) {
        for problem in EntryDraft.Problem.allCases {
            let present = problems.contains(problem)
            let (label, fields) = widgets(for: problem)
            label.text = present ? problem.message : ""
            label.isVisible = present
            for field in fields {
                field.setAccessibleInvalid(present)
                field.setAccessibleDescription(present ? problem.message : "")
            }
            if problem == .missingMood { picker.problem = present ? problem.message : nil }
        }
        // Send the keyboard to the first thing to fix.
        if focusFirst, let first = problems.first {
            _ = first == .missingMood ? picker.button.grabFocus() : titleField.grabFocus()
        }
    }

    private func clear(_ problem: EntryDraft.Problem) {
        guard widgets(for: problem).label.isVisible else { return }
        show(draft.problems.filter { $0 != problem && widgets(for: $0).label.isVisible }, focusFirst: false)
    }

    private func widgets(for problem: EntryDraft.Problem) -> (label: Label, fields: [Widget]) {
        switch problem {
        case .missingMood: (moodError, [])
        case .missingText: (textError, [titleField, bodyField])
        }
    }
}
