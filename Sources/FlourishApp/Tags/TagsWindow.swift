import FlourishCore
import GtkKit

/// The "Tags" window (main menu): every tag with how many entries carry it, each renamed in
/// place, merged into another or deleted. Deleting and merging ask first and say how many
/// entries they touch; the entries keep everything else.
@MainActor
final class TagsWindow {
    let window: Window
    let alerts: Alerts
    private let list = Box(.vertical, spacing: 0)
    private let emptyHint = Label(tr("No tags yet. Add them on the New Entry form, under the mood."))
    /// One row per tag, in the journal's order (by name).
    private(set) var rows: [TagRow] = []
    /// The tag whose row gets the keyboard once the rows are made again after a change.
    private var focusAfterChange: Int64?
    private let model: JournalModel

    init(application: Application, parent: Window, model: JournalModel) {
        self.model = model
        window = Window(application: application)
        window.title = tr("Tags")
        window.setTransient(for: parent)
        window.setDefaultSize(width: 560, height: 480)
        window.setTitlebar(HeaderBar())
        alerts = Alerts(window: window)
        list.addClass("tags-list")
        list.setMargins(12)
        emptyHint.addClass("empty-hint")
        emptyHint.enableWrapping()
        let scroller = ScrolledWindow(list)
        scroller.expand(horizontally: true, vertically: true)
        window.setChild(scroller)
        window.onKeyPressed { [unowned self] key, modifiers in
            guard key == .escape, modifiers.meaningful.isEmpty, alerts.current == nil else { return false }
            window.close()
            return true
        }
        // While hidden it is not rebuilt (a name being typed in it is kept); showing it reads again.
        model.observeTags { [weak self] in
            guard let self, window.isVisible else { return }
            refresh()
        }
    }

    func present() {
        window.present()
        refresh()
    }

    /// Reads the tags with their counts again and rebuilds the rows, keeping the keyboard on the
    /// row of the tag it was on.
    func refresh() {
        model.countedTags { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let tags): show(tags)
            case .failure(let error):
                alerts.showMessage(title: tr("Error"), message: error.errorDescription ?? tr("The tags could not be read."))
            }
        }
    }

    private func show(_ tags: [Tag]) {
        list.removeAll()
        rows = tags.map { tag in
            let row = TagRow(tag: tag, others: tags.filter { $0.id != tag.id })
            row.onRename = { [unowned self, unowned row] name in rename(tag, to: name, row: row) }
            row.onMerge = { [unowned self] target in merge(tag, into: target) }
            row.onDelete = { [unowned self] in delete(tag) }
            list.append(row.view)
            return row
        }
        if tags.isEmpty { list.append(emptyHint) }
        if let id = focusAfterChange, let row = rows.first(where: { $0.tag.id == id }) {
            focusAfterChange = nil
            row.nameField.grabFocus()
        }
    }

    func row(named name: String) -> TagRow? { rows.first { $0.tag.name == name } }

    private func rename(_ tag: Tag, to name: String, row: TagRow) {
        guard name != tag.name else { return }
        focusAfterChange = tag.id
        model.renameTag(id: tag.id, to: name) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: break // the rows are made again from the journal, in their new order
            case .failure(.tagName(let problem)):
                self.focusAfterChange = nil
                row.showMessage(problem.message)
            case .failure(let error):
                self.focusAfterChange = nil
                row.showMessage(error.errorDescription ?? tr("The tag could not be renamed."))
            }
        }
    }

    private func merge(_ tag: Tag, into target: Tag) {
        let message = String(format: tr("The %@ entries tagged “%@” will be tagged “%@”, and “%@” will be gone."),
                             "\(tag.entryCount)", tag.name, target.name, tag.name)
        alerts.confirm(title: String(format: tr("Merge “%@” into “%@”?"), tag.name, target.name), message: message,
                       action: tr("_Merge")) { [weak self] confirmed in
            guard let self, confirmed else { return }
            focusAfterChange = target.id
            model.mergeTag(id: tag.id, into: target.id) { [weak self] result in
                if case .failure(let error) = result {
                    self?.focusAfterChange = nil
                    self?.showError(error, retry: { self?.merge(tag, into: target) })
                }
            }
        }
    }

    private func delete(_ tag: Tag) {
        let message = tag.entryCount == 0
            ? tr("No entry carries it.")
            : String(format: tr("It will be taken off the %@ entries that carry it. They keep everything else."), "\(tag.entryCount)")
        alerts.confirm(title: String(format: tr("Delete the tag “%@”?"), tag.name), message: message,
                       action: tr("_Delete")) { [weak self] confirmed in
            guard let self, confirmed else { return }
            // The keyboard goes on to the next tag (or the one before, at the end).
            if let index = rows.firstIndex(where: { $0.tag.id == tag.id }) {
                focusAfterChange = rows.indices.contains(index + 1) ? rows[index + 1].tag.id : (index > 0 ? rows[index - 1].tag.id : nil)
            }
            model.deleteTag(id: tag.id) { [weak self] result in
                if case .failure(let error) = result {
                    self?.focusAfterChange = nil
                    self?.showError(error, retry: { self?.delete(tag) })
                }
            }
        }
    }

    private func showError(_ error: JournalError, retry: @escaping @MainActor () -> Void) {
        alerts.showError(error.errorDescription ?? tr("The tags could not be changed."), retry: retry)
    }
}
