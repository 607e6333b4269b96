import FlourishCore
import Foundation
import GtkKit

/// Thumbnails as the window shows them: read (and made, the first time) off the GTK thread,
/// decoded at the size shown, and kept in memory for the photos seen last, so that scrolling
/// back shows them at once without holding every photo of a ten-year journal.
@MainActor
final class PhotoThumbnails {
    private let model: JournalModel
    /// Textures by photo and size, the least recently used let go past `limit` (40 px ones:
    /// 6 KiB each, under 2 MiB in all).
    private var textures: [Key: Texture] = [:]
    private var order: [Key] = []
    private var waiting: [Key: [@MainActor (Texture?) -> Void]] = [:]
    /// Photos that could not be shown (file missing or damaged, no reader for their kind): not
    /// read again each time their row scrolls by, until Flourish starts again.
    private var unreadable: Set<String> = []
    static let limit = 300

    private struct Key: Hashable {
        let id: String
        let edge: Int
    }

    init(model: JournalModel) { self.model = model }

    /// The photo's thumbnail as an `edge`×`edge` square (its middle); `show` hears it now when it is
    /// in memory, later otherwise (nil: the photo cannot be read).
    func texture(of photo: EntryPhoto, edge: Int, _ show: @escaping @MainActor (Texture?) -> Void) {
        let key = Key(id: photo.id, edge: edge)
        if unreadable.contains(photo.id) { return show(nil) }
        if let texture = textures[key] {
            touch(key)
            return show(texture)
        }
        if waiting[key] != nil { return waiting[key]?.append(show) ?? () }
        waiting[key] = [show]
        model.thumbnail(of: photo, make: { original in try? PhotoDecoding.read(original).thumbnail.bytes },
                        decode: { bytes in try? PhotoDecoding.decodeSquare(bytes, edge: edge) }) { [weak self] decoded in
            guard let self else { return }
            let texture = decoded.map(Texture.init)
            if let texture {
                textures[key] = texture
                touch(key)
            } else {
                unreadable.insert(photo.id)
            }
            for show in waiting.removeValue(forKey: key) ?? [] { show(texture) }
        }
    }

    private func touch(_ key: Key) {
        order.removeAll { $0 == key }
        order.append(key)
        while order.count > Self.limit { textures.removeValue(forKey: order.removeFirst()) }
    }
}

/// A photo's thumbnail as a button: activating it opens the photo. Named for a screen reader
/// by what it is ("Photo 1 of 3, IMG_2041.jpg").
@MainActor
final class PhotoTile {
    let button: Button
    let picture = Picture()
    let photo: EntryPhoto
    /// What a screen reader says of it.
    let name: String

    init(_ photo: EntryPhoto, index: Int, of count: Int, edge: Int, thumbnails: PhotoThumbnails) {
        self.photo = photo
        picture.contentFit = .cover
        picture.setSizeRequest(width: Int32(edge), height: Int32(edge))
        name = Self.name(photo, index: index, of: count)
        button = Button(picture: picture, accessibleName: name)
        button.addClass("photo-tile")
        button.tooltip = photo.fileName
        // A square of the size shown: GTK lays a picture out by its own size.
        thumbnails.texture(of: photo, edge: edge) { [weak self] texture in
            guard let self else { return }
            if let texture {
                picture.texture = texture
            } else {
                button.addClass("photo-unreadable")
                button.tooltip = String(format: tr("%@ cannot be shown: its file is missing or damaged."), photo.fileName)
            }
        }
    }

    static func name(_ photo: EntryPhoto, index: Int, of count: Int) -> String {
        let position = String(format: tr("Photo %1$@ of %2$@"), (index + 1).formatted(), count.formatted())
        return "\(position), \(photo.fileName)"
    }
}
