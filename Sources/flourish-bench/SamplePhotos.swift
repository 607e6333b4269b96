import FlourishCore
import Foundation

/// The sample journal's photos: the pictures of a folder (scripts/bench-app.py makes them with
/// ImageMagick), each kept once in the journal's photo folder, and handed out to one entry in
/// five, one to three each, in a fixed way.
///
/// A folder holds `NAME.jpg` files, the photos, and `thumbnails/NAME.jpg`, a small JPEG of each
/// (made the way the app makes its own: 320 px on the long side). A photo without one is kept
/// without a thumbnail, and the app makes it the first time it shows the photo.
///
/// Photos are named by their content, so the 20,000 entries of a 100,000-entry journal that carry
/// photos all share the folder's few dozen files: the journal names the same files over and over,
/// as entries name one photo each in a real journal, but the benchmark writes tens of megabytes
/// of photos, not tens of gigabytes.
struct SamplePhotos {
    /// The photos kept, in the folder's order of names.
    let kept: [EntryPhoto]

    /// Keeps every picture of `folder` (with its thumbnail, when the folder has one) in `store`.
    init(folder: String, store: JournalStore) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.lowercased().hasSuffix(".jpg") }
            .sorted()
        guard !names.isEmpty else { throw SamplePhotosError.noPictures(folder: folder) }
        kept = try names.map { name in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let thumbnail = try? Data(contentsOf: URL(fileURLWithPath: folder + "/thumbnails/" + name))
            return try store.addPhoto(bytes, fileName: name, thumbnail: thumbnail)
        }
    }

    /// The photos entry `index` carries: one entry in five has one to three of them, the others
    /// none. Taken from a hash of the index, not from the entries' random stream, so that the
    /// journal with photos has the very same words, moods and dates as the one without.
    func photos(forEntry index: Int) -> [EntryPhoto] {
        var hash = SplitMix64(seed: UInt64(index) &* 0xD1B5_4A32_D192_ED03 &+ 11)
        guard hash.next(5) == 0 else { return [] }
        // Drawn without repeats: an entry never carries one photo twice.
        var chosen: [EntryPhoto] = []
        for _ in 0..<(1 + hash.next(3)) {
            let photo = kept[hash.next(kept.count)]
            if !chosen.contains(photo) { chosen.append(photo) }
        }
        return chosen
    }
}

enum SamplePhotosError: Error, CustomStringConvertible {
    case noPictures(folder: String)

    var description: String {
        switch self {
        case .noPictures(let folder): "no .jpg pictures in \(folder)"
        }
    }
}
