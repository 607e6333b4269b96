import FlourishCore
import Foundation
import GtkKit

/// "Print…" (Ctrl+P) and "Export as PDF…" (main menu): which entries go in the book (the whole
/// journal, a year, a run of days, or what the journal's search shows now), then GTK's print
/// dialog, or a file chooser and the PDF written through the same print operation. A locked
/// journal's window says first that paper and a PDF are not locked.
@MainActor
final class BookWindow {
    enum Purpose { case print, pdf }

    let window: Window
    let whole = CheckButton(choice: tr("The whole journal"))
    let year = CheckButton(choice: tr("One year:"))
    let years = DropDown(accessibleName: tr("Year"))
    let days = CheckButton(choice: tr("These days:"))
    let from = DayFilter(name: tr("From"))
    let to = DayFilter(name: tr("To"))
    let search = CheckButton(choice: tr("The entries the search shows"))
    let warning = Label(BookExport.plainWarning)
    let goButton: Button
    let cancelButton = Button(mnemonic: tr("_Cancel"))
    /// Said under the choices: the journal could not be read, or the range holds nothing.
    let problem = Label()

    private let purpose: Purpose
    private let model: JournalModel
    private let alerts: Alerts
    private let query: JournalQuery?
    private var yearList: [Int] = []
    /// While the years are put in the list: that is no choice of the person's.
    private var fillingYears = false
    /// The print operation while GTK runs it.
    private var printing: BookPrint?

    init(_ purpose: Purpose, application: Application, parent: Window, model: JournalModel, alerts: Alerts,
         searchQuery: JournalQuery?, locked: Bool) {
        self.purpose = purpose
        self.model = model
        self.alerts = alerts
        query = searchQuery
        goButton = Button(mnemonic: purpose == .print ? tr("_Print…") : tr("_Export…"))
        let content: Box
        (window, content) = TaskWindow.make(application: application, parent: parent,
                                            title: purpose == .print ? tr("Print Journal") : tr("Export as PDF"), width: 460)
        let intro = Label(purpose == .print ? tr("Print these entries, oldest first:") : tr("Put these entries in the PDF, oldest first:"))
        intro.alignStart()
        content.append(intro)
        let choices = Box(.vertical, spacing: 6, groupNamed: tr("Entries"))
        choices.append(whole)
        let yearRow = Box(.horizontal, spacing: 8)
        yearRow.append(year)
        yearRow.append(years)
        choices.append(yearRow)
        let daysRow = Box(.horizontal, spacing: 8)
        daysRow.append(days)
        daysRow.append(from.button)
        daysRow.append(Label("–"))
        daysRow.append(to.button)
        choices.append(daysRow)
        choices.append(search)
        for choice in [year, days, search] { choice.join(whole) }
        content.append(choices)
        whole.isActive = true
        search.isSensitive = searchQuery != nil
        years.isSensitive = false
        problem.alignStart()
        problem.enableWrapping()
        problem.addClass("field-error")
        problem.isVisible = false
        content.append(problem)
        warning.alignStart()
        warning.enableWrapping()
        warning.setMaxWidthChars(52)
        warning.addClass("field-error")
        warning.isVisible = locked
        content.append(warning)
        TaskWindow.buttons([cancelButton, goButton], in: content, of: window)

        // Choosing a year or a day chooses its line.
        years.onSelected { [unowned self] in if !fillingYears, years.selected != nil { year.isActive = true } }
        from.onChange = { [unowned self] in days.isActive = true }
        to.onChange = { [unowned self] in days.isActive = true }
        cancelButton.onClicked { [unowned self] in window.close() }
        goButton.onClicked { [unowned self] in start() }
        model.bookPlan(.whole) { [weak self] result in
            guard let self, case .success(let plan) = result else { return }
            yearList = plan.years.reversed()
            fillingYears = true
            years.items = yearList.map(String.init)
            if !yearList.isEmpty { years.selected = 0 }
            fillingYears = false
            years.isSensitive = !yearList.isEmpty
            year.isSensitive = !yearList.isEmpty
        }
    }

    func present() {
        window.present()
        whole.grabFocus()
    }

    /// The entries chosen.
    var range: BookRange {
        if year.isActive, let index = years.selected, index < yearList.count { return .year(yearList[index]) }
        if days.isActive {
            return .days(from: from.day.map { Insights.Day($0) }, to: to.day.map { Insights.Day($0) })
        }
        if search.isActive, let query { return .search(query) }
        return .whole
    }

    private func start() {
        let range = range
        goButton.isSensitive = false
        problem.isVisible = false
        model.bookPlan(range) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let plan) where plan.ids.isEmpty:
                say(tr("No entries are in these days."))
            case .success(let plan):
                do throws(JournalError) {
                    let content = try BookContent(store: model.pageReader, plan: plan, range: range)
                    purpose == .print ? print(content) : choosePDF(content)
                } catch {
                    say(error.errorDescription ?? tr("The journal could not be read."))
                }
            case .failure(let error):
                say(error.errorDescription ?? tr("The journal could not be read."))
            }
        }
    }

    private func say(_ words: String) {
        problem.text = words
        problem.isVisible = true
        goButton.isSensitive = true
    }

    private func print(_ content: BookContent) {
        let operation = BookPrint(source: content, title: content.title)
        printing = operation
        operation.showDialog(over: window) { [weak self] outcome in self?.finished(outcome) }
    }

    private func choosePDF(_ content: BookContent) {
        FileChooser.ask(.save(suggestedName: SuggestedFileName.dated("Flourish journal", extension: "pdf")), title: tr("Export as PDF"),
                        from: window, accept: tr("_Export"), cancel: tr("_Cancel")) { [weak self] path in
            guard let self else { return }
            guard let path else {
                goButton.isSensitive = true
                return
            }
            // Written beside its name and renamed once whole, readable by its owner only, as every
            // export is: a failed PDF never replaces a file that was there.
            let file: AtomicFile
            do throws(ExportFailure) {
                file = try AtomicFile(path: path)
            } catch {
                return say(error.message)
            }
            let operation = BookPrint(source: content, title: content.title)
            printing = operation
            operation.export(to: file.partial, over: window) { [weak self] outcome in
                if outcome == .printed {
                    do throws(ExportFailure) {
                        try file.commit()
                    } catch {
                        file.abandon()
                        self?.finished(.failed(error.message))
                        return
                    }
                } else {
                    file.abandon()
                }
                self?.finished(outcome, path: path)
            }
        }
    }

    private func finished(_ outcome: BookPrint.Outcome, path: String? = nil) {
        printing = nil
        goButton.isSensitive = true
        switch outcome {
        case .printed:
            window.close()
            if let path { alerts.showMessage(title: tr("Journal Exported"), message: String(format: tr("The PDF is at %@."), path)) }
        case .cancelled:
            break
        case .failed(let reason):
            say(String(format: tr("The journal could not be printed: %@."), reason))
        }
    }
}
