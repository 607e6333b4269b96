import FlourishCore
import Foundation
import GtkKit

/// Insights' "Words written": the period's total, then a line a month, newest first, with a bar
/// as long as its share of the busiest month and its count in words, as a screen reader reads it
/// ("March 2026: 1,204 words").
@MainActor
final class WordFigures {
    let view = Box(.vertical, spacing: 4, groupNamed: tr("Words written"))
    let total = Label()
    private let rows = Box(.vertical, spacing: 2)
    /// The lines shown, newest month first, for tests.
    private(set) var lines: [Label] = []

    init(heading: Widget) {
        view.append(heading)
        total.alignStart()
        view.append(total)
        view.append(rows)
    }

    func show(_ months: [MonthWords]) {
        rows.removeAll()
        let sum = months.reduce(0) { $0 + $1.words }
        total.text = sum == 0 ? tr("No words written in this period yet.")
            : String(format: tr("%@ in this period"), WordCount.phrase(sum))
        let most = max(1, months.map(\.words).max() ?? 1)
        let formatter = DateFormatter()
        formatter.setLocalizedDateFormatFromTemplate("MMMM yyyy")
        lines = months.reversed().compactMap { month in
            guard let date = Calendar.current.date(from: DateComponents(year: month.year, month: month.month, day: 1)) else { return nil }
            let row = Box(.horizontal, spacing: 8)
            let bar = Box(.horizontal)
            bar.addClass("insight-bar")
            bar.addClass("words-bar")
            bar.align(vertical: .center)
            bar.setSizeRequest(width: Int32(max(2, Int(InsightsController.barWidth) * month.words / most)), height: 14)
            let line = Label(String(format: tr("%@: %@"), formatter.string(from: date), WordCount.phrase(month.words)))
            row.append(bar)
            row.append(line)
            rows.append(row)
            return line
        }
    }

    func show(failure: String) {
        rows.removeAll()
        lines = []
        total.text = failure
    }
}
