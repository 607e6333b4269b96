import FlourishCore
import Foundation
import GtkKit

/// The "Insights" page (Alt+3): a period to look at, then the figures of its entries in words a
/// screen reader reads as they are shown, with the mood counts as bars in the moods' colours:
/// how many entries of each mood, the average by weekday and by time of day, the tags that go
/// with better or worse days and the tags of each mood, and the streaks of days written.
/// Read again each time the page shows (entries are saved, edited and deleted on the others).
@MainActor
final class InsightsController {
    let view = ScrolledWindow()
    let periods: [(period: InsightsPeriod, button: ToggleButton)]
    /// One row per mood: its bar and "the best: 12 entries".
    let moodBars: [Box]
    let moodCounts: [Label]
    let weekdays: [Label]
    let timesOfDay: [Label]
    let tagsBox = Box(.vertical, spacing: 4)
    let streaks = Label()
    /// Said instead of the figures when the period has no entries, or they cannot be read.
    let summary = Label()

    private(set) var period: InsightsPeriod = .last30Days
    /// The figures shown, for tests.
    private(set) var insights: Insights?
    private let model: JournalModel
    /// Counts requests, so that only the latest answer is shown.
    private var generation = 0

    static let barWidth: Int32 = 240

    init(model: JournalModel) {
        self.model = model
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
        periods[0].button.isActive = true
        content.append(chooser)
        summary.addClass("empty-hint")
        summary.alignStart()
        summary.enableWrapping()
        content.append(summary)

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

        content.append(Self.heading(tr("By weekday")))
        weekdays = (0..<7).map { _ in Self.figure(in: content) }
        content.append(Self.heading(tr("By time of day")))
        timesOfDay = TimeOfDay.allCases.map { _ in Self.figure(in: content) }
        content.append(Self.heading(tr("Tags and moods")))
        content.append(tagsBox)
        content.append(Self.heading(tr("Streaks")))
        streaks.alignStart()
        content.append(streaks)

        for (period, button) in periods {
            button.onToggled { [unowned self, unowned button] in
                guard button.isActive else { return }
                self.period = period
                refresh()
            }
        }
        view.onMap { [unowned self] in refresh() }
    }

    private static func heading(_ text: String) -> Label {
        let label = Label(text)
        label.addClass("insights-heading")
        label.alignStart()
        return label
    }

    private static func figure(in box: Box) -> Label {
        let label = Label()
        label.alignStart()
        label.isSelectable = true
        box.append(label)
        return label
    }

    /// Reads the figures of the chosen period again, in the background.
    func refresh() {
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
    }

    private func show(_ insights: Insights) {
        self.insights = insights
        let total = insights.total
        summary.isVisible = total.count == 0
        summary.text = tr("No entries in this period yet.")

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
        let symbols = DateFormatter().standaloneWeekdaySymbols ?? []
        guard symbols.count == 7 else { return ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] }
        return Array(symbols[1...]) + [symbols[0]]
    }
}
