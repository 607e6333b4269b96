import FlourishCore
import Foundation
import GtkKit

/// The year in pixels: a row a month, a square a day, in the colour of the day's average mood
/// (plain without entries). Each day is a button named for a screen reader ("Monday 3 March
/// 2025: okay, 3.0 on average, 1 entry"); the grid is one Tab stop, the arrow keys go from day
/// to day (up and down: the same day of the month before or after), and Enter or a click
/// shows that day's entries in the journal.
@MainActor
final class YearPixels {
    /// The grid with its month and day headings: what "Save as Image…" draws.
    let view = Box(.vertical, spacing: 0, groupNamed: tr("Year in pixels"))
    let grid = Grid(rowSpacing: 3, columnSpacing: 3)
    let roving: RovingFocus
    /// Every cell, a month a row, 31 a month; those past a month's end are hidden. Made when the
    /// grid is first shown: a window that never shows Insights never pays for 372 buttons.
    private(set) var cells: [[Button]] = []
    /// Each cell's mood, as last set: only what changes is set again (a period chosen on the
    /// same year changes nothing here).
    private var shown: [[Mood?]] = []
    /// Each cell shown as written with no mood (every entry of that day came without one).
    private var shownWithoutMood: [[Bool]] = []
    /// What each day says, by its place in `days`.
    private(set) var texts: [String] = []
    private(set) var year = 0
    /// The days of the year in order, as the roving focus counts them.
    private(set) var days: [Insights.Day] = []
    /// Enter or a click on a day.
    var onDayActivated: (@MainActor (Insights.Day) -> Void)?

    nonisolated static let monthNames: [String] = {
        let symbols: [String] = DateFormatter().shortStandaloneMonthSymbols
        return symbols.count == 12 ? symbols : ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    }()

    init() {
        view.addClass("chart")
        view.addClass("pixels-\(size)")
        // Its own sideways scroller: the grid's width never sets the page's, which sets the
        // chart's, which sets the squares' size (`fit`), so a window made narrow again shrinks it.
        let scroller = ScrolledWindow(grid)
        scroller.scrollSideways()
        view.append(scroller)
        roving = RovingFocus(container: grid)
        roving.name = { [unowned self] index in texts[index] }
        roving.move = { [unowned self] index, key in
            let day = days[index]
            switch key {
            case .left: return index - 1
            case .right: return index + 1
            case .up, .down:
                let month = day.month + (key == .up ? -1 : 1)
                guard (1...12).contains(month) else { return nil }
                let last = Insights.Day.length(ofMonth: month, in: year)
                return days.firstIndex(of: Insights.Day(year: year, month: month, day: min(day.day, last)))
            case .home: return 0
            case .end: return days.count - 1
            default: return nil
            }
        }
    }

    /// Makes the grid's cells a month at a time, one month each turn of the main loop, so the
    /// window never waits for them: called once the window is idle, so that Insights, when
    /// first shown, only colours its days. (Making 372 buttons took 60-80 ms.)
    func prepare(then done: @escaping @MainActor () -> Void) {
        guard cells.count < 12 else { return done() }
        makeMonth()
        MainLoop.after(milliseconds: 0) { [weak self] in self?.prepare(then: done) }
    }

    private func makeMonth() {
        if cells.isEmpty {
            for day in 1...31 {
                // The day numbers on top: every fifth, and the first, so the columns can be counted.
                let number = Label(day == 1 || day % 5 == 0 ? "\(day)" : "")
                number.addClass("chart-scale")
                grid.attach(number, column: day, row: 0)
            }
        }
        let month = cells.count + 1
        let name = Label(Self.monthNames[month - 1])
        name.addClass("chart-scale")
        name.align(horizontal: .end)
        grid.attach(name, column: 0, row: month)
        cells.append((1...31).map { day in
            let cell = Button(accessibleName: "")
            RovingFocus.prepare(cell)
            cell.addClass("pixel")
            cell.tooltipOnDemand { [unowned self] in
                days.firstIndex(of: Insights.Day(year: year, month: month, day: day)).map { texts[$0] }
            }
            cell.onClicked { [unowned self] in activate(Insights.Day(year: year, month: month, day: day)) }
            grid.attach(cell, column: day, row: month)
            return cell
        })
        shown.append(Array(repeating: nil, count: 31))
        shownWithoutMood.append(Array(repeating: false, count: 31))
    }

    /// Shows `year`, each day in the colour of its average in `averages` (by `Insights.Day.number`).
    /// Days in `withoutMood` were written with no mood: a square of their own, in no mood's colour.
    func show(year: Int, averages: [Int: MoodAverage], withoutMood: Set<Int> = [], today: Insights.Day) {
        while cells.count < 12 { makeMonth() }
        self.year = year
        var days: [Insights.Day] = []
        var buttons: [Button] = []
        texts = []
        for (month, row) in cells.enumerated() {
            let length = Insights.Day.length(ofMonth: month + 1, in: year)
            for (index, cell) in row.enumerated() {
                cell.isVisible = index < length
                guard index < length else { continue }
                let day = Insights.Day(year: year, month: month + 1, day: index + 1)
                let average = averages[day.number] ?? MoodAverage()
                Theme.replaceMoodClass(on: cell, shown[month][index], with: average.mood)
                shown[month][index] = average.mood
                let written = withoutMood.contains(day.number)
                if written != shownWithoutMood[month][index] {
                    if written { cell.addClass(Theme.noMoodClass) } else { cell.removeClass(Theme.noMoodClass) }
                    shownWithoutMood[month][index] = written
                }
                let name = MoodChart.name(of: day, step: .day)
                texts.append(written ? String(format: tr("%@: written, no mood"), name) : InsightsController.describe(name, average))
                days.append(day)
                buttons.append(cell)
            }
        }
        self.days = days
        // Tab reaches today, in this year; otherwise the year's first day.
        roving.use(buttons, current: days.firstIndex(of: today) ?? 0)
        view.setAccessibleDescription(String(format: tr("%@: %@ days with entries. The arrow keys go from day to day; Enter shows a day's entries in the journal."),
                                             "\(year)", "\(averages.count + withoutMood.count)"))
    }

    /// The squares' sizes, smallest first: the largest that fits the width is used.
    static let sizes = [14, 18, 22, 26]
    private(set) var size = sizes[0]

    /// Sizes the squares for a grid `width` wide: larger in a wider window.
    func fit(width: Int) {
        // The month names take about 40 px, the chart's padding 20, and each day 3 px of spacing.
        let fitting = Self.sizes.last { 31 * ($0 + 3) + 60 <= width } ?? Self.sizes[0]
        guard fitting != size else { return }
        view.removeClass("pixels-\(size)")
        size = fitting
        view.addClass("pixels-\(size)")
    }

    private func activate(_ day: Insights.Day) {
        if let index = days.firstIndex(of: day) { roving.select(index, focus: false) }
        onDayActivated?(day)
    }
}
