import FlourishCore
import Foundation
import GtkKit

/// "Import…" (main menu): a file chosen with GTK's file chooser and read in the background; then
/// this window says what will happen ("412 entries, 18 tags, 3 already in your journal"; for a
/// Daylio CSV without its header line, that its columns were recognised from its entries; the
/// photos that come with the entries, and those left behind; a backup's voice notes, which are
/// not imported) and, for Daylio, lists each of its moods with how many entries carry it and the
/// Flourish mood it becomes, which the person can change. Import writes everything in one transaction; the "Entry deleted" notice
/// then offers to undo it.
@MainActor
final class ImportWindow {
    let window: Window
    let summary = Label()
    let moodsBox = Box(.vertical, spacing: 6, groupNamed: tr("Moods"))
    let importButton = Button(mnemonic: tr("_Import"))
    let cancelButton = Button(mnemonic: tr("_Cancel"))
    /// For a Daylio export: each of its moods and the choice of a Flourish mood for it.
    private(set) var moodChoices: [(name: String, choice: DropDown)] = []
    /// What is being imported.
    private(set) var file: ImportFile?
    /// Told of a finished import (for the notice's Undo).
    var onImported: (@MainActor (ImportReceipt) -> Void)?

    private let model: JournalModel
    private let alerts: Alerts

    init(application: Application, parent: Window, model: JournalModel, alerts: Alerts) {
        self.model = model
        self.alerts = alerts
        let content: Box
        (window, content) = TaskWindow.make(application: application, parent: parent, title: tr("Import"), width: 480)
        summary.alignStart()
        summary.enableWrapping()
        // About the window's width: the preview of a foreign journal runs to several lines.
        summary.setMaxWidthChars(56)
        summary.isSelectable = true
        content.append(summary)
        content.append(moodsBox)
        // Until a file is read and summed up, there is nothing to import.
        importButton.isSensitive = false
        TaskWindow.buttons([cancelButton, importButton], in: content, of: window)
        importButton.onClicked { [unowned self] in runImport() }
        cancelButton.onClicked { [unowned self] in window.close() }
    }

    /// Asks for the file, then reads it.
    func chooseFile(from parent: Window) {
        FileChooser.ask(.open, title: tr("Import"), from: parent, accept: tr("_Open"), cancel: tr("_Cancel"), filters: Self.filters) { [weak self] path in
            guard let self, let path else { return }
            read(path)
        }
    }

    /// Asks for a folder of Markdown notes named by their day (Obsidian's, Logseq's) or
    /// RedNotebook's data folder, then reads it. The chooser opens on RedNotebook's journal when
    /// this computer has one: choosing it is one click.
    func chooseFolder(from parent: Window) {
        FileChooser.ask(.folder, title: tr("Import a Folder of Notes"), from: parent, accept: tr("_Open"), cancel: tr("_Cancel"),
                        startIn: (RedNotebookData.defaultFolder as NSString).deletingLastPathComponent) { [weak self] path in
            guard let self, let path else { return }
            read(path)
        }
    }

    /// What the file chooser offers: the files Flourish imports (Daylio's CSV export and backup,
    /// Flourish's JSON and ZIP exports), or every file (a Daylio export renamed).
    static var filters: [FileChooser.Filter] {
        [FileChooser.Filter(name: tr("Journals to import (Flourish, Daylio, Day One, Diaro, Journey, jrnl, Markdown)"), suffixes: ["csv", "daylio", "json", "zip", "md", "xml", "txt"]),
         FileChooser.Filter(name: tr("All files"), suffixes: [])]
    }

