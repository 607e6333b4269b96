import FlourishCore
import Foundation
import GtkKit

/// "Export…" (main menu): the format, then where (GTK's file chooser), then the export itself in
/// the background with its progress and Cancel. The window never waits: a journal of 100,000
/// entries takes seconds to write.
@MainActor
final class ExportWindow {
    let window: Window
    let json = CheckButton(tr("JSON: everything, to import into Flourish again"))
    let csv = CheckButton(tr("CSV: a table, for spreadsheets"))
    let markdown = CheckButton(tr("Markdown: a document to read"))
    let byYear = CheckButton(tr("One file a year"))
    let exportButton = Button(mnemonic: tr("_Export…"))
    let cancelButton = Button(mnemonic: tr("_Cancel"))
    let progress = ProgressBar()
    /// The format chosen.
    var format: ExportFormat {
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
        for choice in [json, csv, markdown] {
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
                var message = String(format: tr("%@ written to %@."), EntryCount.words(result.entries), result.files.count == 1 ? result.files[0] : path)
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
        for choice in [json, csv, markdown] { choice.isSensitive = !isRunning }
        byYear.isSensitive = !isRunning && markdown.isActive
    }
}
