import FlourishCore
import GtkKit

/// Preferences → Templates: the journal's templates down the side, the one chosen in an editor
/// beside them: its name, the title and body it writes (placeholders filled when it is used),
/// and the mood, tags and measure values it starts an entry with. Edits are kept with Save
/// Template (Ctrl+S, or Enter in a field), and before another template is shown or the window
/// closes, so none is lost. A template is made, deleted or made the default for every new entry
/// here; each of those changes, and each edit kept, can be taken back with Undo (Ctrl+Z).
@MainActor
final class TemplatesWindow {
    let window: Window
    let alerts: Alerts
    private let list = Box(.vertical, spacing: 2, groupNamed: tr("Templates"))
    /// A button per template, in the journal's order; the one shown in the editor is on.
    private(set) var listButtons: [(id: Int64, button: ToggleButton)] = []
    let newButton = Button(mnemonic: tr("_New Template"))

    let nameField = TextEntry()
    let titleField = TextEntry()
    let bodyField = TextView()
    let moodChoice = DropDown(accessibleName: tr("Mood to start with"))
    let tags: TagChooser
    let measures: MeasureFields
    let defaultCheck = CheckButton(tr("Start every new entry from this template"))
    let saveButton = Button(mnemonic: tr("_Save Template"))
    let deleteButton = Button(mnemonic: tr("_Delete Template"))
    let problem = Label()
    private let editor = Box(.vertical, spacing: 6, groupNamed: tr("Template"))
    private let emptyHint = Label(tr("No templates. New Template makes one."))

    /// "“Evening review” deleted" with Undo, while there is something to take back.
    let undoStack = UndoBar<Change> { $0.said }
    var undoBar: Box { undoStack.view }
    var undoLabel: Label { undoStack.label }
    var undoButton: Button { undoStack.button }
    var undoable: [Change] { undoStack.changes }

    /// A change made here, as what takes it back.
    enum Change {
        case made(id: Int64, name: String)
        case deleted(DeletedTemplate)
        case edited(id: Int64, was: TemplateDefinition, name: String)
        case madeDefault(was: Int64?, name: String)

        var said: String {
            switch self {
            case .made(_, let name): String(format: tr("“%@” made"), name)
            case .deleted(let gone): String(format: tr("“%@” deleted"), gone.template.name)
            case .edited(_, _, let name): String(format: tr("“%@” changed"), name)
            case .madeDefault(_, let name): String(format: tr("New entries start from “%@”"), name)
            }
        }

        /// The same change, of template `new` where it was of `old` (put back by Undo).
        func naming(_ new: Int64, for old: Int64) -> Change {
            switch self {
            case .made(let id, let name) where id == old: .made(id: new, name: name)
            case .edited(let id, let was, let name) where id == old: .edited(id: new, was: was, name: name)
            case .madeDefault(let was, let name) where was == old: .madeDefault(was: new, name: name)
            default: self
            }
        }
    }

    /// The template in the editor, and what the editor was filled with (its edits are what
    /// differs from it).
    private(set) var shownID: Int64?
    private var filled: TemplateDefinition?
    /// While the editor is filled from a template, its signals change nothing.
    private var isFilling = false
    private let model: JournalModel

