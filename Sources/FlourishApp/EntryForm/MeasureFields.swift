import FlourishCore
import Foundation
import GtkKit

/// The forms' measures, under the tags: one compact, optional field per measure of the journal,
/// in the person's order: a number's field (its unit and range as its hint) or a scale's five
/// steps (pressing the chosen step again clears it). All empty to start: an entry without them
/// is as quick to write as one without measures. Absent while the journal has no measures.
@MainActor
final class MeasureFields {
    let view = Box(.vertical, spacing: 6, groupNamed: tr("Measures"))
    private let grid = FlowBox()
    /// Said under the fields when a number's field does not hold a number.
    let problem = Label()
    private(set) var fields: [MeasureField] = []
    /// The values given by `set`: those of measures with no field (not read yet, say) are
    /// carried as they were, so an edit made before the measures are read loses none.
    private var given: [Int64: Double] = [:]
    private let model: JournalModel

    init(model: JournalModel) {
        self.model = model
        let heading = Label(tr("Measures"))
        heading.addClass("field-label")
        heading.alignStart()
        grid.addClass("measure-fields")
        problem.addClass("field-error")
        problem.alignStart()
        problem.isVisible = false
        view.append(heading)
        view.append(grid)
        view.append(problem)
        view.setMargins(top: 4, bottom: 4)
        model.observeMeasures { [weak self] in self?.rebuild() }
        rebuild()
    }

    /// Shows exactly these values (an entry being edited; none for a new one).
    func set(_ values: [Int64: Double]) {
        given = values
        for field in fields { field.value = values[field.measure.id] }
        showProblem(nil)
    }

    /// The values the fields hold, or the first field whose text is not a number.
    var values: Result<[Int64: Double], MeasureField.NotANumber> {
        // A measure deleted meanwhile has no field; the store leaves its value out.
        var values = given.filter { id, _ in !fields.contains { $0.measure.id == id } }
        for field in fields {
            switch field.reading {
            case .failure(let problem): return .failure(problem)
            case .success(let value): values[field.measure.id] = value
            }
        }
        return .success(values)
    }

    /// Whether every field reads (text in a number's field that is not a number is a change
    /// not to lose without asking).
    var allRead: Bool {
        if case .success = values { true } else { false }
    }

    /// The field of the measure named `name`, for tests and the keyboard.
    func field(named name: String) -> MeasureField? { fields.first { $0.measure.name == name } }

    var isSensitive: Bool = true {
        didSet { grid.isSensitive = isSensitive }
    }

    /// Says that a field does not hold a number, next to it and to a screen reader, and sends
    /// the keyboard there; nil takes the message back.
    func showProblem(_ notANumber: MeasureField.NotANumber?) {
        let message = notANumber.map { String(format: tr("Write a number for %@, or leave it empty."), $0.measure.name) }
        problem.text = message ?? ""
        problem.isVisible = message != nil
        for field in fields {
            let invalid = field.measure.id == notANumber?.measure.id
            field.numberField?.setAccessibleInvalid(invalid)
            field.numberField?.setAccessibleDescription(invalid ? (message ?? "") : "")
            if invalid { _ = field.numberField?.grabFocus() }
        }
    }

    /// Makes the fields again from the journal's measures, keeping what they held.
    private func rebuild() {
        var held = given
        for field in fields { if case .success(let value) = field.reading { held[field.measure.id] = value } }
        grid.removeAll()
        fields = model.measures.map { measure in
            let field = MeasureField(measure: measure)
            field.value = held[measure.id]
            field.onEdited = { [unowned self] in if problem.isVisible { showProblem(nil) } }
            grid.append(field.view)
            return field
        }
        view.isVisible = !fields.isEmpty
    }
}

/// One measure's field: its name, and a number's entry or a scale's five steps.
@MainActor
final class MeasureField {
    let measure: Measure
    let view: Box
    /// A number's field.
    private(set) var numberField: TextEntry?
    /// A scale's steps, 1 to 5.
    private(set) var steps: [ToggleButton] = []
    var onEdited: (@MainActor () -> Void)?
    private var filling = false

    struct NotANumber: Error {
        let measure: Measure
    }

    init(measure: Measure) {
        self.measure = measure
        view = Box(.horizontal, spacing: 6, groupNamed: measure.name)
        view.addClass("measure-field")
        let name = Label(measure.name)
        name.align(vertical: .center)
        view.append(name)
        switch measure.kind {
        case .number:
            let field = TextEntry()
            field.setWidthChars(6)
            field.expectsNumber()
            field.setAccessibleLabel(measure.name)
            field.placeholder = Self.hint(measure)
            field.tooltip = Self.hint(measure).isEmpty ? measure.name : "\(measure.name): \(Self.hint(measure))"
            field.onChanged { [unowned self] in onEdited?() }
            view.append(field)
            numberField = field
        case .scale:
            let box = Box(.horizontal, spacing: 0)
            box.addClass("linked")
            steps = (1...5).map { step in
                let button = ToggleButton("\(step)")
                button.setAccessibleLabel(String(format: tr("%@, %@ of 5"), measure.name, "\(step)"))
                button.addClass("measure-step")
                button.onToggled { [unowned self, unowned button] in
                    guard !filling else { return }
                    // One step at a time; pressing the chosen one again leaves the scale empty.
                    if button.isActive { value = Double(step) } else { value = nil }
                    onEdited?()
                }
                box.append(button)
                return button
            }
            view.append(box)
        }
    }

    /// "hours, 0–24", "0–10", "steps": what a number's field says while empty.
    private static func hint(_ measure: Measure) -> String {
        let range = measure.range.map { "\(MeasureValues.number($0.lowerBound))–\(MeasureValues.number($0.upperBound))" }
        return [measure.unit.isEmpty ? nil : measure.unit, range].compactMap { $0 }.joined(separator: ", ")
    }

    /// The value shown; nil when the field is empty. Setting a scale's turns on its step alone.
    var value: Double? {
        get {
            if case .success(let value) = reading { return value }
            return nil
        }
        set {
            filling = true
            defer { filling = false }
            if let numberField { numberField.text = MeasureNumbers.text(newValue) }
            for (index, button) in steps.enumerated() { button.isActive = newValue == Double(index + 1) }
        }
    }

    /// What the field holds: a value, nothing, or text that is not a number.
    var reading: Result<Double?, NotANumber> {
        if let numberField {
            switch MeasureNumbers.read(numberField.text) {
            case .empty: return .success(nil)
            case .number(let value): return .success(value)
            case .notANumber: return .failure(NotANumber(measure: measure))
            }
        }
        return .success(steps.firstIndex { $0.isActive }.map { Double($0 + 1) })
    }
}
