import FlourishCore
import Foundation
import GtkKit

/// The Insights page's measures: for each, its values over the period (a line, day by day,
/// with its average and range said in words) and "mood by measure", a bar a step or band in
/// the colour of its average mood, each saying its figures ("6 to 7.5 hours: feeling okay, 2.9
/// on average, 12 entries"), so that a screen reader reads them all. Absent without measures.
@MainActor
final class MeasureFigures {
    let view = Box(.vertical, spacing: 6, groupNamed: tr("Measures"))
    /// One part per measure, in the journal's order, made again for each period shown.
    private(set) var parts: [Part] = []

    /// One measure's figures.
    @MainActor
    final class Part {
        let insight: MeasureInsight
        let view: Box
        /// "7.2 hours on average, from 4 to 10 hours, 64 entries".
        let summary = Label()
        /// The values day by day.
        let line = Canvas()
        /// Each step's or band's words, lowest first.
        let bands: [Label]

        init(_ insight: MeasureInsight) {
            self.insight = insight
            let measure = insight.measure
            view = Box(.vertical, spacing: 4, groupNamed: measure.name)
            let heading = Label(measure.name)
            heading.addClass("insights-subheading")
            heading.alignStart()
            view.append(heading)
            summary.text = Self.summary(insight)
            summary.alignStart()
            summary.enableWrapping()
            view.append(summary)
            if insight.days.count > 1 {
                line.setSizeRequest(width: -1, height: 60)
                line.expand(horizontally: true)
                line.setAccessibleLabel(String(format: tr("%@ over time: %@"), measure.name, Self.summary(insight)))
                let days = insight.days, low = insight.lowest ?? 0, high = insight.highest ?? 0
                line.onDraw { [unowned line] painter, width, height in
                    Self.draw(days, low: low, high: high, painter: painter, ink: line.foreground, width: width, height: height)
                }
                view.append(line)
            }
            var labels: [Label] = []
            if insight.count > 0 {
                let caption = Label(String(format: tr("Mood by %@"), measure.name))
                caption.addClass("dim-label")
                caption.alignStart()
                view.append(caption)
                for band in insight.bands {
                    let row = Box(.horizontal, spacing: 8)
                    let bar = Box(.horizontal)
                    bar.addClass("insight-bar")
                    bar.align(vertical: .center)
                    let words = Label(InsightsController.describe(Self.name(of: band, in: measure), band.mood))
                    words.alignStart()
                    if let mood = band.mood.mood, let average = band.mood.average {
                        bar.addClass(Theme.moodClass(mood))
                        // The better the mood, the longer the bar (the worst is still a sliver).
                        bar.setSizeRequest(width: max(4, Int32(Double(InsightsController.barWidth) * average / 5)), height: 14)
                    } else {
                        bar.setSizeRequest(width: 4, height: 14)
                        words.addClass("dim-label")
                    }
                    row.append(bar)
                    row.append(words)
                    view.append(row)
                    labels.append(words)
                }
            }
            bands = labels
            view.setMargins(top: 4, bottom: 8)
        }

        /// "7.2 hours on average, from 4 to 10 hours, on 64 entries", or that there are none.
        static func summary(_ insight: MeasureInsight) -> String {
            guard let average = insight.average, let low = insight.lowest, let high = insight.highest else {
                return tr("No values in this period.")
            }
            let measure = insight.measure
            return String(format: tr("%@ on average, from %@ to %@, on %@"), measure.spoken(round(average * 10) / 10),
                          measure.spoken(low), measure.spoken(high), EntryCount.words(insight.count))
        }

        /// "3 of 5", "7 hours", "6 to 7.5 hours".
        static func name(of band: MeasureInsight.Band, in measure: Measure) -> String {
            guard band.lower != band.upper else { return measure.spoken(band.lower) }
            let range = String(format: tr("%@ to %@"), MeasureValues.number(band.lower), MeasureValues.number(band.upper))
            return measure.unit.isEmpty ? range : "\(range) \(measure.unit)"
        }

        /// Faint guides at the lowest and highest values, and the line through the days' values,
        /// placed by their day across the period.
        static func draw(_ days: [MeasureInsight.DayValue], low: Double, high: Double, painter: Painter,
                         ink: (red: Double, green: Double, blue: Double), width: Double, height: Double) {
            guard let first = days.first?.day, let last = days.last?.day else { return }
            let inset = 4.0
            let span = Double(max(1, last - first)), range = max(high - low, 1e-9)
            func point(_ value: MeasureInsight.DayValue) -> (Double, Double) {
                (inset + (width - 2 * inset) * Double(value.day - first) / span,
                 inset + (height - 2 * inset) * (1 - (value.value - low) / range))
            }
            painter.setColor(red: ink.red, green: ink.green, blue: ink.blue, alpha: 0.14)
            painter.setLineWidth(1)
            for y in [inset + 0.5, height - inset - 0.5] {
                painter.move(to: inset, y)
                painter.line(to: width - inset, y)
            }
            painter.stroke()
            painter.setColor(red: ink.red, green: ink.green, blue: ink.blue, alpha: 0.6)
            painter.setLineWidth(2)
            let start = point(days[0])
            painter.move(to: start.0, start.1)
            for day in days.dropFirst() {
                let next = point(day)
                painter.line(to: next.0, next.1)
            }
            painter.stroke()
        }
    }

    /// Says that the measures could not be read, where they would be.
    func show(failure message: String) {
        show([])
        let label = Label(message)
        label.alignStart()
        label.enableWrapping()
        view.append(label)
        view.isVisible = true
    }

    /// Shows the period's measures (none: the section is not shown).
    func show(_ measures: [MeasureInsight]) {
        view.removeAll()
        let heading = Label(tr("Measures"))
        heading.addClass("insights-heading")
        heading.alignStart()
        view.append(heading)
        parts = measures.map(Part.init)
        for part in parts { view.append(part.view) }
        view.isVisible = !measures.isEmpty
    }
}
