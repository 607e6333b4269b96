import FlourishCore
import GtkKit

/// Preferences → Measures: what the person tracks beside their mood. Each measure is renamed
/// (with its unit and range) in place, moved up or down, or deleted; every one of those changes
/// can be taken back with Undo (the bar at the top, or Ctrl+Z), the latest first. Below the
/// list, a new measure: a name, a kind (a number, or a scale of 1 to 5), a number's unit and range.
@MainActor
final class MeasuresWindow {
    let window: Window
    let alerts: Alerts
    private let list = Box(.vertical, spacing: 0)
    private let emptyHint = Label(tr("No measures yet. Add one below: the entry form then offers it, beside the mood."))
    /// One row per measure, in the person's order.
    private(set) var rows: [MeasureRow] = []

    let nameField = TextEntry()
    let kindChoice = DropDown(accessibleName: tr("Kind of measure"))
    let unitField = TextEntry()
    let lowestField = TextEntry()
    let highestField = TextEntry()
    let addButton = Button(mnemonic: tr("_Add Measure"))
    let addProblem = Label()

    /// "“Sleep” deleted" with Undo, while there is something to take back.
    let undoStack = UndoBar<Change> { $0.said }
    var undoBar: Box { undoStack.view }
    var undoLabel: Label { undoStack.label }
    var undoButton: Button { undoStack.button }
    var undoable: [Change] { undoStack.changes }

    /// A change made here, as what takes it back.
    enum Change {
        case deleted(DeletedMeasure)
        case edited(id: Int64, was: MeasureDefinition, name: String)
        case moved(id: Int64, from: Int, name: String)

        var said: String {
            switch self {
            case .deleted(let gone): String(format: tr("“%@” deleted"), gone.measure.name)
            case .edited(_, _, let name): String(format: tr("“%@” changed"), name)
            case .moved(_, _, let name): String(format: tr("“%@” moved"), name)
            }
        }
    }

    /// The measure whose row gets the keyboard once the rows are made again after a change.
    private var focusAfterChange: (id: Int64, on: Focus)?
    enum Focus { case name, up, down }
    private let model: JournalModel

    init(application: Application, parent: Window, model: JournalModel) {
        self.model = model
        window = Window(application: application)
        window.title = tr("Measures")
        window.setTransient(for: parent)
        window.setDefaultSize(width: 640, height: 520)
        window.setTitlebar(HeaderBar())
        alerts = Alerts(window: window)

        let content = Box(.vertical, spacing: 10)
        content.setMargins(12)
        content.append(undoStack.view)

        let hint = Label(tr("Numbers and scales you track beside your mood, such as hours of sleep or energy from 1 to 5. Each entry can give a value for any of them, or none."))
        hint.enableWrapping()
        hint.alignStart()
        hint.addClass("dim-label")
        content.append(hint)
        list.addClass("measures-list")
        emptyHint.addClass("empty-hint")
        emptyHint.enableWrapping()
        let scroller = ScrolledWindow(list)
        scroller.expand(horizontally: true, vertically: true)
        content.append(scroller)
        content.append(makeAddSection())
        window.setChild(content)

        undoButton.onClicked { [unowned self] in undo() }
        window.onKeyPressed { [unowned self] key, modifiers in
            if key == .escape, modifiers.meaningful.isEmpty, alerts.current == nil {
                window.close()
                return true
            }
            if key.isLetter("z"), modifiers.meaningful == .control, !undoable.isEmpty {
                undo()
                return true
            }
            return false
        }
        // While hidden it is not rebuilt (a name being typed in it is kept); showing it reads again.
        model.observeMeasures { [weak self] in
            guard let self, window.isVisible else { return }
            refresh()
        }
    }

