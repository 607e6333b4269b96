import FlourishCore
import Foundation

/// A journal of photos for sync's benchmark (scripts/bench-sync.py):
///
///   flourish-bench photo-journal PICTURES PATH
///
/// writes at PATH a journal of one entry per `.jpg` picture in the folder PICTURES, each entry
/// carrying its own picture, kept through the store as the app keeps a photo added to the form.
/// The entries' words, moods and dates are the sample journal's first ones. Every picture is its
/// own photo (none shared), so the first sync sends each once: the bytes at stake are the
/// folder's.
enum PhotoJournal {
    static func write(pictures folder: String, to path: String) throws {
        removeJournal(at: path)
        // A journal written again starts without the photos of the one before.
        try? FileManager.default.removeItem(atPath: PhotoFolder(journal: path).path)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted()
        guard !names.isEmpty else { throw PhotoJournalError.noPictures(folder: folder) }
        let store = try JournalStore(path: path)
        defer { store.close() }
        let samples = SampleJournal(count: names.count).samples
        let entries = try zip(names, samples).map { name, sample in
            // Kept before the entry that names it is saved, as the form does.
            let photo = try store.addPhoto(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)), fileName: name)
            return (entry: try EntryDraft(title: sample.title, body: sample.body, mood: sample.mood, photos: [photo]).validated().get(),
                    createdAt: sample.date)
        }
        _ = try store.save(entries)
    }
}

enum PhotoJournalError: Error, CustomStringConvertible {
    case noPictures(folder: String)

    var description: String {
        switch self {
        case .noPictures(let folder): "no .jpg pictures in \(folder)"
        }
    }
}
