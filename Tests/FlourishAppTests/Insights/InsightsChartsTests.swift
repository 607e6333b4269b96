@testable import FlourishApp
import FlourishCore
import FlourishTestSupport
import Foundation
import GtkKit
import XCTest

/// The Insights page's charts in a real window, drawn and checked pixel by pixel: the mood over
/// time (points in the moods' colours, a line between neighbouring days, gaps where none were
/// written), the year in pixels (a day of "the best" is #8647b7), light and dark, the keyboard's
/// way through both, a day opening its entries in the journal, the chosen year, and the images
/// saved.
final class InsightsChartsTests: XCTestCase {
    /// Noon, `days` days before today: clear of midnight and clock changes.
    private func noon(daysAgo days: Int) -> Date {
        let calendar = Foundation.Calendar.current
        return calendar.date(byAdding: .hour, value: 12, to: calendar.date(byAdding: .day, value: -days, to: calendar.startOfDay(for: Date()))!)!
    }

    @MainActor
    private func save(_ harness: Harness, _ mood: Mood, daysAgo days: Int) throws {
        _ = try harness.journal.save(try EntryDraft(title: "\(mood.title) \(days)", mood: mood).validated().get(), createdAt: noon(daysAgo: days))
    }

    private func today(daysAgo days: Int = 0) -> Insights.Day {
        let parts = Foundation.Calendar.current.dateComponents([.year, .month, .day], from: noon(daysAgo: days))
        return Insights.Day(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    /// Reads the journal's ids now (the entries were written to the file by the test).
    @MainActor
    private func load(_ harness: Harness) {
        harness.model.load()
        harness.waitUntil("the journal is read") { harness.model.isLoaded && harness.model.count > 0 }
    }

    /// Shows Insights and waits for its figures and its laid-out charts.
    @MainActor
    private func showInsights(_ harness: Harness) -> InsightsController {
        let page = harness.main.insights
        harness.main.show(.insights)
        harness.waitUntil("the figures are shown and the charts laid out") {
            page.insights != nil && page.chart.canvas.allocatedWidth > 100 && page.pixels.cells.count == 12
                && page.pixels.cells[0][0].allocatedWidth > 0
        }
        return page
    }

    /// The colour at the centre of `widget`, drawn as part of `chart`.
    @MainActor
    private func centre(of widget: Widget, in chart: Widget, image: RenderedImage) throws -> String? {
        let bounds = try XCTUnwrap(widget.bounds(in: chart))
        return image.hex(x: Int(bounds.x + bounds.width / 2), y: Int(bounds.y + bounds.height / 2))
    }

    func testTheMoodChartDrawsEachDaysAverageAsAPointOnALineBrokenWhereNoneWasWritten() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            // 4.5 on average six, four and three days ago (none five days ago); the worst today.
            for days in [6, 4, 3] {
                try save(harness, .theBest, daysAgo: days)
                try save(harness, .reallyGood, daysAgo: days)
            }
            try save(harness, .theWorst, daysAgo: 0)
            let page = showInsights(harness)
            let chart = page.chart
            XCTAssertEqual(chart.timeline.step, .day)
            XCTAssertEqual(chart.timeline.points.count, 30)
            XCTAssertEqual(chart.points.map(\.index), [23, 25, 26, 29])
            XCTAssertEqual(chart.texts.last, MoodChart.name(of: today(), step: .day) + ": the worst, 0.0 on average, 1 entry")
            XCTAssertTrue(chart.texts[0].hasSuffix(": the best, 4.5 on average, 2 entries"), chart.texts[0])
            XCTAssertTrue(chart.texts[0].contains("\(today(daysAgo: 6).day)"), chart.texts[0])

            harness.waitUntil("the chart is painted") { chart.view.render() != nil }
            let image = try XCTUnwrap(chart.view.render())
            for (point, mood) in zip(chart.points, [Mood.theBest, .theBest, .theBest, .theWorst]) {
                XCTAssertEqual(try centre(of: point.button, in: chart.view, image: image), mood.hex, "point \(point.index)")
            }
            // The plot's own coordinates, inside the chart image.
            let canvas = try XCTUnwrap(chart.canvas.bounds(in: chart.view))
            let at = { (index: Double, score: Double) -> String? in
                let fraction = (x: index / 29, y: (5 - score) / 5)
                let point = chart.overlay.point(x: fraction.x, y: fraction.y, width: canvas.width, height: canvas.height)
                return image.hex(x: Int(canvas.x + point.x), y: Int(canvas.y + point.y))
            }
            let background = try XCTUnwrap(at(10, 2.5), "between two guides, far from any point")
            XCTAssertNotEqual(at(25.5, 4.5), background, "a line joins four and three days ago")
            XCTAssertEqual(at(24, 4.5), background, "no line across five days ago, when nothing was written")
            XCTAssertEqual(at(27.5, 4.5), background, "nor after three days ago")
            XCTAssertEqual(chart.firstDate.text, MoodChart.name(of: today(daysAgo: 29), step: .day))
            XCTAssertEqual(chart.lastDate.text, MoodChart.name(of: today(), step: .day))

            // One Tab stop: only the latest point takes the keyboard, and a screen reader is told
            // of it alone, by its name; the arrow keys go from point to point.
            XCTAssertEqual(chart.points.filter { $0.button.isFocusable }.map(\.index), [29])
            XCTAssertEqual(chart.points.last?.button.accessibleName, chart.texts.last)
            XCTAssertEqual(chart.roving.move?(3, .left), 2)
            XCTAssertEqual(chart.roving.move?(3, .home), 0)
            chart.roving.select(0, focus: true)
            XCTAssertTrue(chart.points[0].button.hasFocus)
            XCTAssertEqual(chart.points[0].button.accessibleName, chart.texts[0])
            XCTAssertEqual(chart.points.filter { $0.button.isFocusable }.map(\.index), [23])
        }
    }