    private func makeAddSection() -> Box {
        let section = Box(.vertical, spacing: 6, groupNamed: tr("New measure"))
        let heading = Label(tr("New measure"))
        heading.addClass("heading")
        heading.alignStart()
        section.append(heading)
        nameField.placeholder = tr("Name, such as Sleep")
        nameField.setAccessibleLabel(tr("Name of the new measure"))
        nameField.expand(horizontally: true)
        kindChoice.items = [tr("Number"), tr("Scale of 1 to 5")]
        kindChoice.selected = 0
        unitField.placeholder = tr("Unit")
        unitField.setAccessibleLabel(tr("Unit of the new measure"))
        lowestField.placeholder = tr("Lowest")
        lowestField.setAccessibleLabel(tr("Lowest value of the new measure"))
        highestField.placeholder = tr("Highest")
        highestField.setAccessibleLabel(tr("Highest value of the new measure"))
        for field in [unitField, lowestField, highestField] {
            field.setWidthChars(8)
        }
        lowestField.expectsNumber()
        highestField.expectsNumber()
        let first = Box(.horizontal, spacing: 8)
        first.append(nameField)
        first.append(kindChoice)
        let second = Box(.horizontal, spacing: 8)
        for widget in [unitField, lowestField, highestField, addButton] as [Widget] { second.append(widget) }
        addButton.addClass("suggested-action")
        addProblem.addClass("field-error")
        addProblem.alignStart()
        addProblem.isVisible = false
        section.append(first)
        section.append(second)
        section.append(addProblem)
        kindChoice.onSelected { [unowned self] in
            let isNumber = kindChoice.selected != 1
            for field in [unitField, lowestField, highestField] { field.isSensitive = isNumber }
        }
        for field in [nameField, unitField, lowestField, highestField] {
            field.onActivate { [unowned self] in add() }
            field.onChanged { [unowned self] in showAddProblem(nil) }
        }
        addButton.onClicked { [unowned self] in add() }
        return section
    }

    func present() {
        window.present()
        refresh()
        if rows.isEmpty { _ = nameField.grabFocus() }
    }