    init(application: Application, parent: Window, model: JournalModel) {
        self.model = model
        tags = TagChooser(model: model)
        measures = MeasureFields(model: model)
        window = Window(application: application)
        window.title = tr("Templates")
        window.setTransient(for: parent)
        window.setDefaultSize(width: 760, height: 600)
        window.setTitlebar(HeaderBar())
        alerts = Alerts(window: window)

        let content = Box(.vertical, spacing: 10)
        content.setMargins(12)
        content.append(undoStack.view)

        let panes = Box(.horizontal, spacing: 18)
        panes.expand(vertically: true)
        let side = Box(.vertical, spacing: 8)
        let listScroller = ScrolledWindow(list)
        listScroller.expand(vertically: true)
        listScroller.setMinContentWidth(200)
        side.append(listScroller)
        side.append(newButton)
        panes.append(side)
        // The editor scrolls; what is said of it and its buttons stay in sight under it.
        let editorScroller = ScrolledWindow(editor)
        editorScroller.expand(horizontally: true, vertically: true)
        let main = Box(.vertical, spacing: 6)
        main.append(editorScroller)
        main.append(problem)
        main.append(makeButtons())
        panes.append(main)
        content.append(panes)
        emptyHint.addClass("empty-hint")
        emptyHint.enableWrapping()
        buildEditor()
        window.setChild(content)

        newButton.onClicked { [unowned self] in make() }
        saveButton.onClicked { [unowned self] in keepEdits() }
        deleteButton.onClicked { [unowned self] in delete() }
        undoButton.onClicked { [unowned self] in undo() }
        defaultCheck.onToggled { [unowned self] in defaultToggled() }
        for field in [nameField, titleField] {
            field.onActivate { [unowned self] in keepEdits() }
            field.onChanged { [unowned self] in showProblem(nil) }
        }
        window.onKeyPressed { [unowned self] key, modifiers in
            if key == .escape, modifiers.meaningful.isEmpty, alerts.current == nil {
                window.close()
                return true
            }
            if key.isLetter("z"), modifiers.meaningful == .control, !undoable.isEmpty {
                undo()
                return true
            }
            if key.isLetter("s"), modifiers.meaningful == .control {
                keepEdits()
                return true
            }
            return false
        }
        // Closing keeps the edits; edits that make no template (no name) keep the window open,
        // the problem said beside the field.
        window.onCloseRequest { [unowned self] in !keepEdits() }
        model.observeTemplates { [weak self] in
            guard let self, window.isVisible else { return }
            showList()
        }
    }

    private func buildEditor() {
        editor.setMargins(top: 0, bottom: 6)
        func labelled(_ mnemonic: String, _ field: Widget) {
            let label = Label()
            label.setMnemonic(mnemonic, for: field)
            label.addClass("field-label")
            label.alignStart()
            editor.append(label)
            editor.append(field)
        }
        labelled(tr("_Name"), nameField)
        labelled(tr("T_itle"), titleField)
        bodyField.addClass("body-field")
        let bodyScroller = ScrolledWindow(bodyField)
        bodyScroller.addClass("body-scroller")
        bodyScroller.setMinContentHeight(160)
        labelled(tr("_Body"), bodyScroller)
        bodyField.setAccessibleLabel(tr("Body"))
        let hint = Label(tr("{{date}}, {{weekday}} and {{time}} are filled in with the day and time the template is used."))
        hint.enableWrapping()
        hint.alignStart()
        hint.addClass("dim-label")
        editor.append(hint)
        moodChoice.items = [tr("No mood")] + Mood.allCases.map(\.title)
        moodChoice.selected = 0
        let moodRow = Box(.horizontal, spacing: 12)
        let moodLabel = Label()
        moodLabel.setMnemonic(tr("_Mood"), for: moodChoice, namesWidget: false)
        moodLabel.addClass("field-label")
        moodRow.append(moodLabel)
        moodRow.append(moodChoice)
        moodRow.setMargins(top: 6)
        editor.append(moodRow)
        editor.append(tags.view)
        editor.append(measures.view)
        editor.append(defaultCheck)
    }

    private func makeButtons() -> Box {
        problem.addClass("field-error")
        problem.alignStart()
        problem.isVisible = false
        let buttons = Box(.horizontal, spacing: 8)
        deleteButton.addClass("destructive-action")
        saveButton.addClass("suggested-action")
        saveButton.expand(horizontally: true)
        saveButton.align(horizontal: .end)
        buttons.append(deleteButton)
        buttons.append(saveButton)
        buttons.setMargins(top: 4)
        return buttons
    }

