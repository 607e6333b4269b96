import Foundation

/// Photos as the window asks for them: added from files or pasted bytes, their thumbnails and
/// originals read, all off the GTK thread. Decoding pictures belongs to the window (it has the
/// toolkit's loaders): it passes it in as `prepare` and `decode`, which run off the GTK thread too.
extension JournalModel {
    /// Checks a picture and makes its thumbnail: the window's decoder. Throws
    /// `JournalError.unreadablePicture` (or `.notAPicture`) for what it cannot read.
    public typealias PreparePicture = @Sendable (_ bytes: Data, _ fileName: String) throws(JournalError) -> Data

    /// Adds the picture files at `paths`, one after the other: each is read, prepared and kept,
    /// and `each` hears how it went, in order, on the GTK thread. A file refused is said by name
    /// and the others still added.
    public func addPhotos(from paths: [String], prepare: @escaping PreparePicture,
                          each: @escaping @MainActor (_ path: String, Result<EntryPhoto, JournalError>) -> Void) {
        let store = self.store
        for path in paths {
            photoWork.async {
                let name = (path as NSString).lastPathComponent
                let result = Result { () throws(JournalError) -> EntryPhoto in
                    let bytes: Data
                    do {
                        bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
                    } catch {
                        throw .unreadablePicture(name: name, reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
                    }
                    return try Self.add(bytes, fileName: name, prepare: prepare, store: store)
                }
                DispatchQueue.main.async { MainActor.assumeIsolated { each(path, result) } }
            }
        }
    }

    /// Adds a picture that came as bytes (pasted), named `fileName`.
    public func addPhoto(_ bytes: Data, fileName: String, prepare: @escaping PreparePicture,
                         completion: @escaping @MainActor (Result<EntryPhoto, JournalError>) -> Void) {
        let store = self.store
        photoWork.async {
            let result = Result { () throws(JournalError) in try Self.add(bytes, fileName: fileName, prepare: prepare, store: store) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    private nonisolated static func add(_ bytes: Data, fileName: String, prepare: PreparePicture,
                                        store: any JournalStoring) throws(JournalError) -> EntryPhoto {
        guard PhotoFormat.of(bytes) != nil else { throw .notAPicture(name: fileName) }
        let thumbnail = try prepare(bytes, fileName)
        return try store.addPhoto(bytes, fileName: fileName, thumbnail: thumbnail)
    }

    /// The photo's thumbnail, made from the original by `make` the first time and kept, then
    /// `decode`d (for showing at the size asked), all off the GTK thread; nil when the photo
    /// cannot be read (missing, damaged).
    public func thumbnail<T: Sendable>(of photo: EntryPhoto, make: @escaping @Sendable (Data) -> Data?,
                                       decode: @escaping @Sendable (Data) -> T?,
                                       completion: @escaping @MainActor (T?) -> Void) {
        let store = self.store
        thumbnailWork.async {
            var bytes = try? store.thumbnail(of: photo)
            if bytes == nil, let original = try? store.photo(photo), let made = make(original) {
                try? store.keepThumbnail(made, of: photo)
                bytes = made
            }
            let decoded = bytes.flatMap(decode)
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(decoded) } }
        }
    }

    /// The photo's original bytes, `decode`d off the GTK thread (for the viewer; or written out).
    public func photo<T: Sendable>(_ photo: EntryPhoto, decode: @escaping @Sendable (Data) throws(JournalError) -> T,
                                   completion: @escaping @MainActor (Result<T, JournalError>) -> Void) {
        let store = self.store
        photoWork.async {
            let result = Result { () throws(JournalError) in try decode(try store.photo(photo)) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }
}
