import FlourishCore
import Foundation
import GtkKit

/// The "Insights" page (Alt+3): a period to look at (or a year), then its mood over time as a
/// chart, the year in pixels, and the figures of its entries in words a screen reader reads as
/// they are shown, with the mood counts as bars in the moods' colours: how many entries of each
/// mood, the average by weekday and by time of day, the tags that go with better or worse days
/// and the tags of each mood, and the streaks of days written. Each chart can be saved as a PNG.
/// Read again each time the page shows (entries are saved, edited and deleted on the others).
@MainActor
final class InsightsController {
    let view = ScrolledWindow()
    let periods: [(period: InsightsPeriod, button: ToggleButton)]
    /// "Year", beside the periods, and which year.
    let yearButton = ToggleButton(tr("Year"))
    let yearChoice = DropDown(accessibleName: tr("Year"))
    let chart = MoodChart()
    let pixels = YearPixels()
    let pixelsHeading = Label()
    let saveChart = Button(tr("Save as Image…"))
    let savePixels = Button(tr("Save as Image…"))
    /// A day of the year in pixels was activated: show its entries.
    var onShowDay: (@MainActor (Date) -> Void)?
    /// One row per mood: its bar and "the best: 12 entries".
    let moodBars: [Box]
    let moodCounts: [Label]
    let weekdays: [Label]
    let timesOfDay: [Label]
    let tagsBox = Box(.vertical, spacing: 4)
    /// Each measure over the period, and the mood by its steps or bands.
    let measureFigures = MeasureFigures()
    /// The words written in each month of the period.
    let wordFigures = WordFigures(heading: InsightsController.heading(tr("Words written")))
    let streaks = Label()
    /// Said instead of the figures when the period has no entries, or they cannot be read.
    let summary = Label()
    /// "42 entries without a mood", under the mood count: entries that came without one are
    /// counted apart, out of every average and chart. Hidden when there are none.
    let withoutMood = Label()

    /// The period chosen: one of `periods`, or the year chosen beside "Year".
    var period: InsightsPeriod {
        if yearButton.isActive, let index = yearChoice.selected, shownYears.indices.contains(index) { return .year(shownYears[index]) }
        return periods.first { $0.button.isActive }?.period ?? .last30Days
    }
    /// The years in `yearChoice`, newest first.
    private(set) var shownYears: [Int] = []
    private var fillingYears = false
    /// The figures shown, for tests.
    private(set) var insights: Insights?
    private let model: JournalModel
    private let alerts: Alerts
    /// Counts requests, so that only the latest answer is shown.
    private var generation = 0

    static let barWidth: Int32 = 240

    init(model: JournalModel, alerts: Alerts) {
        self.model = model
        self.alerts = alerts
        let content = Box(.vertical, spacing: 8)
        content.addClass("insights")
        view.setChild(content)
        view.expand(horizontally: true, vertically: true)

        let chooser = Box(.horizontal, spacing: 0, groupNamed: tr("Period"))
        chooser.addClass("linked")
        periods = [(InsightsPeriod.last30Days, tr("Last 30 days")), (.last12Months, tr("Last 12 months")), (.all, tr("All"))].map { period, title in
            let button = ToggleButton(title)
            chooser.append(button)
            return (period, button)
        }
        for (_, button) in periods.dropFirst() { button.join(periods[0].button) }
        yearButton.join(periods[0].button)
        chooser.append(yearButton)
        periods[0].button.isActive = true
        let choosing = Box(.horizontal, spacing: 6)
        choosing.append(chooser)
        choosing.append(yearChoice)
        content.append(choosing)
        summary.addClass("empty-hint")
        summary.alignStart()
        summary.enableWrapping()
        content.append(summary)

        content.append(Self.heading(tr("Mood over time"), saving: saveChart))
        content.append(chart.view)
        content.append(Self.heading(pixelsHeading, saving: savePixels))
        content.append(pixels.view)
        saveChart.accessibleName = tr("Save mood over time as an image")
        savePixels.accessibleName = tr("Save the year in pixels as an image")

        content.append(Self.heading(tr("Mood count")))
        var bars: [Box] = [], counts: [Label] = []
        for mood in Mood.catalogue {
            let row = Box(.horizontal, spacing: 8)
            let bar = Box(.horizontal)
            bar.addClass("insight-bar")
            bar.addClass(Theme.moodClass(mood))
            bar.align(vertical: .center)
            let count = Label()
            count.addClass(Theme.moodClass(mood))
            row.append(bar)
            row.append(count)
            content.append(row)
            bars.append(bar)
            counts.append(count)
        }
        moodBars = bars
        moodCounts = counts
        withoutMood.alignStart()
        withoutMood.addClass(Theme.noMoodClass)
        content.append(withoutMood)

        content.append(Self.heading(tr("By weekday")))
        weekdays = (0..<7).map { _ in Self.figure(in: content) }
        content.append(Self.heading(tr("By time of day")))
        timesOfDay = TimeOfDay.allCases.map { _ in Self.figure(in: content) }
        content.append(Self.heading(tr("Tags and moods")))
        content.append(tagsBox)
        content.append(measureFigures.view)
        measureFigures.view.isVisible = false
        content.append(wordFigures.view)
        content.append(Self.heading(tr("Streaks")))
        streaks.alignStart()
        content.append(streaks)

        saveChart.onClicked { [unowned self] in askToSave(chart.view, name: tr("Mood over time")) }
        savePixels.onClicked { [unowned self] in askToSave(pixels.view, name: String(format: tr("Year in pixels %@"), "\(pixels.year)")) }
        pixels.onDayActivated = { [unowned self] day in
            if let date = day.start() { onShowDay?(date) }
        }
        // The year's squares grow with the window, as the chart above does: sized once the
        // layout that resized the chart is done.
        chart.canvas.onResize { [unowned self] _, _ in
            MainLoop.after(milliseconds: 0) { [weak self] in
                guard let self else { return }
                pixels.fit(width: Int(chart.view.allocatedWidth))
            }
        }
        for button in periods.map(\.button) + [yearButton] {
            button.onToggled { [unowned self, unowned button] in
                if button.isActive { refresh() }
            }
        }
        yearChoice.onSelected { [unowned self] in
            guard !fillingYears else { return }
            // Choosing a year looks at it.
            if yearButton.isActive { refresh() } else { yearButton.isActive = true }
        }
        view.onMap { [unowned self] in refresh() }
    }