    func present() {
        window.present()
        if model.templatesRead { showList() } else { model.loadTemplates() }
        _ = (shownID.flatMap { id in listButtons.first { $0.id == id }?.button } ?? listButtons.first?.button ?? newButton).grabFocus()
    }

    // MARK: - The list

    /// Makes the list again from the model's templates, and shows the one in the editor still
    /// (or the first, when it is gone).
    private func showList() {
        list.removeAll()
        listButtons = model.templates.map { template in
            let button = ToggleButton(template.isDefault ? String(format: tr("%@ (default)"), template.name) : template.name)
            button.addClass("flat")
            button.addClass("template-choice")
            button.onToggled { [unowned self, unowned button] in
                guard !isFilling else { return }
                if button.isActive, shownID != template.id { choose(template.id) } else if !button.isActive, shownID == template.id {
                    // Pressed again: it stays the one shown.
                    isFilling = true
                    button.isActive = true
                    isFilling = false
                }
            }
            list.append(button)
            return (template.id, button)
        }
        if listButtons.isEmpty { list.append(emptyHint) }
        // Edits not kept yet stay in the editor through a change elsewhere (a default chosen, a
        // sync): only the list's marks follow it.
        if let shown = model.templates.first(where: { $0.id == shownID }), isEdited {
            isFilling = true
            for (id, button) in listButtons { button.isActive = id == shown.id }
            defaultCheck.isActive = shown.isDefault
            isFilling = false
        } else {
            show(model.templates.first { $0.id == shownID } ?? model.templates.first)
        }
    }

    /// Keeps the edits of the template shown, then shows template `id`; edits that make no
    /// template keep it shown, the problem said.
    private func choose(_ id: Int64) {
        guard keepEdits() else {
            isFilling = true
            for (each, button) in listButtons { button.isActive = each == shownID }
            isFilling = false
            return
        }
        show(model.templates.first { $0.id == id })
    }

    /// The mood chosen ("No mood" first, then the six).
    private var chosenMood: Mood? { moodChoice.selected.flatMap { $0 > 0 ? Mood(rawValue: $0 - 1) : nil } }

    /// Whether the editor holds anything other than what it was filled with.
    private var isEdited: Bool {
        guard let filled else { return false }
        if nameField.text != filled.name || titleField.text != filled.title || bodyField.text != filled.body || chosenMood != filled.mood {
            return true
        }
        if tags.selected != filled.tagIDs(in: model.tags) { return true }
        if case .success(let values) = measures.values { return values != filled.values(in: model.measures) }
        return true
    }

    private func show(_ template: EntryTemplate?) {
        isFilling = true
        defer { isFilling = false }
        shownID = template?.id
        filled = template?.definition
        for (id, button) in listButtons { button.isActive = id == template?.id }
        for widget in [editor, saveButton, deleteButton] as [Widget] { widget.isSensitive = template != nil }
        guard let template else {
            for field in [nameField, titleField] { field.text = "" }
            bodyField.text = ""
            return
        }
        let definition = template.definition
        nameField.text = definition.name
        titleField.text = definition.title
        bodyField.text = definition.body
        moodChoice.selected = definition.mood.map { $0.rawValue + 1 } ?? 0
        tags.set(definition.tagIDs(in: model.tags))
        measures.set(definition.values(in: model.measures))
        defaultCheck.isActive = template.isDefault
        showProblem(nil)
    }

    /// What the editor holds, as a definition; nil (said beside the field) when a measure's
    /// value is not a number.
    var edited: TemplateDefinition? {
        guard let shownID, let shown = model.templates.first(where: { $0.id == shownID }) else { return nil }
        let values: [Int64: Double]
        switch measures.values {
        case .success(let read): values = read
        case .failure(let problem):
            measures.showProblem(problem)
            return nil
        }
        var definition = shown.definition
        (definition.name, definition.title, definition.body, definition.mood) = (nameField.text, titleField.text, bodyField.text, chosenMood)
        return definition.with(tagIDs: tags.selected, values: values, tags: model.tags, measures: model.measures)
    }

