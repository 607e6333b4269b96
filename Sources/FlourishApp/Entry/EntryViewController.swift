import FlourishCore
import Foundation
import GtkKit

/// One entry, whole: its title and body as selectable text, its mood in its colour, its date
/// and time and, when there is one, its location; with "Edit" and "Delete".
@MainActor
final class EntryViewController {
    let view = Box(.vertical)
    let titleLabel = Label()
    let moodLabel = Label()
    let dateLabel = Label()
    let locationLabel = Label()
    let tagsLabel = Label()
    let bodyLabel = Label()
    let editButton = Button(mnemonic: tr("_Edit"))
    let deleteButton = Button(mnemonic: tr("_Delete"))

    private(set) var entry: Entry?
    private var moodClass: String?

    static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .full
        formatter.timeStyle = .short
        return formatter
    }()

    init() {
        view.addClass("entry-view")
        editButton.tooltip = tr("Edit this entry (Ctrl+E)")
        deleteButton.tooltip = tr("Delete this entry (Delete in the journal)")
        deleteButton.addClass("destructive-action")
        let actions = Box(.horizontal, spacing: 8)
        actions.addClass("entry-view-actions")
        actions.align(horizontal: .end)
        actions.append(editButton)
        actions.append(deleteButton)

        let content = Box(.vertical, spacing: 6)
        content.addClass("entry-view-content")
        titleLabel.addClass("journal-title")
        titleLabel.addClass("entry-view-title")
        moodLabel.addClass("entry-view-mood")
        dateLabel.addClass("journal-meta")
        locationLabel.addClass("journal-meta")
        tagsLabel.addClass("journal-tags")
        bodyLabel.addClass("journal-body")
        bodyLabel.addClass("entry-view-body")
        for label in [titleLabel, moodLabel, dateLabel, tagsLabel, locationLabel, bodyLabel] {
            label.alignStart()
            label.enableWrapping()
            content.append(label)
        }
        // The words can be selected and copied; they are read, not edited, here.
        titleLabel.isSelectable = true
        bodyLabel.isSelectable = true
        bodyLabel.setMargins(top: 12)
        let scroller = ScrolledWindow(content)
        scroller.expand(horizontally: true, vertically: true)
        view.append(actions)
        view.append(scroller)
    }

    /// Shows `entry` (again, after an edit), with the names of its tags.
    func show(_ entry: Entry, tags: [String]) {
        self.entry = entry
        titleLabel.text = entry.title
        titleLabel.isVisible = !entry.title.isEmpty
        bodyLabel.text = entry.body
        bodyLabel.isVisible = !entry.body.isEmpty
        moodLabel.text = String(format: tr("Feeling %@"), entry.mood.title)
        if let moodClass { moodLabel.removeClass(moodClass) }
        moodClass = Theme.moodClass(entry.mood)
        moodLabel.addClass(Theme.moodClass(entry.mood))
        dateLabel.text = Self.dateFormatter.string(from: entry.createdAt)
        tagsLabel.isVisible = !tags.isEmpty
        tagsLabel.text = tags.joined(separator: " · ")
        tagsLabel.setAccessibleLabel(String(format: tr("Tags: %@"), tags.joined(separator: ", ")))
        locationLabel.isVisible = entry.location != nil
        if let location = entry.location {
            locationLabel.text = location.formatted
            locationLabel.setAccessibleLabel(location.spoken)
        }
    }
}