    static func heading(_ text: String) -> Label {
        let label = Label(text)
        label.addClass("insights-heading")
        label.alignStart()
        return label
    }

    /// A heading with its chart's "Save as Image…" at the end of its line.
    private static func heading(_ title: String, saving: Button) -> Box {
        heading(Label(title), saving: saving)
    }

    private static func heading(_ label: Label, saving: Button) -> Box {
        let line = Box(.horizontal, spacing: 8)
        label.addClass("insights-heading")
        label.alignStart()
        label.expand(horizontally: true)
        line.append(label)
        saving.addClass("flat")
        saving.align(vertical: .end)
        line.append(saving)
        return line
    }

    /// The years to choose from, newest first, keeping the one chosen if it is still there.
    private func showYears(_ years: [Int]) {
        guard years != shownYears else { return }
        let chosen = yearChoice.selected.flatMap { shownYears.indices.contains($0) ? shownYears[$0] : nil }
        fillingYears = true
        shownYears = years
        yearChoice.items = years.map { "\($0)" }
        yearChoice.selected = chosen.flatMap { years.firstIndex(of: $0) } ?? 0
        fillingYears = false
    }

    /// Asks where to save `chart` as a PNG, then writes it there; a failure says why and offers Retry.
    private func askToSave(_ chart: Widget, name: String) {
        FileChooser.ask(.save(suggestedName: SuggestedFileName.dated(name, extension: "png")), title: tr("Save as Image"), from: view, accept: tr("_Save"), cancel: tr("_Cancel")) { [weak self] path in
            guard let path else { return }
            self?.save(chart, to: path)
        }
    }

    func save(_ chart: Widget, to path: String) {
        do {
            try chart.savePNG(to: path)
        } catch {
            alerts.showError(String(format: tr("The image could not be saved to %@: %@."), path, error.message),
                             retry: { [weak self] in self?.save(chart, to: path) })
        }
    }

    private static func figure(in box: Box) -> Label {
        let label = Label()
        label.alignStart()
        label.isSelectable = true
        box.append(label)
        return label
    }

    /// The keyboard starts on the period chosen, the page's first control; Tab goes on to the
    /// charts.
    func focusPeriod() {
        let chosen = periods.map(\.button).first { $0.isActive } ?? yearButton
        chosen.grabFocus()
    }

    /// Makes the page ready while the window is idle: the year grid's cells a month at a time,
    /// then the figures, read in the background and laid out while the page is hidden. Showing
    /// the page reads them again, and sets only what changed meanwhile.
    func prepare() {
        pixels.prepare { [weak self] in
            self?.chart.prepare { [weak self] in
                guard let self, insights == nil else { return }
                refresh()
                // The longer periods too, in the background: the store keeps their figures until
                // the journal changes, so choosing one shows it without reading 100,000 entries.
                for period in [InsightsPeriod.all, .last12Months] { model.insights(for: period) { _ in } }
            }
        }
    }

