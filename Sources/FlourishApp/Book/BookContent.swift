import FlourishCore
import Foundation
import GtkKit

/// The journal as a book's pieces: section 0 is the cover (the range, the number of entries and
/// each year in pixels), then one section per entry, oldest first, under a page for each year
/// and a heading for each month. Entries are read from the store a batch at a time, as the
/// pages reach them, so a book of ten years holds one batch of entries, never the journal.
final class BookContent: BookSource {
    static let batch = 100

    let plan: BookPlan
    private let store: any JournalStoring
    private let rangeWords: String
    private let calendar: Foundation.Calendar
    /// Every tag, in the store's order (by name): an entry's are these that it carries.
    private let tags: [Tag]
    private let measures: [Measure]
    /// Made once for the book, not once an entry: a DateFormatter costs more to make than to use.
    private let monthFormat: DateFormatter
    private let dateFormat: DateFormatter
    private var window: (start: Int, entries: [Int64: Entry])?
    /// Entries that could not be read as entries (left out of the book).
    private(set) var unreadable = 0

    /// `plan` is what `bookPlan(range)` read; tags and measures are read here, once.
    init(store: any JournalStoring, plan: BookPlan, range: BookRange, calendar: Foundation.Calendar = .current) throws(JournalError) {
        self.store = store
        self.calendar = calendar
        self.plan = plan
        rangeWords = range.words(calendar: calendar)
        tags = try store.tags(counted: false)
        measures = try store.measures()
        monthFormat = Self.monthFormat(calendar)
        dateFormat = Self.dateFormat(calendar)
    }

    var title: String { String(format: tr("Flourish journal: %@"), rangeWords) }

    var sectionCount: Int { plan.ids.count + 1 }

    func pieces(ofSection index: Int) -> [BookPiece] {
        index == 0 ? cover() : entryPieces(index - 1)
    }

    // MARK: - The cover

    private func cover() -> [BookPiece] {
        var pieces: [BookPiece] = [
            .space(120),
            .text(BookText(markup: BookText.escaped(tr("Flourish journal")), family: .sans, size: 28, bold: true,
                           color: BookMarkup.seedColor, spaceAfter: 10)),
            .text(BookText(markup: BookText.escaped(rangeWords), family: .sans, size: 16, color: BookMarkup.bodyColor, spaceAfter: 4)),
            .text(BookText(markup: BookText.escaped(EntryCount.words(plan.ids.count)), family: .sans, size: 12,
                           color: BookMarkup.quoteColor, spaceAfter: 36)),
        ]
        let months = YearPixels.monthNames
        let years = plan.years.map { year in
            BookYear(year: year, days: (1...12).map { month in
                (1...Insights.Day.length(ofMonth: month, in: year)).map { day in
                    let key = Insights.Day(year: year, month: month, day: day)
                    if let mood = plan.moods[key] { return Self.color(mood.color) }
                    return plan.daysWithoutMood.contains(key) ? BookColor(red: 0.7, green: 0.7, blue: 0.7) : nil
                }
            }, monthNames: months)
        }
        if !years.isEmpty { pieces.append(.years(years)) }
        pieces.append(.pageBreak)
        return pieces
    }

    static func color(_ color: RGBAColor) -> BookColor {
        BookColor(red: color.red, green: color.green, blue: color.blue)
    }

    // MARK: - Entries

    private func entry(_ index: Int) -> Entry? {
        if let window, (window.start..<window.start + Self.batch).contains(index) {
            return window.entries[plan.ids[index]]
        }
        let start = index - index % Self.batch
        let ids = Array(plan.ids[start..<min(plan.ids.count, start + Self.batch)])
        let batch = (try? store.read(ids: ids)) ?? EntryBatch()
        unreadable += ids.count - batch.entries.count
        window = (start, Dictionary(uniqueKeysWithValues: batch.entries.map { ($0.id, $0) }))
        return window?.entries[plan.ids[index]]
    }

