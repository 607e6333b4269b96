import FlourishCore
import Foundation
import GtkKit

/// The photos of an entry being written or edited: "Add Photo…", a row of thumbnails each with
/// its remove button, and what arrives by drag and drop or by pasting. Pictures are read,
/// checked and kept off the GTK thread; one that cannot be kept is said by name, and the rest
/// of the entry is untouched.
@MainActor
final class PhotoAttachments {
    let view = Box(.vertical, spacing: 6)
    let addButton = Button(mnemonic: tr("Add _Photo…"))
    /// "Adding 2 photos…" while pictures are being read.
    let status = Label()
    private let strip = Box(.horizontal, spacing: 8)
    private let stripScroller: ScrolledWindow

    private(set) var photos: [EntryPhoto] = []
    /// The thumbnails shown, in order, and each one's remove button.
    private(set) var tiles: [(tile: PhotoTile, remove: Button)] = []
    /// Told when a photo is taken off, with a way to put it back (the window's Undo).
    var onRemoved: (@MainActor (_ photo: EntryPhoto, _ undo: @escaping @MainActor () -> Void) -> Void)?
    /// Told when a photo is activated: open it, among the entry's.
    var onOpen: (@MainActor (_ photos: [EntryPhoto], _ index: Int) -> Void)?

    private let model: JournalModel
    private let alerts: Alerts
    private let thumbnails: PhotoThumbnails
    private var adding = 0 { didSet { showStatus() } }
    /// Counts fills, so that a picture still being read when the form is emptied (saved,
    /// reset) does not land in the next entry.
    private var generation = 0
    static let edge = 96

    init(model: JournalModel, alerts: Alerts, thumbnails: PhotoThumbnails) {
        self.model = model
        self.alerts = alerts
        self.thumbnails = thumbnails
        stripScroller = ScrolledWindow(strip)
        stripScroller.scrollSideways()
        stripScroller.isVisible = false
        let row = Box(.horizontal, spacing: 12)
        row.append(addButton)
        status.addClass("dim-label")
        status.isVisible = false
        row.append(status)
        view.append(row)
        view.append(stripScroller)
        view.setMargins(top: 4)
        addButton.tooltip = tr("Add photos from files (or drop them here, or paste one with Ctrl+V)")
        addButton.onClicked { [unowned self] in choose() }
    }

    // MARK: - Contents

    /// Shows these photos (an entry's, a kept draft's), or none.
    func set(_ photos: [EntryPhoto]) {
        generation += 1
        adding = 0
        self.photos = photos
        rebuild()
    }

    var isSensitive: Bool = true {
        didSet { view.isSensitive = isSensitive }
    }

    private func rebuild() {
        strip.removeAll()
        tiles = []
        for (index, photo) in photos.enumerated() {
            let tile = PhotoTile(photo, index: index, of: photos.count, edge: Self.edge, thumbnails: thumbnails)
            tile.button.onClicked { [unowned self] in onOpen?(photos, index) }
            let removeButton = Button(iconName: "window-close-symbolic", accessibleName: String(format: tr("Remove %@"), photo.fileName))
            removeButton.addClass("photo-remove")
            removeButton.addClass("circular")
            removeButton.align(horizontal: .end, vertical: .start)
            removeButton.onClicked { [unowned self] in remove(at: index) }
            tiles.append((tile, removeButton))
            let overlay = Overlay(child: tile.button)
            overlay.addOverlay(removeButton)
            strip.append(overlay)
        }
        stripScroller.isVisible = !photos.isEmpty
    }

    private func remove(at index: Int) {
        guard photos.indices.contains(index) else { return }
        let photo = photos.remove(at: index)
        let shown = generation
        rebuild()
        addButton.grabFocus()
        onRemoved?(photo) { [weak self] in
            guard let self, shown == generation else { return }
            photos.insert(photo, at: min(index, photos.count))
            rebuild()
        }
    }

    // MARK: - Adding

    /// Add Photo…: the file chooser, pictures only, several at once.
    func choose() {
        let pictures = FileChooser.Filter(name: tr("Photos"), suffixes: ["jpg", "jpeg", "png", "webp", "heic", "heif"],
                                          mimeTypes: ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"])
        FileChooser.askForFiles(title: tr("Add Photos"), from: addButton, accept: tr("_Add"), cancel: tr("_Cancel"),
                                filters: [pictures, FileChooser.Filter(name: tr("All files"), suffixes: [])]) { [weak self] paths in
            self?.add(paths: paths)
        }
    }

    /// Adds the pictures at `paths`, in order; each refused one is said by its name and why.
    func add(paths: [String]) {
        guard !paths.isEmpty else { return }
        let shown = generation
        adding += paths.count
        model.addPhotos(from: paths, prepare: Self.prepare) { [weak self] _, result in
            guard let self, shown == generation else { return }
            adding -= 1
            take(result)
        }
    }

    /// Ctrl+V outside a text field: files copied in the file manager, or a copied picture.
    func paste() {
        // The read can wait for another program to answer: a form emptied or another entry
        // shown meanwhile does not take what it brings.
        let shown = generation
        view.readClipboardPicture { [weak self] picture in
            guard let self, shown == generation else { return }
            switch picture {
            case .files(let paths)?: add(paths: paths)
            case .png(let bytes)?:
                adding += 1
                model.addPhoto(bytes, fileName: tr("Pasted photo") + ".png", prepare: Self.prepare) { [weak self] result in
                    guard let self, shown == generation else { return }
                    adding -= 1
                    take(result)
                }
            case nil:
                alerts.showMessage(title: tr("Nothing to Paste"), message: tr("The clipboard holds no photo. Copy a picture, or picture files, and paste again."))
            }
        }
    }

    private func take(_ result: Result<EntryPhoto, JournalError>) {
        switch result {
        case .success(let photo):
            photos.append(photo)
            rebuild()
        case .failure(let error):
            alerts.showMessage(title: tr("Photo Not Added"), message: error.errorDescription ?? tr("The photo could not be added."))
        }
    }

    /// Checks a picture and makes its thumbnail, off the GTK thread.
    private nonisolated static func prepare(_ bytes: Data, _ fileName: String) throws(JournalError) -> Data {
        do {
            return try PhotoDecoding.read(bytes).thumbnail.bytes
        } catch {
            throw .picture(fileName, error)
        }
    }

    private func showStatus() {
        status.text = adding == 1 ? tr("Adding a photo…") : String(format: tr("Adding %@ photos…"), adding.formatted())
        status.isVisible = adding > 0
    }
}