    /// Reads the figures of the chosen period again, in the background.
    func refresh() {
        Trace.mark("insights asked")
        // This year alone until the figures say which years the journal holds. Not at start-up:
        // the first look at the calendar loads its rules, and the window's first frame does not
        // need them.
        if shownYears.isEmpty { showYears([Foundation.Calendar.current.component(.year, from: Date())]) }
        generation += 1
        let asked = generation
        model.insights(for: period) { [weak self] result in
            guard let self, asked == generation else { return }
            switch result {
            case .success(let insights): show(insights)
            case .failure(let error):
                summary.text = error.errorDescription ?? tr("The figures could not be read.")
                summary.isVisible = true
            }
        }
        // The measures after the rest: the page's first figures do not wait for them.
        model.measureInsights(for: period) { [weak self] result in
            guard let self, asked == generation else { return }
            switch result {
            case .success(let measures): measureFigures.show(measures)
            case .failure(let error): measureFigures.show(failure: error.errorDescription ?? tr("The measures could not be read."))
            }
        }
        model.wordsByMonth(for: period) { [weak self] result in
            guard let self, asked == generation else { return }
            switch result {
            case .success(let months): wordFigures.show(months)
            case .failure(let error): wordFigures.show(failure: error.errorDescription ?? tr("The words could not be counted."))
            }
        }
    }

    private func show(_ insights: Insights) {
        self.insights = insights
        let total = insights.total
        summary.isVisible = total.count == 0 && insights.withoutMood == 0
        withoutMood.isVisible = insights.withoutMood > 0
        withoutMood.text = insights.withoutMood == 1 ? tr("1 entry without a mood")
            : String(format: tr("%@ entries without a mood"), insights.withoutMood.formatted())
        summary.text = tr("No entries in this period yet.")

        chart.show(MoodTimeline(days: insights.days, span: insights.span))
        let today = Insights.Day(Date())
        pixels.show(year: insights.pixelYear, averages: insights.pixelDays, withoutMood: insights.pixelDaysWithoutMood, today: today)
        pixelsHeading.text = String(format: tr("Year in pixels: %@"), "\(insights.pixelYear)")
        let thisYear = today.year
        showYears(insights.years.map { Array(($0.lowerBound...max($0.upperBound, thisYear)).reversed()) } ?? [thisYear])

        let most = max(1, insights.moodCounts.max() ?? 1)
        for (mood, count) in zip(Mood.catalogue, insights.moodCounts) {
            moodBars[mood.rawValue].setSizeRequest(width: max(2, Self.barWidth * Int32(count) / Int32(most)), height: 14)
            moodCounts[mood.rawValue].text = String(format: tr("%@: %@"), mood.title, EntryCount.words(count))
        }
        let weekdayNames = Self.weekdayNames
        for (index, average) in insights.weekdays.enumerated() {
            weekdays[index].text = Self.describe(weekdayNames[index], average)
        }
        let times = [tr("Morning"), tr("Afternoon"), tr("Evening"), tr("Night")]
        for (index, average) in insights.timesOfDay.enumerated() {
            timesOfDay[index].text = Self.describe(times[index], average)
        }

        tagsBox.removeAll()
        for tagMood in insights.tags {
            guard let difference = tagMood.difference else { continue }
            let words = abs(difference) < 0.05 ? tr("as usual")
                : difference > 0 ? String(format: tr("better than usual (+%@)"), Self.number(difference))
                : String(format: tr("worse than usual (−%@)"), Self.number(-difference))
            let label = Label(String(format: tr("%@: %@, on %@"), tagMood.tag.name, words, EntryCount.words(tagMood.with.count)))
            label.alignStart()
            tagsBox.append(label)
        }
        for (mood, tags) in zip(Mood.catalogue, insights.tagsByMood) where !tags.isEmpty {
            let label = Label(String(format: tr("Feeling %@: %@"), mood.title,
                                     tags.map { String(format: tr("%@ (%@)"), $0.tag.name, "\($0.count)") }.joined(separator: ", ")))
            label.addClass(Theme.moodClass(mood))
            label.alignStart()
            tagsBox.append(label)
        }
        if insights.tags.isEmpty && insights.tagsByMood.allSatisfy(\.isEmpty) {
            let label = Label(tr("Tag your entries to see what goes with your good days."))
            label.addClass("empty-hint")
            label.alignStart()
            tagsBox.append(label)
        }
        streaks.text = String(format: tr("Current streak: %@ · Longest: %@"), Self.days(insights.streaks.current),
                              Self.days(insights.streaks.longest))
        view.afterNextPaint { Trace.mark("insights shown") }
    }

    /// "Monday: okay, 3.2 on average, 14 entries", or "Monday: no entries".
    static func describe(_ name: String, _ average: MoodAverage) -> String {
        guard let value = average.average, let mood = average.mood else { return String(format: tr("%@: no entries"), name) }
        return String(format: tr("%@: %@, %@ on average, %@"), name, mood.title, number(value), EntryCount.words(average.count))
    }

    static func days(_ count: Int) -> String {
        count == 1 ? tr("1 day") : String(format: tr("%@ days"), "\(count)")
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The weekdays' names in the person's language, Monday first.
    static var weekdayNames: [String] {
        let symbols: [String] = DateFormatter().standaloneWeekdaySymbols
        guard symbols.count == 7 else { return ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] }
        return Array(symbols[1...]) + [symbols[0]]
    }
}
