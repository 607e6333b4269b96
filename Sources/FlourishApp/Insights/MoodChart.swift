import FlourishCore
import Foundation
import GtkKit

/// Mood over time: each step's average mood (a day, or for long periods a week, month or year)
/// as a line, the best at the top, broken where a step has no entries. The points are buttons
/// in their mood's colour over the canvas that draws the line: hovering one shows its date and
/// mood, and the keyboard reaches them as one Tab stop, the arrow keys going from point to
/// point while a screen reader reads each ("Monday 3 March 2025: okay, 3.2 on average, 2 entries").
@MainActor
final class MoodChart {
    /// The chart with its scale and dates: what "Save as Image…" draws.
    let view = Box(.horizontal, spacing: 8, groupNamed: tr("Mood over time"))
    let canvas: Canvas
    let overlay: PlacingOverlay
    let roving: RovingFocus
    let firstDate = Label()
    let lastDate = Label()
    /// What the chart shows, for the line and for tests.
    private(set) var timeline = MoodTimeline(days: [], span: nil)
    /// The buttons of the steps with entries, with their steps' indexes.
    private(set) var points: [(index: Int, button: Button)] = []
    /// Every point button made so far, the first `points.count` of them shown, with what each
    /// says and its mood.
    private var pool: [Button] = []
    private var poolShown: [Mood?] = []
    /// What each shown point says, by its place in `points`.
    private(set) var texts: [String] = []

    static let height: Int32 = 180
    /// Beyond this many steps the points are drawn smaller.
    static let densePoints = 62
    /// Room around the plot, so that points at its edges are whole.
    static let inset = 9.0

    init() {
        canvas = Canvas()
        canvas.setSizeRequest(width: -1, height: Self.height)
        canvas.expand(horizontally: true)
        overlay = PlacingOverlay(child: canvas, inset: Self.inset)
        overlay.expand(horizontally: true)
        roving = RovingFocus(container: overlay)
        view.addClass("chart")

        // The scale: the best at the top, the worst at the bottom, in their colours.
        let scale = Box(.vertical)
        let best = Label(Mood.theBest.title), worst = Label(Mood.theWorst.title)
        best.addClass(Theme.moodClass(.theBest))
        worst.addClass(Theme.moodClass(.theWorst))
        let middle = Label()
        middle.expand(vertically: true)
        for label in [best, middle, worst] {
            label.addClass("chart-scale")
            label.align(horizontal: .end)
            scale.append(label)
        }
        best.align(horizontal: .end, vertical: .start)
        worst.align(horizontal: .end, vertical: .end)
        scale.setSizeRequest(width: -1, height: Self.height)
        scale.align(vertical: .start)
        view.append(scale)

        let plot = Box(.vertical, spacing: 2)
        plot.expand(horizontally: true)
        plot.append(overlay)
        let dates = Box(.horizontal)
        firstDate.alignStart()
        firstDate.expand(horizontally: true)
        lastDate.align(horizontal: .end)
        for label in [firstDate, lastDate] {
            label.addClass("chart-scale")
            dates.append(label)
        }
        plot.append(dates)
        view.append(plot)

        canvas.onDraw { [unowned self] painter, width, height in drawLines(painter, width: width, height: height) }
        roving.name = { [unowned self] index in texts[index] }
        roving.move = { [unowned self] index, key in
            switch key {
            case .left, .up: index - 1
            case .right, .down: index + 1
            case .home: 0
            case .end: points.count - 1
            default: nil
            }
        }
    }

    /// Shows `timeline`, keeping the keyboard on the chart if it was there.
    func show(_ timeline: MoodTimeline) {
        self.timeline = timeline
        if timeline.points.count > Self.densePoints { view.addClass("dense") } else { view.removeClass("dense") }
        let shown = timeline.points.enumerated().compactMap { index, point -> (index: Int, average: Double, mood: Mood, text: String)? in
            guard let average = point.mood.average, let mood = point.mood.mood else { return nil }
            return (index, average, mood, InsightsController.describe(Self.name(of: point.start, step: timeline.step), point.mood))
        }
        while pool.count < shown.count { makePoint() }
        for (offset, button) in pool.enumerated() {
            // Buttons are kept for the next period rather than made again: making and removing a
            // year's points cost more than 100 ms. Only what changed is set; a point is named
            // for a screen reader when the keyboard reaches it (see RovingFocus).
            guard offset < shown.count else {
                button.isVisible = false
                continue
            }
            let point = shown[offset]
            button.isVisible = true
            Theme.replaceMoodClass(on: button, poolShown[offset], with: point.mood)
            poolShown[offset] = point.mood
            let place = position(point.index, point.average)
            overlay.move(button, x: place.x, y: place.y)
        }
        points = shown.enumerated().map { ($0.element.index, pool[$0.offset]) }
        texts = shown.map(\.text)
        // Tab reaches the latest point.
        roving.use(points.map(\.button), current: points.isEmpty ? nil : points.count - 1)
        firstDate.text = timeline.points.first.map { Self.name(of: $0.start, step: timeline.step) } ?? ""
        lastDate.text = timeline.points.count > 1 ? timeline.points.last.map { Self.name(of: $0.start, step: timeline.step) } ?? "" : ""
        let withEntries = timeline.points.filter { $0.mood.count > 0 }.count
        view.setAccessibleDescription(String(format: tr("%@ of %@ with entries. The arrow keys go from point to point."),
                                             "\(withEntries)", Self.steps(timeline.points.count, timeline.step)))
        canvas.redraw()
    }