    /// Reads the measures with how many entries carry each, and makes the rows again, keeping
    /// the keyboard where it was.
    func refresh() {
        model.measureUse { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let use): show(model.measures, use: use)
            case .failure(let error):
                alerts.showMessage(title: tr("Error"), message: error.errorDescription ?? tr("The measures could not be read."))
            }
        }
    }

    private func show(_ measures: [Measure], use: [Int64: Int]) {
        list.removeAll()
        rows = measures.enumerated().map { index, measure in
            let row = MeasureRow(measure: measure, entries: use[measure.id] ?? 0, isFirst: index == 0, isLast: index == measures.count - 1)
            row.onChange = { [unowned self, unowned row] definition in change(measure, to: definition, row: row) }
            row.onMove = { [unowned self] by in move(measure, by: by) }
            row.onDelete = { [unowned self] in delete(measure, entries: use[measure.id] ?? 0) }
            list.append(row.view)
            return row
        }
        if measures.isEmpty { list.append(emptyHint) }
        if let (id, focus) = focusAfterChange, let row = rows.first(where: { $0.measure.id == id }) {
            focusAfterChange = nil
            switch focus {
            case .name: _ = row.nameField.grabFocus()
            // At the top or the bottom, its button is off: the keyboard goes to the other one.
            case .up: _ = row.upButton.isSensitive ? row.upButton.grabFocus() : row.downButton.grabFocus()
            case .down: _ = row.downButton.isSensitive ? row.downButton.grabFocus() : row.upButton.grabFocus()
            }
        }
    }

    func row(named name: String) -> MeasureRow? { rows.first { $0.measure.name == name } }

    // MARK: - Changes

    func add() {
        let kind: MeasureKind = kindChoice.selected == 1 ? .scale : .number
        let range: ClosedRange<Double>?
        switch kind == .scale ? .success(nil) : MeasureRange.read(lowest: lowestField.text, highest: highestField.text) {
        case .failure(let problem): return FieldProblem.say(problem.message, in: addProblem, about: lowestField)
        case .success(let read): range = read
        }
        let definition = MeasureDefinition(name: nameField.text, kind: kind, unit: unitField.text, range: range)
        if case .failure(let problem) = definition.validated() { return showAddProblem(problem.message) }
        addButton.isSensitive = false
        model.createMeasure(definition) { [weak self] result in
            guard let self else { return }
            addButton.isSensitive = true
            switch result {
            case .success:
                for field in [nameField, unitField, lowestField, highestField] { field.text = "" }
                _ = nameField.grabFocus()
            case .failure(.measure(let problem)): showAddProblem(problem.message)
            case .failure(let error): showAddProblem(error.errorDescription ?? tr("The measure could not be added."))
            }
        }
    }

    private func showAddProblem(_ message: String?) {
        if message == nil { FieldProblem.say(nil, in: addProblem, about: lowestField, focus: false) }
        FieldProblem.say(message, in: addProblem, about: nameField)
    }

    private func change(_ measure: Measure, to definition: MeasureDefinition, row: MeasureRow) {
        focusAfterChange = (measure.id, .name)
        model.updateMeasure(id: measure.id, to: definition) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let changed): remember(.edited(id: measure.id, was: measure.definition, name: changed.name))
            case .failure(let error):
                focusAfterChange = nil
                if case .measure(let problem) = error { row.showMessage(problem.message) } else {
                    row.showMessage(error.errorDescription ?? tr("The measure could not be changed."))
                }
            }
        }
    }

    private func move(_ measure: Measure, by step: Int) {
        guard let from = rows.firstIndex(where: { $0.measure.id == measure.id }) else { return }
        focusAfterChange = (measure.id, step < 0 ? .up : .down)
        model.moveMeasure(id: measure.id, to: from + step) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: remember(.moved(id: measure.id, from: from, name: measure.name))
            case .failure(let error):
                focusAfterChange = nil
                alerts.showError(error.errorDescription ?? tr("The measure could not be moved."), retry: { [weak self] in
                    self?.move(measure, by: step)
                })
            }
        }
    }

    /// Deletes at once (Undo brings it back, values and all), saying first what it takes away
    /// when entries carry it.
    private func delete(_ measure: Measure, entries: Int) {
        let go = { [weak self] in
            guard let self else { return }
            if let index = rows.firstIndex(where: { $0.measure.id == measure.id }) {
                let next = rows.indices.contains(index + 1) ? rows[index + 1] : (index > 0 ? rows[index - 1] : nil)
                focusAfterChange = next.map { ($0.measure.id, .name) }
            }
            model.deleteMeasure(id: measure.id) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let gone):
                    remember(.deleted(gone))
                    if rows.count <= 1 { _ = nameField.grabFocus() }
                case .failure(let error):
                    focusAfterChange = nil
                    alerts.showError(error.errorDescription ?? tr("The measure could not be deleted."), retry: { [weak self] in
                        self?.delete(measure, entries: entries)
                    })
                }
            }
        }
        guard entries > 0 else { return go() }
        alerts.confirm(title: String(format: tr("Delete the measure “%@”?"), measure.name),
                       message: String(format: tr("Its values on %@ entries go with it. Undo brings them back."), "\(entries)"),
                       action: tr("_Delete")) { confirmed in
            if confirmed { go() }
        }
    }

    // MARK: - Undo

    private func remember(_ change: Change) { undoStack.remember(change) }

    /// Takes back the latest change.
    func undo() {
        undoStack.undo(alerts: alerts) { [unowned self] change, done in
            switch change {
            case .deleted(let gone):
                focusAfterChange = (gone.measure.id, .name)
                model.restoreMeasure(gone) { done($0.failure) }
            case .edited(let id, let was, _):
                focusAfterChange = (id, .name)
                model.updateMeasure(id: id, to: was) { done($0.failure) }
            case .moved(let id, let from, _):
                focusAfterChange = (id, .name)
                model.moveMeasure(id: id, to: from) { done($0.failure) }
            }
        }
    }
}

extension Result {
    /// The error, if it failed.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