    /// Reads the file at `path` in the background; a file that is not what it claims is refused
    /// with the line and what is wrong, and nothing is imported.
    func read(_ path: String) {
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { () throws(ImportProblem) in try ImportFile.read(path: path) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated { [weak self] in
                    guard let self else { return }
                    switch result {
                    case .success(let file): show(file, name: (path as NSString).lastPathComponent)
                    case .failure(let problem):
                        alerts.showMessage(title: tr("This File Cannot Be Imported"),
                                           message: String(format: tr("%@: %@ Nothing was imported."), (path as NSString).lastPathComponent, problem.message))
                    }
                }
            }
        }
    }

    private var entries: [ImportedEntry] {
        switch file {
        case .daylio(let export)?:
            let titles = Mood.catalogue
            return export.entries(mapping: Dictionary(uniqueKeysWithValues: moodChoices.map { ($0.name, titles[$0.choice.selected ?? 2]) }))
        case let file?: return file.entries ?? []
        case nil: return []
        }
    }

    private func show(_ file: ImportFile, name: String) {
        self.file = file
        moodsBox.removeAll()
        moodChoices = []
        if case .daylio(let export) = file {
            let heading = Label(tr("Daylio’s moods become:"))
            heading.alignStart()
            moodsBox.append(heading)
            for mood in export.moods {
                let line = Box(.horizontal, spacing: 12)
                let label = Label(String(format: tr("“%@” (%@)"), mood.name, EntryCount.words(mood.count)))
                label.alignStart()
                label.expand(horizontally: true)
                let choice = DropDown(accessibleName: String(format: tr("Flourish mood for “%@”"), mood.name))
                choice.items = Mood.catalogue.map(\.title)
                choice.selected = mood.proposed.rawValue
                line.append(label)
                line.append(choice)
                moodsBox.append(line)
                moodChoices.append((mood.name, choice))
            }
        }
        moodsBox.isVisible = !moodChoices.isEmpty
        summary.text = String(format: tr("Reading %@…"), name)
        importButton.isSensitive = false
        // Made once for the preview: a Daylio file's entries are remade from its mood choices
        // at each reading of `entries`, for a whole journal.
        let entries = self.entries
        let span = entries.spanWords
        model.importSummary(entries) { [weak self] result in
            guard let self else { return }
            // Shown once its words are known: GTK keeps the height a window was first shown at,
            // and a preview that grew by a few lines after would push the buttons out of sight.
            // The keyboard on the first choice before it shows (else on the summary, all selected).
            defer {
                if case .success = result { (moodChoices.first?.choice ?? importButton).grabFocus() }
                window.present()
            }
            switch result {
            case .success(let counts):
                summary.text = counts.photos == 0
                    ? String(format: tr("%@: %@, %@, %@ already in your journal."), name, EntryCount.words(counts.entries),
                             Self.tags(counts.tags), "\(counts.already)")
                    : String(format: tr("%@: %@, %@, %@, %@ already in your journal."), name, EntryCount.words(counts.entries),
                             Self.tags(counts.tags), PhotoCount.words(counts.photos), "\(counts.already)")
                if case .foreign(let journal) = file {
                    summary.text = String(format: tr("A journal from %@."), journal.source) + " " + summary.text
                    if !span.isEmpty { summary.text += " " + span }
                }
                let moodless = entries.withoutMood
                if moodless > 0 {
                    summary.text += " " + (moodless == 1 ? tr("1 of them has no mood, and is kept without one.")
                        : String(format: tr("%@ of them have no mood, and are kept without one."), moodless.formatted()))
                }
                if !file.remarks.isEmpty { summary.text += " " + file.remarks }
                let notKept = ImportFile.valuesNotKept(in: entries, measures: file.measures)
                if !notKept.isEmpty { summary.text += " " + notKept }
                importButton.isSensitive = counts.adding > 0
                if counts.adding == 0 { summary.text += " " + tr("There is nothing new to import.") }
            case .failure(let error):
                summary.text = error.errorDescription ?? tr("The journal could not be read.")
            }
        }
    }

    private func runImport() {
        guard let file else { return }
        importButton.isSensitive = false
        let tags = file.tags
        model.importEntries(entries, tags: tags, measures: file.measures, templates: file.templates) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let receipt):
                window.close()
                onImported?(receipt)
            case .failure(let error):
                importButton.isSensitive = true
                alerts.showError(error.errorDescription ?? tr("The entries could not be imported."), retry: { [weak self] in self?.runImport() })
            }
        }
    }

    static func tags(_ count: Int) -> String {
        count == 1 ? tr("1 tag") : String(format: tr("%@ tags"), count.formatted())
    }
}