    // MARK: - Changes

    /// Keeps the editor's words, when they changed; false when they make no template (no name,
    /// a value that is not a number), said beside the field, nothing kept.
    @discardableResult
    func keepEdits() -> Bool {
        guard let id = shownID, let shown = model.templates.first(where: { $0.id == id }) else { return true }
        guard let definition = edited else { return false }
        switch definition.validated() {
        case .failure(let problem):
            showProblem(problem.message)
            return false
        case .success(let valid): guard valid != shown.definition else { return true }
        }
        model.updateTemplate(id: id, to: definition) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let changed):
                if shownID == id { filled = changed.definition }
                remember(.edited(id: id, was: shown.definition, name: changed.name))
            case .failure(let error): showProblem(error.errorDescription ?? tr("The template could not be saved."))
            }
        }
        return true
    }

    /// New Template: one named "New template", empty, shown with the keyboard in its name.
    func make() {
        guard keepEdits() else { return }
        newButton.isSensitive = false
        model.createTemplate(TemplateDefinition(name: tr("New template"))) { [weak self] result in
            guard let self else { return }
            newButton.isSensitive = true
            switch result {
            case .success(let made):
                remember(.made(id: made.id, name: made.name))
                show(model.templates.first { $0.id == made.id })
                _ = nameField.grabFocus()
            case .failure(let error):
                alerts.showError(error.errorDescription ?? tr("The template could not be made."), retry: { [weak self] in self?.make() })
            }
        }
    }

    private func delete() {
        guard let id = shownID else { return }
        model.deleteTemplate(id: id) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let gone):
                remember(.deleted(gone))
                _ = (listButtons.first?.button ?? newButton).grabFocus()
            case .failure(let error):
                alerts.showError(error.errorDescription ?? tr("The template could not be deleted."), retry: { [weak self] in self?.delete() })
            }
        }
    }

    private func defaultToggled() {
        guard !isFilling, let id = shownID, let shown = model.templates.first(where: { $0.id == id }) else { return }
        let was = model.defaultTemplate?.id
        // The words first: a template is made the default as it reads in the editor.
        guard keepEdits() else {
            isFilling = true
            defaultCheck.isActive = was == id
            isFilling = false
            return
        }
        let wanted: Int64? = defaultCheck.isActive ? id : nil
        guard wanted != was else { return }
        model.setDefaultTemplate(id: wanted) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: remember(.madeDefault(was: was, name: wanted == nil ? tr("no template") : shown.name))
            case .failure(let error):
                showProblem(error.errorDescription ?? tr("The default template could not be changed."))
                isFilling = true
                defaultCheck.isActive = was == id
                isFilling = false
            }
        }
    }

    private func showProblem(_ message: String?) {
        FieldProblem.say(message, in: problem, about: nameField, focus: message != nil)
    }

    // MARK: - Undo

    private func remember(_ change: Change) { undoStack.remember(change) }

    /// Takes back the latest change.
    func undo() {
        undoStack.undo(alerts: alerts) { [unowned self] change, done in
            switch change {
            case .made(let id, _):
                model.deleteTemplate(id: id) { done($0.failure) }
            case .deleted(let gone):
                model.restoreTemplate(gone) { [weak self] result in
                    if case .success(let back) = result, let self {
                        // Back under a new id: the earlier changes to it take it back there.
                        undoStack.update { $0.naming(back.id, for: gone.template.id) }
                        show(model.templates.first { $0.id == back.id })
                    }
                    done(result.failure)
                }
            case .edited(let id, let was, _):
                model.updateTemplate(id: id, to: was) { [weak self] result in
                    if case .success = result, self?.shownID == id { self?.show(self?.model.templates.first { $0.id == id }) }
                    done(result.failure)
                }
            case .madeDefault(let was, _):
                model.setDefaultTemplate(id: was) { done($0.failure) }
            }
        }
    }
}
