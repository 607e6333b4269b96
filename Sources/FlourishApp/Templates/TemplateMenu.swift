import FlourishCore
import GtkKit

/// The forms' Template menu (Alt+M): the journal's templates, each filling the form (an empty
/// one) or going in at the cursor (a written one), and Edit Templates…, which opens Preferences
/// → Templates. Its items follow the journal's templates as they change.
@MainActor
final class TemplateMenu {
    let button: PopoverButton
    private let items = Box(.vertical, spacing: 2)
    private(set) var itemButtons: [Button] = []
    let editButton = Button(mnemonic: tr("_Edit Templates…"))
    var onChoose: (@MainActor (EntryTemplate) -> Void)?
    var onEdit: (@MainActor () -> Void)?
    private let model: JournalModel

    init(model: JournalModel) {
        self.model = model
        button = PopoverButton(label: tr("Te_mplate"), accessibleName: tr("Template"), child: items, mnemonic: true)
        button.tooltip = tr("Start from a template (Alt+M)")
        button.addClass("template-menu")
        items.setMargins(4)
        editButton.addClass("flat")
        editButton.onClicked { [unowned self] in
            button.close()
            onEdit?()
        }
        model.observeTemplates { [weak self] in self?.rebuild() }
        rebuild()
    }

    private func rebuild() {
        items.removeAll()
        itemButtons = model.templates.map { template in
            let item = Button(template.name)
            item.addClass("flat")
            item.addClass("template-item")
            item.onClicked { [unowned self] in
                button.close()
                onChoose?(template)
            }
            items.append(item)
            return item
        }
        if itemButtons.isEmpty {
            let none = Label(tr("No templates yet."))
            none.addClass("dim-label")
            items.append(none)
        }
        items.append(Separator())
        items.append(editButton)
    }
}
