import FlourishCore
import GtkKit

/// The forms' "Tags" group ("What did you do?"): every tag of the journal as a toggle, wrapping
/// over as many lines as the width needs, and an "Add tag" field that makes a new tag and turns
/// it on. A name that breaks the rules is refused next to the field, its text kept.
@MainActor
final class TagChooser {
    let view = Box(.vertical, spacing: 6, groupNamed: tr("Tags"))
    let toggles = FlowBox()
    let addField = TextEntry()
    let addButton = Button(tr("Add"))
    /// Said under the field when a name cannot be a tag's.
    let addError = Label()

    /// The toggles by tag id, in the journal's order (by name).
    private(set) var buttons: [(id: Int64, button: ToggleButton)] = []
    /// The tags turned on.
    private(set) var selected: Set<Int64> = []
    private(set) var isAdding = false
    /// Set while code turns toggles on or off, so that doing so is not taken as the person's choice.
    private var filling = false
    private let model: JournalModel

    init(model: JournalModel) {
        self.model = model
        let heading = Label()
        heading.setMnemonic(tr("Ta_gs"), for: addField, namesWidget: false)
        heading.addClass("field-label")
        heading.alignStart()
        toggles.addClass("tag-toggles")
        addField.placeholder = tr("Add tag")
        addField.setAccessibleLabel(tr("Add tag"))
        addField.tooltip = tr("A new tag for this entry (Enter adds it)")
        addField.align(horizontal: .start)
        addError.addClass("field-error")
        addError.alignStart()
        addError.isVisible = false
        let addRow = Box(.horizontal, spacing: 6)
        addRow.append(addField)
        addRow.append(addButton)
        view.append(heading)
        view.append(toggles)
        view.append(addRow)
        view.append(addError)
        view.setMargins(top: 4, bottom: 4)

        addField.onActivate { [unowned self] in add() }
        addButton.onClicked { [unowned self] in add() }
        addField.onChanged { [unowned self] in showMessage(nil) }
        model.observeTags { [weak self] in self?.rebuild() }
        rebuild()
    }

    /// Turns on exactly these tags (an entry being edited; none for a new one).
    func set(_ ids: Set<Int64>) {
        selected = ids
        filling = true
        for (id, button) in buttons { button.isActive = ids.contains(id) }
        filling = false
        addField.text = ""
        showMessage(nil)
    }

    /// The toggle of the tag named `name`, for tests and for the keyboard.
    func button(named name: String) -> ToggleButton? {
        buttons.first { $0.button.label == name }?.button
    }

    var isSensitive: Bool = true {
        didSet {
            toggles.isSensitive = isSensitive
            addField.isSensitive = isSensitive
            addButton.isSensitive = isSensitive && !isAdding
        }
    }

    /// Makes the toggles again from the journal's tags, keeping what was on.
    private func rebuild() {
        toggles.removeAll()
        // A tag merged away stays on as the tag it went into; a deleted one goes.
        selected = model.currentTags(selected)
        buttons = model.tags.map { tag in
            let button = ToggleButton(tag.name)
            button.addClass("tag-toggle")
            button.isActive = selected.contains(tag.id)
            button.onToggled { [unowned self, unowned button] in
                guard !filling else { return }
                if button.isActive { selected.insert(tag.id) } else { selected.remove(tag.id) }
            }
            toggles.append(button)
            return (tag.id, button)
        }
        toggles.isVisible = !buttons.isEmpty
    }

    /// "Add tag": a new name becomes a tag, turned on; the name of a tag there already (in any
    /// case) turns that one on; a name that breaks the rules is said next to the field.
    func add() {
        guard !isAdding else { return }
        let name: String
        switch TagName.validated(addField.text) {
        case .failure(let problem): return showMessage(problem.message)
        case .success(let valid): name = valid
        }
        if let existing = model.tags.first(where: { TagName.sameName($0.name, name) }) {
            turnOn(existing.id)
            return
        }
        isAdding = true
        addButton.isSensitive = false
        model.createTag(named: name) { [weak self] result in
            guard let self else { return }
            isAdding = false
            addButton.isSensitive = isSensitive
            switch result {
            case .success(let tag): turnOn(tag.id)
            case .failure(.tagName(let problem)): showMessage(problem.message)
            case .failure(let error): showMessage(error.errorDescription ?? tr("The tag could not be added."))
            }
        }
    }

    private func turnOn(_ id: Int64) {
        selected.insert(id)
        filling = true
        for (tagID, button) in buttons where tagID == id { button.isActive = true }
        filling = false
        addField.text = ""
        showMessage(nil)
    }

    private func showMessage(_ message: String?) {
        FieldProblem.say(message, in: addError, about: addField, focus: false)
    }
}
