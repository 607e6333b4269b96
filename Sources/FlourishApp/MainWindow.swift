import FlourishCore
import GtkKit

/// The window: a header bar whose switcher flips between "New Entry" and "Journal".
@MainActor
final class MainWindow {
    let window: Window
    let pages = Stack()
    let form: EntryFormController
    let journal: JournalController
    let alerts: Alerts

    enum Page: String {
        case newEntry = "new-entry"
        case journal
    }

    init(application: Application, model: JournalModel, location: LocationProvider, preferences: Preferences) {
        Theme.install()
        window = Window(application: application)
        window.title = "Flourish"
        window.setDefaultSize(width: 720, height: 640)
        alerts = Alerts(window: window)
        form = EntryFormController(model: model, alerts: alerts, location: location, preferences: preferences)
        journal = JournalController(model: model)

        pages.addPage(form.view, name: Page.newEntry.rawValue, title: "New Entry")
        pages.addPage(journal.view, name: Page.journal.rawValue, title: "Journal")
        let header = HeaderBar()
        header.setTitleWidget(StackSwitcher(stack: pages))
        window.setTitlebar(header)
        window.setChild(pages)
        window.releaseTextFocusOnOutsideClicks()

        window.addAction("save-entry") { [unowned self] in
            // Ctrl+Enter saves from the form; on the journal it takes the person to the form.
            if page == .newEntry { form.save() } else { show(.newEntry) }
        }
        window.addAction("show-new-entry") { [unowned self] in show(.newEntry) }
        window.addAction("show-journal") { [unowned self] in show(.journal) }
        application.setAccelerators(["<Control>Return", "<Control>KP_Enter"], for: "win.save-entry")
        application.setAccelerators(["<Alt>1"], for: "win.show-new-entry")
        application.setAccelerators(["<Alt>2"], for: "win.show-journal")
        window.onCloseRequest { [unowned self] in keepOpenForUnsavedEntry() }
        pages.onPageChanged { [unowned self] in
            if page == .journal { Trace.once("journal page shown") }
            if page == .newEntry { form.titleField.grabFocus() }
        }
    }

    var page: Page { Page(rawValue: pages.visiblePage) ?? .newEntry }

    private var discardConfirmed = false

    /// The close button and Ctrl+Q ask before an unsaved entry is lost. Returns true to stay open.
    private func keepOpenForUnsavedEntry() -> Bool {
        if form.isSaving {
            // The words are on their way to disk: close once they are there (or, if the save
            // fails, stay open with the error and the words).
            form.closeWhenSaved = { [unowned self] in window.close() }
            return true
        }
        guard form.hasUnsavedText, !discardConfirmed else { return false }
        guard alerts.current == nil else { return true }
        show(.newEntry)
        alerts.confirmDiscard { [unowned self] discard in
            if discard {
                discardConfirmed = true
                window.close()
            } else {
                form.titleField.grabFocus()
            }
        }
        return true
    }

    func show(_ page: Page) { pages.visiblePage = page.rawValue }

    func present() {
        window.present()
        Trace.once("window presented")
        form.titleField.grabFocus()
    }
}
