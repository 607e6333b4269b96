import FlourishCore
import GtkKit

/// One measure in the Measures window: its name, its unit and range (a number's), how many
/// entries carry it, Move Up, Move Down and Delete. Enter in a field keeps the change.
@MainActor
final class MeasureRow {
    let measure: Measure
    let view: Box
    let nameField = TextEntry()
    let unitField = TextEntry()
    let lowestField = TextEntry()
    let highestField = TextEntry()
    let count = Label()
    let upButton: Button
    let downButton: Button
    let deleteButton: Button
    let problem = Label()

    var onChange: (@MainActor (MeasureDefinition) -> Void)?
    var onMove: (@MainActor (_ by: Int) -> Void)?
    var onDelete: (@MainActor () -> Void)?

    init(measure: Measure, entries: Int, isFirst: Bool, isLast: Bool) {
        self.measure = measure
        view = Box(.vertical, spacing: 4, groupNamed: measure.name)
        view.addClass("measure-row")
        nameField.text = measure.name
        nameField.setAccessibleLabel(String(format: tr("Name of “%@”"), measure.name))
        nameField.expand(horizontally: true)
        let kind = Label(measure.kind == .scale ? tr("Scale of 1 to 5") : tr("Number"))
        kind.addClass("journal-meta")
        count.text = EntryCount.words(entries)
        count.addClass("journal-meta")
        upButton = Button(iconName: "go-up-symbolic", accessibleName: String(format: tr("Move “%@” up"), measure.name))
        downButton = Button(iconName: "go-down-symbolic", accessibleName: String(format: tr("Move “%@” down"), measure.name))
        upButton.isSensitive = !isFirst
        downButton.isSensitive = !isLast
        deleteButton = Button(tr("Delete"))
        deleteButton.accessibleName = String(format: tr("Delete “%@”"), measure.name)
        deleteButton.addClass("destructive-action")
        problem.addClass("field-error")
        problem.alignStart()
        problem.isVisible = false

        let line = Box(.horizontal, spacing: 8)
        for widget in [nameField, kind, count, upButton, downButton, deleteButton] as [Widget] {
            widget.align(vertical: .center)
            line.append(widget)
        }
        view.append(line)
        if measure.kind == .number {
            unitField.text = measure.unit
            unitField.setAccessibleLabel(String(format: tr("Unit of “%@”"), measure.name))
            unitField.placeholder = tr("Unit")
            lowestField.text = MeasureNumbers.text(measure.range?.lowerBound)
            lowestField.setAccessibleLabel(String(format: tr("Lowest value of “%@”"), measure.name))
            lowestField.placeholder = tr("Lowest")
            highestField.text = MeasureNumbers.text(measure.range?.upperBound)
            highestField.setAccessibleLabel(String(format: tr("Highest value of “%@”"), measure.name))
            highestField.placeholder = tr("Highest")
            // Filled, a field shows no placeholder: each says what it is beside it.
            let details = Box(.horizontal, spacing: 8)
            for (words, field) in [(tr("Unit"), unitField), (tr("From"), lowestField), (tr("to"), highestField)] {
                let label = Label(words)
                label.addClass("journal-meta")
                label.align(vertical: .center)
                field.setWidthChars(8)
                details.append(label)
                details.append(field)
            }
            lowestField.expectsNumber()
            highestField.expectsNumber()
            view.append(details)
        }
        view.append(problem)
        view.setMargins(top: 6, bottom: 6)

        for field in [nameField, unitField, lowestField, highestField] {
            field.onActivate { [unowned self] in apply() }
            field.onChanged { [unowned self] in showMessage(nil) }
        }
        upButton.onClicked { [unowned self] in onMove?(-1) }
        downButton.onClicked { [unowned self] in onMove?(1) }
        deleteButton.onClicked { [unowned self] in onDelete?() }
    }

    /// Keeps what the fields say, if it changed and reads as a definition.
    func apply() {
        switch MeasureRange.read(lowest: lowestField.text, highest: highestField.text) {
        case .failure(let problem): FieldProblem.say(problem.message, in: self.problem, about: lowestField)
        case .success(let range):
            let definition = MeasureDefinition(name: nameField.text, kind: measure.kind, unit: unitField.text, range: range)
            guard definition.validated().map({ $0 != measure.definition }) != .success(false) else { return }
            onChange?(definition)
        }
    }

    func showMessage(_ message: String?) {
        if message == nil { FieldProblem.say(nil, in: problem, about: lowestField, focus: false) }
        FieldProblem.say(message, in: problem, about: nameField)
    }
}

/// A number's range as two fields give it: both empty is none; one alone, or either not a
/// number, is a problem to say.
enum MeasureRange {
    static func read(lowest: String, highest: String) -> Result<ClosedRange<Double>?, MeasureDefinition.Problem> {
        switch (MeasureNumbers.read(lowest), MeasureNumbers.read(highest)) {
        case (.empty, .empty): .success(nil)
        case (.number(let low), .number(let high)) where low < high: .success(low...high)
        default: .failure(.badRange)
        }
    }
}
