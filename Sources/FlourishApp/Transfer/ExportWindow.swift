import FlourishCore
import Foundation
import GtkKit

/// "Export…" (main menu): the format, then where (GTK's file chooser), then the export itself in
/// the background with its progress and Cancel. The window never waits: a journal of 100,000
/// entries takes seconds to write, and its photos may be gigabytes. JSON names the photos;
/// "Everything, with photos" is the ZIP file that has them too, and Markdown writes them in a
/// folder beside its text.
@MainActor
final class ExportWindow {
    let window: Window
    let json = CheckButton(tr("JSON: everything, to import into Flourish again"))
    let zip = CheckButton(tr("Everything, with photos (ZIP)"))
    let csv = CheckButton(tr("CSV: a table, for spreadsheets"))
    let markdown = CheckButton(tr("Markdown: a document to read"))
    let byYear = CheckButton(tr("One file a year"))
    let exportButton = Button(mnemonic: tr("_Export…"))
    let cancelButton = Button(mnemonic: tr("_Cancel"))
    let progress = ProgressBar()
    /// The format chosen.
    var format: ExportFormat {
        if zip.isActive { return .zip }
        if csv.isActive { return .csv }
        if markdown.isActive { return byYear.isActive ? .markdownByYear : .markdown }
        return .json
    }

    private let model: JournalModel
    private let alerts: Alerts
    private var running: JournalModel.ExportRun?

    init(application: Application, parent: Window, model: JournalModel, alerts: Alerts) {
        self.model = model
        self.alerts = alerts
        let content: Box
        (window, content) = TaskWindow.make(application: application, parent: parent, title: tr("Export Journal"), width: 440)
        let intro = Label(tr("Export your whole journal as:"))
        intro.alignStart()
        content.append(intro)
        let choices = Box(.vertical, spacing: 4, groupNamed: tr("Format"))
        for choice in [json, zip, csv, markdown] {
            choices.append(choice)
            if choice != json { choice.join(json) }
        }
        byYear.setMargins(start: 24)
        choices.append(byYear)
        content.append(choices)
        json.isActive = true
        byYear.isSensitive = false
        progress.isVisible = false
        content.append(progress)
        TaskWindow.buttons([cancelButton, exportButton], in: content, of: window)

        markdown.onToggled { [unowned self] in byYear.isSensitive = markdown.isActive }
        exportButton.onClicked { [unowned self] in chooseWhere() }
        cancelButton.onClicked { [unowned self] in
            if let running { running.cancel() } else { window.close() }
        }
    }

    /// Stops an export in progress (the app is quitting).
    func cancel() { running?.cancel() }

    func present() {
        showRunning(false)
        window.present()
        json.grabFocus()
    }

    private func chooseWhere() {
        let format = format
        let kind: FileChooser.Kind = format == .markdownByYear ? .folder
            : .save(suggestedName: SuggestedFileName.dated("Flourish journal", extension: format.fileExtension))
        FileChooser.ask(kind, title: tr("Export Journal"), from: window, accept: tr("_Export"), cancel: tr("_Cancel")) { [weak self] path in
            guard let self, let path else { return }
            export(format, to: path)
        }
    }

    /// Runs the export to `path`, showing its progress; the result is said in a dialog.
    func export(_ format: ExportFormat, to path: String, then done: @escaping @MainActor () -> Void = {}) {
        showRunning(true)
        running = model.export(format, to: path, progress: { [weak self] written, total in
            guard let self, running != nil else { return }
            progress.fraction = total == 0 ? 1 : Double(written) / Double(total)
            progress.text = String(format: tr("%@ of %@"), written.formatted(), EntryCount.words(total))
        }, completion: { [weak self] result in
            guard let self else { return }
            running = nil
            showRunning(false)
            switch result {
            case .success(let result):
                window.close()
                var message = Self.written(result, to: result.files.count == 1 ? result.files[0] : path)
                if result.unreadable > 0 {
                    message += " " + String(format: tr("%@ could not be read and were left out."), EntryCount.words(result.unreadable))
                }
                alerts.showMessage(title: tr("Journal Exported"), message: message, then: done)
            case .failure(.cancelled):
                done()
            case .failure(let failure):
                alerts.showMessage(title: tr("Error"), message: failure.message, then: done)
            }
        })
    }

    private func showRunning(_ isRunning: Bool) {
        progress.isVisible = isRunning
        progress.fraction = 0
        progress.text = ""
        exportButton.isSensitive = !isRunning
        for choice in [json, zip, csv, markdown] { choice.isSensitive = !isRunning }
        byYear.isSensitive = !isRunning && markdown.isActive
    }

    /// "3 entries and 12 photos written to …", or, when the format leaves the photos out, what
    /// has them.
    static func written(_ result: ExportResult, to path: String) -> String {
        let entries = EntryCount.words(result.entries)
        guard result.photos > 0 else { return String(format: tr("%@ written to %@."), entries, path) }
        let photos = PhotoCount.words(result.photos)
        if result.photosIncluded { return String(format: tr("%@ and %@ written to %@."), entries, photos, path) }
        return String(format: tr("%@ written to %@."), entries, path) + " "
            + String(format: tr("%@ not included: choose “Everything, with photos (ZIP)” to have them."), photos)
    }
}
