import Foundation

/// The photos of a Daylio backup's entries. Each entry lists asset ids; the backup's `assets`
/// gives each its `checksum`, the name of its file, at `assets/photos/YEAR/MONTH/<checksum>`.
/// The file is found by its name anywhere under `assets/photos/`: the folder's month counts from
/// 1 where the entries' month counts from 0, and a photo sits under the month it was added, not
/// always the entry's.
///
/// A photo whose file is missing, or is not a picture, is left behind (and counted, for the
/// Import window to say); so are voice notes, which Flourish does not keep. Each is counted
/// once, however many entries carry it.
final class DaylioPhotos {
    private let archive: ImportArchive
    private let assets: [Int: DaylioBackup.Asset]
    /// Each file under assets/photos/ by its name (and by its name without an ending).
    private let files: [String: String]
    /// Each asset looked for once: its file and its kind of picture, or nil when it is left behind.
    private var found: [Int: (member: String, format: PhotoFormat)?] = [:]
    private var brought: Set<String> = []
    private var missing: Set<Int> = []
    private var voiceNotes: Set<Int> = []

    init(_ assets: [DaylioBackup.Asset], in archive: ImportArchive) {
        self.archive = archive
        self.assets = Dictionary(assets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var files: [String: String] = [:]
        // Sorted, so that of two files of one name the same one is taken every time.
        for path in archive.paths.sorted() where path.hasPrefix("assets/photos/") {
            let name = (path as NSString).lastPathComponent
            for key in [name, (name as NSString).deletingPathExtension] where files[key] == nil { files[key] = path }
        }
        self.files = files
    }

    /// Distinct photos brought, photos left behind, and voice notes (not imported) so far.
    var broughtCount: Int { brought.count }
    var leftBehindCount: Int { missing.count }
    var voiceNoteCount: Int { voiceNotes.count }

    /// The photos an entry of `day` carries (asset ids `ids`), named "Daylio 2024-03-02.jpg"
    /// (then "… (2).jpg"), and those left behind, as "asset 12".
    func of(_ ids: [Int], day: Insights.Day) -> (photos: [ImportedPhoto], leftBehind: [String]) {
        var photos: [ImportedPhoto] = [], leftBehind: [String] = []
        for id in ids {
            if assets[id]?.type == 2 {
                voiceNotes.insert(id)
                continue
            }
            guard let (member, format) = picture(of: id) else {
                missing.insert(id)
                leftBehind.append("asset \(id)")
                continue
            }
            brought.insert(member)
            let date = String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
            let number = photos.isEmpty ? "" : " (\(photos.count + 1))"
            photos.append(ImportedPhoto(fileName: "Daylio \(date)\(number).\(format.fileExtension)", member: member, archive: archive))
        }
        return (photos, leftBehind)
    }

    /// The asset's picture file and its kind, when the backup holds one.
    private func picture(of id: Int) -> (member: String, format: PhotoFormat)? {
        if let known = found[id] { return known }
        var picture: (member: String, format: PhotoFormat)?
        if let checksum = assets[id]?.checksum, !checksum.isEmpty, let path = files[checksum],
           ImportPicture.isKeepable(path, in: archive), let format = archive.head(of: path).flatMap(PhotoFormat.of) {
            picture = (path, format)
        }
        found[id] = .some(picture)
        return picture
    }
}