    /// Makes the points a long period needs, some each turn of the main loop while the window
    /// is idle, so that choosing "All" only moves and colours them. (Making 220 took 40-50 ms.)
    func prepare(then done: @escaping @MainActor () -> Void) {
        guard pool.count < Self.mostPoints else { return done() }
        for _ in 0..<min(50, Self.mostPoints - pool.count) { makePoint() }
        MainLoop.after(milliseconds: 0) { [weak self] in self?.prepare(then: done) }
    }

    /// The most points a timeline has: a step more than `MoodTimeline.mostPoints` when weeks
    /// start before the period does.
    static let mostPoints = MoodTimeline.mostPoints + 1

    private func makePoint() {
        let offset = pool.count
        let button = Button(accessibleName: "")
        RovingFocus.prepare(button)
        button.addClass("chart-point")
        button.tooltipOnDemand { [unowned self] in texts.indices.contains(offset) ? texts[offset] : nil }
        button.onClicked { [unowned self] in roving.select(offset, focus: true) }
        button.isVisible = false
        overlay.place(button, x: 0, y: 0)
        pool.append(button)
        poolShown.append(nil)
    }

    /// Where step `index` with average `average` goes, as fractions of the plot.
    func position(_ index: Int, _ average: Double) -> (x: Double, y: Double) {
        let count = timeline.points.count
        return (count > 1 ? Double(index) / Double(count - 1) : 0.5, (5 - average) / 5)
    }

    /// Six faint guides, one a mood, and the line between neighbouring steps with entries.
    private func drawLines(_ painter: Painter, width: Double, height: Double) {
        let ink = canvas.foreground
        painter.setColor(red: ink.red, green: ink.green, blue: ink.blue, alpha: 0.14)
        painter.setLineWidth(1)
        for level in 0...5 {
            let y = overlay.point(x: 0, y: Double(level) / 5, width: width, height: height).y.rounded() + 0.5
            painter.move(to: Self.inset, y)
            painter.line(to: width - Self.inset, y)
        }
        painter.stroke()
        painter.setColor(red: ink.red, green: ink.green, blue: ink.blue, alpha: 0.55)
        painter.setLineWidth(2)
        for (previous, next) in zip(points, points.dropFirst()) where next.index == previous.index + 1 {
            let from = place(previous.index, width, height), to = place(next.index, width, height)
            painter.move(to: from.x, from.y)
            painter.line(to: to.x, to.y)
        }
        painter.stroke()
    }

    private func place(_ index: Int, _ width: Double, _ height: Double) -> (x: Double, y: Double) {
        let fraction = position(index, timeline.points[index].mood.average ?? 0)
        return overlay.point(x: fraction.x, y: fraction.y, width: width, height: height)
    }

    /// "Monday 3 March 2025", "Week of 3 March 2025", "March 2025" or "2025".
    static func name(of day: Insights.Day, step: MoodTimeline.Step) -> String {
        guard let date = day.start() else { return "" }
        switch step {
        case .day: return dayFormatter.string(from: date)
        case .week: return String(format: tr("Week of %@"), shortFormatter.string(from: date))
        case .month: return monthFormatter.string(from: date)
        case .year: return "\(day.year)"
        }
    }

    /// "30 days", "52 weeks", "120 months", "220 years".
    static func steps(_ count: Int, _ step: MoodTimeline.Step) -> String {
        switch step {
        case .day: count == 1 ? tr("1 day") : String(format: tr("%@ days"), "\(count)")
        case .week: count == 1 ? tr("1 week") : String(format: tr("%@ weeks"), "\(count)")
        case .month: count == 1 ? tr("1 month") : String(format: tr("%@ months"), "\(count)")
        case .year: count == 1 ? tr("1 year") : String(format: tr("%@ years"), "\(count)")
        }
    }

    private static func formatter(_ template: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter
    }

    static let dayFormatter = formatter("EEEEdMMMMy")
    static let shortFormatter = formatter("dMMMMy")
    static let monthFormatter = formatter("MMMMy")
}
