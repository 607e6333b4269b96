import FlourishCore
import Foundation
import GtkKit

/// One row of the journal: title, body and date, edged on the left in the mood's colour, and at
/// its end a small thumbnail of the entry's first photo ("+2" when it has more). Made once per
/// row widget by the list view and re-bound as rows scroll.
@MainActor
final class JournalRow {
    let view = Box(.horizontal, spacing: 12)
    /// The words, one under the other, as the seeds' row has them.
    let text = Box(.vertical, spacing: 4)
    /// The first photo, small enough that a row of one line keeps its height.
    let thumbnail = Picture()
    /// "+2", on the thumbnail's corner: how many more photos the entry has.
    let morePhotos = Label()
    /// The thumbnail's own box, one above the other: in it the picture is asked how wide it is
    /// at its own height. Asked at the row's height, as the row's box would ask it, a square
    /// picture answers as wide as the row is tall (a 40 px thumbnail shown at 140 px), and wider
    /// than it was measured, so the words beside it were laid out again at every allocation.
    private let thumbnailFrame = Box(.vertical)
    /// The thumbnail's place, kept in every row, empty in a row without photos, and asking for
    /// no width of its own (the picture takes the 40 px it shows, when it has one). The window
    /// measures every row again at the list's narrowest width whenever a row changes: a place
    /// that asked for 40 px in some rows only made that width 52 px, and the words of every row
    /// without a photo were laid out at 52 px and then again at their own width, three times
    /// the text work of a journal without photos, and scrolling's slowest frames twice as slow.
    /// The price: the words of a row without photos end 12 px (the spacing) sooner.
    private let photoBox: Overlay
    private let thumbnails: PhotoThumbnails
    static let thumbnailEdge = 40
    // A row shows the start of the entry: a few lines, however long the entry is.
    let titleLabel = PreviewText(lines: 2)
    let bodyLabel = PreviewText(lines: 3)
    let metaLabel = PreviewText(lines: 2)
    /// Where the person was, when they attached it: "52.52° N, 13.40° E ±50 m".
    let locationLabel = PreviewText(lines: 2)
    /// The entry's tags: "work · friends".
    let tagsLabel = PreviewText(lines: 2)

    /// The entry shown, or nil while it is still being read from disk.
    private(set) var entryID: Int64?
    private(set) var entry: Entry?
    private var moodClass: String?

    private static let dateFormatter = makeDateFormatter()

