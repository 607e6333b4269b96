import FlourishCore
import Foundation
import GtkKit

/// One entry, whole: its title and body as selectable text, its mood in its colour, its date
/// and time and, when there is one, its location; with "Edit" and "Delete". When sync kept
/// versions of it made on another computer, it says so and offers each back ("Use This Version").
@MainActor
final class EntryViewController {
    let view = Box(.vertical)
    let titleLabel = Label()
    let moodLabel = Label()
    let dateLabel = Label()
    /// "124 words": how long the body is.
    let wordsLabel = Label()
    let locationLabel = Label()
    let tagsLabel = Label()
    /// "Sleep: 7.5 hours · Energy: 3 of 5", when the entry gave any.
    let measuresLabel = Label()
    /// The body, its Markdown shown as it reads.
    let body = MarkdownView()
    /// The entry's photos, as a strip of thumbnails.
    let photoStrip = Box(.horizontal, spacing: 8, groupNamed: tr("Photos"))
    private let photoScroller: ScrolledWindow
    private(set) var photoTiles: [PhotoTile] = []
    /// A photo's thumbnail was activated: open it among the entry's photos.
    var onOpenPhoto: (@MainActor (_ photos: [EntryPhoto], _ index: Int, _ from: Widget) -> Void)?
    private let thumbnails: PhotoThumbnails
    let editButton = Button(mnemonic: tr("_Edit"))
    let deleteButton = Button(mnemonic: tr("_Delete"))

    /// "Also changed on another computer", with each earlier version and its button.
    let versionsBox = Box(.vertical, spacing: 6, groupNamed: tr("Also changed on another computer"))
    private(set) var versionButtons: [(version: EarlierVersion, button: Button)] = []
    /// A version's button was pressed.
    var onUseVersion: (@MainActor (EarlierVersion) -> Void)?

    private(set) var entry: Entry?
    private var moodClass: String?

    static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .full
        formatter.timeStyle = .short
        return formatter
    }()

    init(thumbnails: PhotoThumbnails) {
        self.thumbnails = thumbnails
        photoScroller = ScrolledWindow(photoStrip)
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
        wordsLabel.addClass("journal-meta")
        locationLabel.addClass("journal-meta")
        tagsLabel.addClass("journal-tags")
        measuresLabel.addClass("journal-meta")
        for label in [titleLabel, moodLabel, dateLabel, wordsLabel, tagsLabel, measuresLabel, locationLabel] {
            label.alignStart()
            label.enableWrapping()
            content.append(label)
        }
        content.append(body.view)
        // The words can be selected and copied; they are read, not edited, here.
        titleLabel.isSelectable = true
        body.view.setMargins(top: 12)
        photoScroller.scrollSideways()
        photoScroller.setMargins(top: 12)
        photoScroller.isVisible = false
        content.append(photoScroller)
        versionsBox.addClass("entry-versions")
        versionsBox.setMargins(top: 18)
        versionsBox.isVisible = false
        content.append(versionsBox)
        let scroller = ScrolledWindow(content)
        scroller.expand(horizontally: true, vertically: true)
        view.append(actions)
        view.append(scroller)
    }

    /// The versions sync kept of the entry shown, each with "Use This Version"; none hides them.
    func showVersions(_ versions: [EarlierVersion]) {
        versionsBox.removeAll()
        versionButtons = []
        versionsBox.isVisible = !versions.isEmpty
        guard !versions.isEmpty else { return }
        let heading = Label(tr("Also changed on another computer. The later change is shown above; the other is kept here:"))
        heading.enableWrapping()
        heading.alignStart()
        heading.addClass("journal-meta")
        versionsBox.append(heading)
        for version in versions {
            let words = Label(String(format: tr("“%@”, %@: %@"), version.title, Mood.title(of: version.mood),
                                     version.body.isEmpty ? tr("no text") : version.body.plainPreview(limit: Entry.rowBodyLimit)))
            words.enableWrapping()
            words.alignStart()
            words.isSelectable = true
            let button = Button(tr("Use This Version"))
            // The words a person sees on it, then which version (a title may repeat, or be empty).
            button.accessibleName = String(format: tr("Use This Version: “%@”, %@"), version.title,
                                           Self.dateFormatter.string(from: version.updatedAt ?? version.createdAt))
            button.align(horizontal: .start)
            button.onClicked { [unowned self] in
                // Once: a second press would keep the replaced version twice.
                for (_, each) in versionButtons { each.isSensitive = false }
                onUseVersion?(version)
            }
            versionsBox.append(words)
            versionsBox.append(button)
            versionButtons.append((version, button))
        }
    }

    /// Shows `entry` (again, after an edit), with the names of its tags and its measures' values.
    func show(_ entry: Entry, tags: [String], measures: [String] = []) {
        if entry.id != self.entry?.id { showVersions([]) }
        self.entry = entry
        titleLabel.text = entry.title
        titleLabel.isVisible = !entry.title.isEmpty
        body.show(entry.body)
        body.view.isVisible = !entry.body.isEmpty
        moodLabel.text = entry.mood.map { String(format: tr("Feeling %@"), $0.title) } ?? tr("No mood")
        if let moodClass { moodLabel.removeClass(moodClass) }
        moodClass = entry.mood.map(Theme.moodClass) ?? Theme.noMoodClass
        if let moodClass { moodLabel.addClass(moodClass) }
        dateLabel.text = Self.dateFormatter.string(from: entry.createdAt)
        let words = WordCount.of(entry.body)
        wordsLabel.text = WordCount.phrase(words)
        wordsLabel.isVisible = words > 0
        tagsLabel.isVisible = !tags.isEmpty
        tagsLabel.text = tags.joined(separator: " · ")
        tagsLabel.setAccessibleLabel(String(format: tr("Tags: %@"), tags.joined(separator: ", ")))
        measuresLabel.isVisible = !measures.isEmpty
        measuresLabel.text = measures.joined(separator: " · ")
        measuresLabel.setAccessibleLabel(String(format: tr("Measures: %@"), measures.joined(separator: ", ")))
        showPhotos(of: entry)
        locationLabel.isVisible = entry.location != nil
        if let location = entry.location {
            locationLabel.text = location.formatted
            locationLabel.setAccessibleLabel(location.spoken)
        }
    }

    /// Lets go of the body's words while the page is hidden: laid out, a long entry's text takes
    /// megabytes, kept for nothing until the next entry is opened. `entry` stays, for
    /// `putBackWords` when the page shows again.
    func letGoOfWords() {
        if !body.text.isEmpty { body.show("") }
    }

    func putBackWords() {
        if let entry, body.text.isEmpty, !entry.body.isEmpty { body.show(entry.body) }
    }

    private func showPhotos(of entry: Entry) {
        // The same photos (after an edit of the words, say) keep their tiles and the keyboard.
        guard photoTiles.map(\.photo) != entry.photos else { return }
        photoStrip.removeAll()
        photoTiles = entry.photos.enumerated().map { index, photo in
            let tile = PhotoTile(photo, index: index, of: entry.photos.count, edge: Self.photoEdge, thumbnails: thumbnails)
            tile.button.onClicked { [unowned self] in onOpenPhoto?(entry.photos, index, tile.button) }
            photoStrip.append(tile.button)
            return tile
        }
        photoScroller.isVisible = !entry.photos.isEmpty
    }

    static let photoEdge = 128
}