    func testLongPeriodsArePlottedByWeekMonthOrYear() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            try save(harness, .okay, daysAgo: 0)
            try save(harness, .meh, daysAgo: 3 * 365)
            let page = showInsights(harness)
            page.periods[2].button.click() // All: three years, by week
            harness.waitUntil("everything is plotted") { page.insights?.total.count == 2 }
            XCTAssertEqual(page.chart.timeline.step, .week)
            XCTAssertEqual(page.chart.points.count, 2)
            XCTAssertTrue(page.chart.texts[0].hasPrefix("Week of "), page.chart.texts[0])
            XCTAssertTrue(page.chart.view.hasClass("dense"), "smaller points for 150 weeks")
            page.periods[0].button.click()
            harness.waitUntil("the last 30 days again") { page.insights?.total.count == 1 }
            XCTAssertEqual(page.chart.points.count, 1, "the points of All are put away")
            XCTAssertFalse(page.chart.view.hasClass("dense"))
        }
    }

    func testTheYearInPixelsColoursEachDayAndOpensItsEntries() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness(load: false)
            defer {
                FlourishApplication.follow(.preferLight)
                harness.close()
            }
            try save(harness, .theBest, daysAgo: 0)
            try save(harness, .theBest, daysAgo: 0)
            // Two days ago, in this year, or this year's first day when that was last year.
            let earlier = today(daysAgo: 2).year == today().year ? 2 : 0
            try save(harness, .notSoGreat, daysAgo: earlier)
            load(harness)
            let page = showInsights(harness)
            let pixels = page.pixels
            let day = today()
            XCTAssertEqual(pixels.year, day.year)
            XCTAssertEqual(page.pixelsHeading.text, "Year in pixels: \(day.year)")
            let cell = pixels.cells[day.month - 1][day.day - 1]
            XCTAssertEqual(pixels.cells[1].filter(\.isVisible).count, Insights.Day.length(ofMonth: 2, in: day.year), "February")
            XCTAssertEqual(pixels.cells.joined().filter(\.isVisible).count, day.year % 4 == 0 ? 366 : 365)

            harness.waitUntil("the grid is painted") { pixels.view.render() != nil }
            var image = try XCTUnwrap(pixels.view.render())
            let plain = try XCTUnwrap(try centre(of: pixels.cells[day.month % 12][27], in: pixels.view, image: image))
            let lightBackground = try XCTUnwrap(image.hex(x: 2, y: 2))
            if earlier == 2 {
                XCTAssertEqual(try centre(of: cell, in: pixels.view, image: image), "#8647b7", "a day of the best, on light")
                let other = today(daysAgo: 2)
                XCTAssertEqual(try centre(of: pixels.cells[other.month - 1][other.day - 1], in: pixels.view, image: image), Mood.notSoGreat.hex)
            }
            XCTAssertFalse(Mood.catalogue.map(\.hex).contains(plain), "a day without entries is plain")
            XCTAssertEqual(pixels.roving.current.map { pixels.days[$0] }, day, "Tab reaches today")
            XCTAssertEqual(cell.accessibleName, MoodChart.name(of: day, step: .day) + (earlier == 2 ? ": the best, 5.0 on average, 2 entries" : ": okay, 3.3 on average, 3 entries"))

            // Arrow keys: a day along, or the same day a month up or down (the month's last
            // when it is shorter).
            let march31 = try XCTUnwrap(pixels.days.firstIndex(of: Insights.Day(year: day.year, month: 3, day: 31)))
            XCTAssertEqual(pixels.roving.move?(march31, .up).map { pixels.days[$0] }, Insights.Day(year: day.year, month: 2, day: Insights.Day.length(ofMonth: 2, in: day.year)))
            XCTAssertEqual(pixels.roving.move?(march31, .right).map { pixels.days[$0] }, Insights.Day(year: day.year, month: 4, day: 1))
            XCTAssertNil(pixels.roving.move?(0, .up))
            XCTAssertEqual(pixels.roving.move?(0, .end), pixels.days.count - 1)

            // Wider windows, larger squares; the grid follows the chart's width.
            XCTAssertEqual(pixels.size, YearPixels.sizes.last { 31 * ($0 + 3) + 60 <= Int(page.chart.view.allocatedWidth) } ?? 14)
            let size = harness.main.window.size
            harness.main.window.setDefaultSize(width: 1_200, height: size.height)
            harness.waitUntil("in a wide window, the squares grow") { cell.allocatedWidth == 26 && pixels.view.hasClass("pixels-26") }
            harness.main.window.setDefaultSize(width: size.width, height: size.height)
            harness.waitUntil("narrow again, they shrink") { cell.allocatedWidth == 14 && harness.main.window.size.width == size.width }
            image = try XCTUnwrap(pixels.view.render())

            // Dark: the page's own background, the mood colours as they are.
            FlourishApplication.follow(.preferDark)
            harness.waitUntil("dark is drawn") { pixels.view.render()?.hex(x: 2, y: 2) != lightBackground }
            image = try XCTUnwrap(pixels.view.render())
            let dark = try XCTUnwrap(RGBAColor(hex: try XCTUnwrap(image.hex(x: 2, y: 2))))
            XCTAssertLessThan(dark.red + dark.green + dark.blue, 0.6, "a dark background")
            if earlier == 2 { XCTAssertEqual(try centre(of: cell, in: pixels.view, image: image), "#8647b7", "a day of the best, on dark") }
            FlourishApplication.follow(.preferLight)

            // A day opens the journal's search on that day.
            cell.click()
            XCTAssertEqual(harness.main.page, .journal)
            let journal = harness.main.journal
            harness.waitUntil("the day's entries are found") { journal.shown.ids.count == (earlier == 2 ? 2 : 3) }
            XCTAssertTrue(journal.search.isSearching)
            let start = try XCTUnwrap(day.start())
            XCTAssertEqual(journal.search.from.day, start)
            XCTAssertEqual(journal.search.to.day, start)
            XCTAssertEqual(journal.search.entry.text, "")
            harness.waitUntil("the results have the keyboard") { journal.resultsList.containsFocus }
        }
    }

    func testAChosenYearIsShownInBothCharts() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            let year = today().year
            try save(harness, .okay, daysAgo: 0)
            _ = try harness.journal.save(try EntryDraft(title: "Long ago", mood: .theWorst).validated().get(),
                                         createdAt: Foundation.Calendar.current.date(from: DateComponents(year: year - 2, month: 6, day: 15, hour: 12))!)
            let page = showInsights(harness)
            harness.waitUntil("the years with entries are offered") { page.yearChoice.items.count == 3 }
            XCTAssertEqual(page.yearChoice.items, ["\(year)", "\(year - 1)", "\(year - 2)"])
            XCTAssertFalse(page.yearButton.isActive)
            page.yearChoice.selected = 2
            harness.waitUntil("the chosen year is read") { page.insights?.pixelYear == year - 2 }
            XCTAssertTrue(page.yearButton.isActive, "choosing a year looks at it")
            XCTAssertEqual(page.period, .year(year - 2))
            XCTAssertEqual(page.insights?.total.count, 1)
            XCTAssertEqual(page.pixelsHeading.text, "Year in pixels: \(year - 2)")
            XCTAssertEqual(page.chart.timeline.points.count, Insights.Day.length(ofMonth: 2, in: year - 2) + 337, "each day of that year")
            XCTAssertEqual(page.chart.points.first?.index, 165 + (Insights.Day.length(ofMonth: 2, in: year - 2) - 28), "15 June")
            let june15 = Insights.Day(year: year - 2, month: 6, day: 15)
            XCTAssertTrue(page.pixels.cells[5][14].hasClass(Theme.moodClass(.theWorst)))
            XCTAssertEqual(page.pixels.roving.current.map { page.pixels.days[$0] }, Insights.Day(year: year - 2, month: 1, day: 1),
                           "another year: Tab reaches its first day")
            XCTAssertNotNil(page.pixels.days.firstIndex(of: june15))
            page.periods[1].button.click()
            harness.waitUntil("back to the last 12 months") { page.insights?.pixelYear == year }
            XCTAssertFalse(page.pixels.cells[5][14].hasClass(Theme.moodClass(.theWorst)))
        }
    }

    func testEachChartIsSavedAsAPNGOfItsSizeAndAFailureSaysWhy() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness()
            defer { harness.close() }
            try save(harness, .okay, daysAgo: 1)
            let page = showInsights(harness)
            for (chart, name) in [(page.chart.view, "chart.png"), (page.pixels.view, "pixels.png")] as [(Widget, String)] {
                harness.waitUntil("painted") { chart.render() != nil }
                let path = harness.folder.file(name)
                page.save(chart, to: path)
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                XCTAssertEqual(Array(data.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
                let number = { (offset: Int) in data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
                XCTAssertEqual(number(16), Int(chart.allocatedWidth), "its width")
                XCTAssertEqual(number(20), Int(chart.allocatedHeight), "its height")
                XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".part"))
            }
            let nowhere = harness.folder.file("no such folder/chart.png")
            page.save(page.chart.view, to: nowhere)
            let dialog = try XCTUnwrap(harness.waitForDialog())
            XCTAssertTrue(dialog.message.contains(nowhere), dialog.message)
            XCTAssertNotNil(dialog.button(for: Alerts.retry), "Retry is offered")
            XCTAssertFalse(FileManager.default.fileExists(atPath: nowhere))
            try XCTUnwrap(dialog.button(for: Alerts.ok)).click()
        }
    }

    func testThePageOnScreenFollowsAnUndoneDeletion() throws {
        try MainActor.assumeIsolated {
            let harness = try Harness(load: false)
            defer { harness.close() }
            try save(harness, .theWorst, daysAgo: 0)
            load(harness)
            let page = showInsights(harness)
            XCTAssertEqual(page.insights?.total.count, 1)
            let id = try XCTUnwrap(harness.journal.entryIDs().first)
            var deleted = false
            harness.model.delete(id: id) { deleted = (try? $0.get()) != nil }
            harness.waitUntil("deleted, the figures follow while the page is shown") { deleted && page.insights?.total.count == 0 }
            XCTAssertTrue(page.chart.points.isEmpty)
            let day = today()
            XCTAssertFalse(page.pixels.cells[day.month - 1][day.day - 1].hasClass(Theme.moodClass(.theWorst)))
        }
    }
}
