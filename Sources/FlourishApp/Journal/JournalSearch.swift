import FlourishCore
import Foundation
import GtkKit

/// The Journal page's search bar: words to find, and beside them the filters (moods, tags, a
/// date range) and the number of entries found. It only says what is asked for (`query`); the
/// journal page runs the search and shows the results.
@MainActor
final class JournalSearch {
    let entry = SearchEntry()
    let bar: SearchBar
    let moodButton: PopoverButton
    /// The six moods' choices, best first, then `noMoodChoice`.
    let moodChoices: [CheckButton]
    /// "No mood": entries that came without one (imports from journals that have no moods).
    let noMoodChoice = CheckButton(tr("No mood"))
    let tagButton: PopoverButton
    /// The tag filter's choices, rebuilt when the journal's tags change.
    private(set) var tagChoices: [(id: Int64, check: CheckButton)] = []
    private let tagList = Box(.vertical, spacing: 2)
    private let noTags = Label(tr("No tags yet"))
    let from = DayFilter(name: tr("From"))
    let to = DayFilter(name: tr("To"))
    /// "12 entries": how many entries the search found.
    let resultCount = Label()

    /// Called whenever the query changes: a keystroke, a filter, Escape.
    var onQueryChanged: (@MainActor () -> Void)?
    /// Called when the search bar opens or closes.
    var onSearchingChanged: (@MainActor () -> Void)?

    private let model: JournalModel
    private var filling = false

    init(model: JournalModel) {
        self.model = model
        entry.setAccessibleLabel(tr("Search"))
        entry.tooltip = tr("Words in titles and bodies, or a measure such as “sleep < 6” (Ctrl+F)")
        // Every keystroke searches: answers come back in milliseconds, and stale ones are dropped.
        entry.delayMilliseconds = 0
        entry.expand(horizontally: true)

        let moods = Box(.vertical, spacing: 2)
        moods.setMargins(6)
        moodChoices = Mood.catalogue.map { mood in
            let check = CheckButton(mood.title)
            check.addClass(Theme.moodClass(mood))
            check.addClass("mood-filter-choice")
            moods.append(check)
            return check
        } + [noMoodChoice]
        noMoodChoice.addClass("mood-filter-choice")
        moods.append(noMoodChoice)
        moodButton = PopoverButton(label: tr("Mood"), accessibleName: tr("Mood filter"), child: moods)
        tagList.setMargins(6)
        noTags.addClass("empty-hint")
        let tagScroller = ScrolledWindow(tagList)
        tagScroller.setMinContentHeight(40)
        tagScroller.setMaxContentHeight(320)
        tagButton = PopoverButton(label: tr("Tags"), accessibleName: tr("Tag filter"), child: tagScroller)

        let fromLabel = Label()
        fromLabel.setMnemonic(tr("F_rom"), for: from.button, namesWidget: false)
        let toLabel = Label()
        toLabel.setMnemonic(tr("_To"), for: to.button, namesWidget: false)
        resultCount.addClass("search-count")
        resultCount.setMargins(start: 6)

        let words = Box(.horizontal, spacing: 6)
        words.append(entry)
        words.append(resultCount)
        let filters = Box(.horizontal, spacing: 6)
        for widget in [moodButton, tagButton, fromLabel, from.button, toLabel, to.button] as [Widget] { filters.append(widget) }
        let content = Box(.vertical, spacing: 6)
        content.append(words)
        content.append(filters)
        content.expand(horizontally: true)
        bar = SearchBar(child: content, entry: entry)
        bar.addClass("journal-search")

        entry.onSearchChanged { [unowned self] in changed() }
        for check in moodChoices { check.onToggled { [unowned self] in changed() } }
        from.onChange = { [unowned self] in changed() }
        to.onChange = { [unowned self] in changed() }
        bar.onSearchingChanged { [unowned self] in
            if !bar.isSearching { clear() }
            onSearchingChanged?()
        }
        model.observeTags { [weak self] in self?.rebuildTags() }
        rebuildTags()
    }

    var isSearching: Bool { bar.isSearching }

    /// What the bar asks for now.
    var query: JournalQuery {
        // "sleep < 6" asks for a measure's values; the rest are words to find.
        let (words, measures) = MeasureCondition.extract(from: entry.text, measures: model.measures)
        var query = JournalQuery(text: words)
        query.measures = measures
        query.moods = Set(zip(Mood.catalogue, moodChoices).filter { $0.1.isActive }.map(\.0))
        query.withoutMood = noMoodChoice.isActive
        query.tagIDs = Set(tagChoices.filter { $0.check.isActive }.map(\.id))
        query.from = from.day
        query.to = to.day.flatMap { Foundation.Calendar.current.date(byAdding: .day, value: 1, to: $0) }
        return query
    }

    /// Ctrl+F: opens the bar with the keyboard in the words field.
    func start() {
        bar.isSearching = true
        entry.grabFocus()
    }

    /// The entries of one day, and nothing else: the bar opened with no words and no filter but
    /// From and To, both `day` (a day of the year in pixels).
    func showDay(_ day: Date) {
        bar.isSearching = true
        clear(toDay: day)
    }

    /// Escape: empties the words and every filter and closes the bar.
    func stop() {
        bar.isSearching = false
    }

    /// Says how many entries were found.
    func show(count: Int) {
        resultCount.text = switch count {
        case 0: tr("No entries")
        case 1: tr("1 entry")
        default: String(format: tr("%@ entries"), count.formatted())
        }
    }

    private func changed() {
        guard !filling else { return }
        moodButton.label = labelled(tr("Mood"), count: moodChoices.filter(\.isActive).count)
        tagButton.label = labelled(tr("Tags"), count: tagChoices.filter { $0.check.isActive }.count)
        onQueryChanged?()
    }

    /// "Mood (2)" once two moods are chosen.
    private func labelled(_ name: String, count: Int) -> String {
        count == 0 ? name : String(format: tr("%@ (%@)"), name, "\(count)")
    }

    /// Empties the words and every filter, From and To set to `day` (nil: any day), and asks
    /// for the search once.
    private func clear(toDay day: Date? = nil) {
        filling = true
        entry.text = ""
        for check in moodChoices { check.isActive = false }
        for (_, check) in tagChoices { check.isActive = false }
        from.set(day)
        to.set(day)
        resultCount.text = ""
        filling = false
        changed()
    }

    /// The tag filter's choices again, from the journal's tags, keeping those that were ticked.
    private func rebuildTags() {
        let wasTicked = Set(tagChoices.filter { $0.check.isActive }.map(\.id))
        // A tag merged away filters as the tag it went into; a deleted one no longer filters.
        let ticked = model.currentTags(wasTicked)
        tagList.removeAll()
        filling = true
        tagChoices = model.tags.map { tag in
            let check = CheckButton(tag.name)
            check.isActive = ticked.contains(tag.id)
            check.onToggled { [unowned self] in changed() }
            tagList.append(check)
            return (tag.id, check)
        }
        filling = false
        if tagChoices.isEmpty { tagList.append(noTags) }
        if ticked != wasTicked { changed() }
    }
}