    /// How a row says its date ("Today at 10:35 PM", "Sunday 22 November 2026 at 10:35 PM"):
    /// also what the window warms up in the background before the first row needs it.
    nonisolated static func makeDateFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.dateStyle = .full
        formatter.timeStyle = .short
        formatter.doesRelativeDateFormatting = true
        return formatter
    }

    init(thumbnails: PhotoThumbnails) {
        self.thumbnails = thumbnails
        thumbnailFrame.append(thumbnail)
        photoBox = Overlay(child: thumbnailFrame)
        view.addClass("journal-row")
        titleLabel.addClass("journal-title")
        bodyLabel.addClass("journal-body")
        metaLabel.addClass("journal-meta")
        locationLabel.addClass("journal-meta")
        tagsLabel.addClass("journal-tags")
        for label in [titleLabel, bodyLabel, metaLabel, tagsLabel, locationLabel] {
            text.append(label)
        }
        text.expand(horizontally: true)
        view.append(text)
        thumbnail.contentFit = .cover
        // 40 px tall always, so that its box asks it for its width at 40 px (a box asked for no
        // height in particular gives each child its least, and a picture 0 px tall is 0 px
        // wide); wide only by what it shows, so that an empty place takes none of the row.
        thumbnail.setSizeRequest(width: -1, height: Int32(Self.thumbnailEdge))
        thumbnail.addClass("journal-thumbnail")
        morePhotos.addClass("journal-more-photos")
        morePhotos.align(horizontal: .end, vertical: .end)
        morePhotos.isVisible = false
        photoBox.addOverlay(morePhotos)
        photoBox.align(vertical: .center)
        // The row's name already says the title, the mood and the date: a screen reader walking
        // into the row would say them twice. The body, the tags' names and the place are not in
        // the name, and stay to be read.
        titleLabel.setAccessibleHidden(true)
        metaLabel.setAccessibleHidden(true)
        // The place says how many photos there are; what is in it adds nothing to that.
        thumbnail.setAccessibleHidden(true)
        morePhotos.setAccessibleHidden(true)
        view.append(photoBox)
        view.onMap { [unowned self] in
            if entry != nil { Trace.once("first journal row shown") }
        }
    }

    /// Shows the entry with this id, or a quiet placeholder until it arrives, or, for a row that
    /// cannot be read, says so with the reason (and no mood colour: it has no valid mood to show).
    /// `tags` are the names of its tags; the words of `query` are highlighted in its text.
    func bind(id: Int64, entry: Entry?, unreadableReason: String? = nil, tags: [String] = [], query: JournalQuery? = nil) {
        entryID = id
        self.entry = entry
        setMood(entry.map(\.mood))
        guard let entry else {
            view.setListCellAccessibleLabel(unreadableReason.map { String(format: tr("This entry could not be read: %@"), $0) }
                                            ?? tr("Reading the entry…"))
            titleLabel.text = unreadableReason == nil ? "…" : tr("This entry could not be read")
            titleLabel.isVisible = true
            bodyLabel.text = unreadableReason ?? ""
            // The name says the reason already.
            bodyLabel.setAccessibleHidden(true)
            bodyLabel.isVisible = unreadableReason != nil
            metaLabel.isVisible = false
            locationLabel.isVisible = false
            tagsLabel.isVisible = false
            titleLabel.highlight([])
            bodyLabel.highlight([])
            showPhotos(nil)
            return
        }
        showPhotos(entry)
        titleLabel.text = entry.title.preview(limit: Entry.rowTitleLimit)
        titleLabel.highlight(query?.highlights(in: titleLabel.text) ?? [])
        titleLabel.isVisible = !entry.title.isEmpty
        bodyLabel.text = entry.body.plainPreview(limit: Entry.rowBodyLimit)
        bodyLabel.setAccessibleHidden(false)
        bodyLabel.highlight(query?.highlights(in: bodyLabel.text) ?? [])
        bodyLabel.isVisible = !entry.body.isEmpty
        tagsLabel.isVisible = !tags.isEmpty
        if !tags.isEmpty {
            tagsLabel.text = tags.joined(separator: " · ")
            tagsLabel.setAccessibleLabel(String(format: tr("Tags: %@"), tags.joined(separator: ", ")))
        }
        let date = Self.dateFormatter.string(from: entry.createdAt)
        view.setListCellAccessibleLabel(Self.spokenName(of: entry, date: date, tagCount: tags.count))
        metaLabel.isVisible = true
        metaLabel.text = entry.mood.map { String(format: tr("%@ · feeling %@"), date, $0.title) }
            ?? String(format: tr("%@ · no mood"), date)
        locationLabel.isVisible = entry.location != nil
        if let location = entry.location {
            locationLabel.text = location.formatted
            // Spoken in words: a screen reader would read "°" and "±" badly or not at all.
            locationLabel.setAccessibleLabel(location.spoken)
        }
    }

    /// The one sentence a screen reader says for the row, in the order the row shows it: title
    /// (or, without one, the start of the body), mood, date, then how many tags and photos and
    /// whether it has a place. "First snow, feeling really good, Sunday 22 November 2026 at
    /// 10:35 PM, 2 tags".
    nonisolated static func spokenName(of entry: Entry, date: String, tagCount: Int) -> String {
        let words = entry.title.isEmpty
            ? String(entry.body.plainPreview(limit: Entry.rowTitleLimit * 2).prefix(while: { $0 != "\n" })) : entry.title
        let mood = entry.mood.map { String(format: tr("feeling %@"), $0.title) } ?? Mood.noneTitle
        var parts = [words.preview(limit: Entry.rowTitleLimit), mood, date]
        if tagCount > 0 { parts.append(tagCount == 1 ? tr("1 tag") : String(format: tr("%@ tags"), tagCount.formatted())) }
        if !entry.photos.isEmpty { parts.append(PhotoCount.words(entry.photos.count)) }
        if entry.location != nil { parts.append(tr("with a location")) }
        return parts.joined(separator: ", ")
    }

    /// Shows what `model` knows of entry `id` now (asking it to read the entry if it has not),
    /// with the words of `query` highlighted.
    func bind(id: Int64, from model: JournalModel, query: JournalQuery? = nil) {
        let entry = model.entry(id: id)
        bind(id: id, entry: entry, unreadableReason: model.unreadableReason(id: id),
             tags: entry.map { model.tagNames($0.tagIDs) } ?? [], query: query)
    }

    func unbind() {
        entryID = nil
        entry = nil
        thumbnail.texture = nil
    }

    /// The first photo's thumbnail, read in the background as the row comes into view; the row
    /// says how many photos the entry has, for a screen reader.
    private func showPhotos(_ entry: Entry?) {
        let photos = entry?.photos ?? []
        // The empty place of a row without photos is no photo to a screen reader.
        photoBox.setAccessibleHidden(photos.isEmpty)
        // "+2" waits for the thumbnail: the place has no width until then.
        morePhotos.isVisible = false
        guard let first = photos.first, let id = entry?.id else { return thumbnail.texture = nil }
        photoBox.setAccessibleLabel(photos.count == 1 ? tr("1 photo") : String(format: tr("%@ photos"), photos.count.formatted()))
        if photos.count > 1 { morePhotos.text = String(format: tr("+%@"), (photos.count - 1).formatted()) }
        thumbnails.texture(of: first, edge: Self.thumbnailEdge) { [weak self] texture in
            // Still the same entry: a row scrolled on meanwhile shows another.
            guard let self, entryID == id else { return }
            thumbnail.texture = texture
            morePhotos.isVisible = texture != nil && photos.count > 1
        }
    }

    /// The row's edge: the mood's colour, or the neutral edge of an entry without one (`nil`
    /// while the entry is being read: no edge at all).
    private func setMood(_ mood: Mood??) {
        if let moodClass { view.removeClass(moodClass) }
        moodClass = mood.map { $0.map(Theme.moodClass) ?? Theme.noMoodClass }
        if let moodClass { view.addClass(moodClass) }
    }
}