    private func entryPieces(_ index: Int) -> [BookPiece] {
        var pieces: [BookPiece] = []
        let day = plan.days[index]
        let previous = index > 0 ? plan.days[index - 1] : nil
        if previous?.year != day.year {
            if index > 0 { pieces.append(.pageBreak) }
            pieces.append(.text(BookText(markup: "\(day.year)", family: .sans, size: 24, bold: true, color: BookMarkup.seedColor,
                                         spaceAfter: 12, keepWithNext: 120, bookmark: BookBookmark(title: "\(day.year)", level: 0))))
        }
        if previous.map({ ($0.year, $0.month) != (day.year, day.month) }) ?? true {
            let month = monthTitle(day)
            if previous?.year == day.year { pieces.append(.space(14)) }
            pieces.append(.text(BookText(markup: BookText.escaped(month), family: .sans, size: 17, bold: true,
                                         color: BookMarkup.seedColor, spaceAfter: 10, keepWithNext: 100,
                                         bookmark: BookBookmark(title: month, level: 1))))
        }
        guard let entry = entry(index) else { return pieces }
        let moodWords = entry.mood.map { "  ·  <span foreground='\($0.hex)' weight='bold'>\(BookText.escaped($0.title))</span>" } ?? ""
        let when = BookText.escaped(dateFormat.string(from: entry.createdAt))
        let title = entry.title.isEmpty ? "" : "\n<span font_family='Serif' size='\(15 * 1024)' weight='bold' foreground='#aa9783'>"
            + BookText.escaped(entry.title) + "</span>"
        pieces.append(.text(BookText(markup: when + moodWords + title, family: .sans, size: 9, color: BookMarkup.quoteColor,
                                     spaceAfter: 8, keepWithNext: 40, bar: entry.mood.map { Self.color($0.color) })))
        pieces += BookMarkup.pieces(of: entry.body)
        let details = self.details(of: entry)
        if !details.isEmpty {
            pieces.append(.text(BookText(markup: details.map(BookText.escaped).joined(separator: "\n"), family: .sans, size: 8.5,
                                         color: BookMarkup.quoteColor, spaceAfter: 6)))
        }
        for photo in entry.photos {
            let store = self.store
            pieces.append(.photo(BookPhoto(name: photo.fileName) { try? store.photo(photo) }))
        }
        pieces.append(.space(16))
        return pieces
    }

    /// Its tags, its measures' values and its place, a line each.
    private func details(of entry: Entry) -> [String] {
        var lines: [String] = []
        let tags = entry.tagIDs.isEmpty ? [] : self.tags.filter { entry.tagIDs.contains($0.id) }.map(\.name)
        if !tags.isEmpty { lines.append(String(format: tr("Tags: %@"), tags.joined(separator: ", "))) }
        let values = measures.compactMap { measure in entry.measures[measure.id].map { "\(measure.name): \(measure.spoken($0))" } }
        if !values.isEmpty { lines.append(values.joined(separator: " · ")) }
        if let location = entry.location { lines.append(location.formatted) }
        return lines
    }

    private func monthTitle(_ day: Insights.Day) -> String {
        day.start(in: calendar).map { monthFormat.string(from: $0) } ?? "\(day.year)-\(day.month)"
    }

    /// "March 2024", in the book's calendar and time zone.
    private static func monthFormat(_ calendar: Foundation.Calendar) -> DateFormatter {
        let format = DateFormatter()
        format.calendar = calendar
        format.timeZone = calendar.timeZone
        format.setLocalizedDateFormatFromTemplate("MMMMy")
        return format
    }

    /// "Saturday, 2 March 2024 at 09:30".
    private static func dateFormat(_ calendar: Foundation.Calendar) -> DateFormatter {
        let format = DateFormatter()
        format.calendar = calendar
        format.timeZone = calendar.timeZone
        format.dateStyle = .full
        format.timeStyle = .short
        return format
    }
}
