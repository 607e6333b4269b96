import FlourishCore
import Foundation
import GtkKit

/// An entry's photos, one at a time, over the whole window: the photo fitted to the window,
/// Left and Right (or the arrow buttons) to the previous and next, Escape (or Back) to return
/// where it was opened from, Save a Copy… to write the original out, byte for byte. The photo is
/// decoded off the GTK thread at the window's size; a screen reader hears which one it shows.
@MainActor
final class PhotoViewer {
    let view = Box(.vertical)
    let picture = Picture()
    /// "Photo 2 of 3, IMG_2041.jpg", over the photo. The photo itself holds the keyboard and is
    /// named the same, so a screen reader says which photo shows as it changes (GTK 4.8 has
    /// no announcements: a change of the focused widget's name is what a reader speaks).
    let caption = Label()
    let backButton = Button(iconName: "window-close-symbolic", accessibleName: tr("Back"))
    let previousButton = Button(iconName: "go-previous-symbolic", accessibleName: tr("Previous Photo"))
    let nextButton = Button(iconName: "go-next-symbolic", accessibleName: tr("Next Photo"))
    let saveButton = Button(mnemonic: tr("Save a _Copy…"))
    /// Says why a photo cannot be shown (its file missing or changed).
    let problem = Label()

    private(set) var photos: [EntryPhoto] = []
    private(set) var index = 0
    /// Where the keyboard was when the viewer opened: it goes back there on close.
    private var returnFocus: Widget?
    private let model: JournalModel
    private let alerts: Alerts
    /// Counts photos shown, so that a slow decode of one left behind does not show over the next.
    private var generation = 0

    var isOpen: Bool { view.isVisible }
    /// Told as the viewer opens and before it closes (the window keeps the keyboard out of
    /// what lies under it meanwhile).
    var onOpenChanged: (@MainActor (Bool) -> Void)?

    init(model: JournalModel, alerts: Alerts) {
        self.model = model
        self.alerts = alerts
        view.addClass("photo-viewer")
        view.isVisible = false
        let bar = Box(.horizontal, spacing: 8)
        bar.addClass("photo-viewer-bar")
        backButton.tooltip = tr("Back (Escape)")
        previousButton.tooltip = tr("Previous photo (Left)")
        nextButton.tooltip = tr("Next photo (Right)")
        caption.expand(horizontally: true)
        caption.setAccessibleHidden(true)
        for widget in [previousButton, nextButton, caption, saveButton, backButton] as [Widget] { bar.append(widget) }
        picture.contentFit = .contain
        picture.canShrink = true
        picture.isFocusable = true
        picture.addClass("photo-viewer-picture")
        picture.expand(horizontally: true, vertically: true)
        problem.enableWrapping()
        problem.isVisible = false
        problem.expand(vertically: true)
        view.append(bar)
        view.append(picture)
        view.append(problem)
        view.expand(horizontally: true, vertically: true)
        backButton.onClicked { [unowned self] in close() }
        previousButton.onClicked { [unowned self] in step(-1) }
        nextButton.onClicked { [unowned self] in step(1) }
        saveButton.onClicked { [unowned self] in saveCopy() }
        view.onKeyPressed(beforeChildren: true) { [unowned self] key, modifiers in
            modifiers.meaningful.isEmpty && handle(key)
        }
    }

    /// Escape back, Left and Right to the previous and next photo (before any button takes them).
    func handle(_ key: Key) -> Bool {
        switch key {
        case .escape: close()
        case .left: step(-1)
        case .right: step(1)
        default: return false
        }
        return true
    }

    /// Opens on `photos[index]`, over whatever the window shows.
    func open(_ photos: [EntryPhoto], at index: Int, from focus: Widget?) {
        guard photos.indices.contains(index) else { return }
        self.photos = photos
        returnFocus = focus
        onOpenChanged?(true)
        view.isVisible = true
        show(index)
        _ = picture.grabFocus()
    }

    func close() {
        guard isOpen else { return }
        generation += 1
        view.isVisible = false
        picture.texture = nil
        onOpenChanged?(false)
        _ = returnFocus?.grabFocus()
        returnFocus = nil
    }

    private func step(_ by: Int) {
        let next = index + by
        guard photos.indices.contains(next) else { return }
        show(next)
    }

    private func show(_ index: Int) {
        self.index = index
        generation += 1
        let shown = generation
        let photo = photos[index]
        let name = PhotoTile.name(photo, index: index, of: photos.count)
        caption.text = name
        picture.alternativeText = name
        picture.setAccessibleLabel(name)
        picture.texture = nil
        problem.isVisible = false
        picture.isVisible = true
        previousButton.isSensitive = index > 0
        nextButton.isSensitive = index < photos.count - 1
        saveButton.isSensitive = true
        // Decoded for the space it has (the window's, before the first layout).
        let width = max(Int(view.allocatedWidth), 640), height = max(Int(view.allocatedHeight), 480)
        model.photo(photo, decode: { bytes throws(JournalError) -> DecodedPhoto in
            do throws(PhotoDecodingError) {
                return try PhotoDecoding.decode(bytes, fittingWidth: width, height: height)
            } catch {
                throw .picture(photo.fileName, error)
            }
        }) { [weak self] result in
            guard let self, shown == generation else { return }
            switch result {
            case .success(let decoded):
                picture.texture = Texture(decoded)
            case .failure(let error):
                let text = error.errorDescription ?? tr("This photo cannot be shown.")
                problem.text = text
                problem.isVisible = true
                picture.setAccessibleLabel("\(name): \(text)")
                saveButton.isSensitive = false
            }
        }
    }

    /// Save a Copy…: the original, byte for byte, where the person chooses.
    private func saveCopy() {
        guard photos.indices.contains(index) else { return }
        let photo = photos[index]
        FileChooser.ask(.save(suggestedName: photo.fileName), title: tr("Save a Copy of the Photo"), from: saveButton,
                        accept: tr("_Save"), cancel: tr("_Cancel")) { [weak self] path in
            guard let self, let path else { return }
            saveCopy(of: photo, to: path)
        }
    }

    /// Writes the photo's original to `path`; a failure is said. `done` hears how it went.
    func saveCopy(of photo: EntryPhoto, to path: String, done: @escaping @MainActor (Bool) -> Void = { _ in }) {
        model.photo(photo, decode: { bytes throws(JournalError) in
            do {
                try bytes.write(to: URL(fileURLWithPath: path))
            } catch {
                throw .io(reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
            }
        }) { [weak self] result in
            if case .failure(let error) = result {
                self?.alerts.showMessage(title: tr("Photo Not Saved"), message: error.errorDescription ?? tr("The photo could not be saved."))
            }
            done((try? result.get()) != nil)
        }
    }
}
