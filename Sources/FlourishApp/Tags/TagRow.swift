import FlourishCore
import GtkKit

/// One tag in the Tags window: its name (an editable field: Enter renames), how many entries
/// carry it, "Merge into" and "Delete".
@MainActor
final class TagRow {
    let tag: Tag
    let view: Box
    let nameField = TextEntry()
    let count = Label()
    let renameButton: Button
    let mergeButton: PopoverButton
    let mergeChoices: [(tag: Tag, button: Button)]
    let deleteButton: Button
    let problem = Label()

    var onRename: (@MainActor (String) -> Void)?
    var onMerge: (@MainActor (Tag) -> Void)?
    var onDelete: (@MainActor () -> Void)?

    init(tag: Tag, others: [Tag]) {
        self.tag = tag
        view = Box(.vertical, spacing: 4, groupNamed: tag.name)
        view.addClass("tag-row")
        nameField.text = tag.name
        nameField.setAccessibleLabel(String(format: tr("Name of “%@”"), tag.name))
        nameField.expand(horizontally: true)
        count.text = EntryCount.words(tag.entryCount)
        count.addClass("journal-meta")
        renameButton = Button(tr("Rename"))
        renameButton.accessibleName = String(format: tr("Rename “%@”"), tag.name)
        let choices = Box(.vertical, spacing: 2)
        choices.setMargins(6)
        mergeChoices = others.map { other in
            let button = Button(other.name)
            button.addClass("flat")
            choices.append(button)
            return (other, button)
        }
        mergeButton = PopoverButton(label: tr("Merge into"), accessibleName: String(format: tr("Merge “%@” into"), tag.name), child: choices)
        mergeButton.isSensitive = !others.isEmpty
        deleteButton = Button(tr("Delete"))
        deleteButton.accessibleName = String(format: tr("Delete “%@”"), tag.name)
        deleteButton.addClass("destructive-action")
        problem.addClass("field-error")
        problem.alignStart()
        problem.isVisible = false

        let line = Box(.horizontal, spacing: 8)
        for widget in [nameField, count, renameButton, mergeButton, deleteButton] as [Widget] {
            widget.align(vertical: .center)
            line.append(widget)
        }
        view.append(line)
        view.append(problem)
        view.setMargins(top: 6, bottom: 6)

        nameField.onActivate { [unowned self] in onRename?(nameField.text) }
        renameButton.onClicked { [unowned self] in onRename?(nameField.text) }
        nameField.onChanged { [unowned self] in showMessage(nil) }
        for (other, button) in mergeChoices {
            button.onClicked { [unowned self] in
                mergeButton.close()
                onMerge?(other)
            }
        }
        deleteButton.onClicked { [unowned self] in onDelete?() }
    }

    func showMessage(_ message: String?) {
        FieldProblem.say(message, in: problem, about: nameField)
    }
}
