import CSodium
import Foundation
import GRDB

/// The journal's photos: kept whole in the photo folder, sealed (`PhotoSeal`) with a key kept in
/// the journal, and named in the journal by the entries that carry them.
///
/// A photo is written, durably, before the entry that names it is saved: a crash at any moment
/// leaves at most a photo no entry names (let go at a later start), never an entry whose photo is
/// missing.
extension JournalStore {
    /// The folder of this journal's photos.
    public var photoFolder: PhotoFolder { PhotoFolder(journal: file) }

    /// Keeps `bytes`, the file `fileName` the person chose, and returns the photo to put on an
    /// entry (the entry saves it). A picture already kept is not kept twice. Refuses what is not
    /// a JPEG, PNG, WebP or HEIC picture, naming the file. `thumbnail`, when given, is kept as
    /// the photo's thumbnail (made by the window, which can decode pictures).
    public func addPhoto(_ bytes: Data, fileName: String, thumbnail: Data? = nil) throws(JournalError) -> EntryPhoto {
        guard let format = PhotoFormat.of(bytes) else { throw .notAPicture(name: fileName) }
        var (keyID, key) = try keyForNewPhotos()
        defer { sodium_memzero(&key, key.count) }
        let photo = try stagePhoto(bytes, format: format, keyID: keyID, key: key)
        try keep([photo])
        if let thumbnail {
            let name = photo.name + PhotoFolder.thumbnailSuffix
            try photoFolder.write(PhotoSeal.seal(thumbnail, key: key, name: name), as: name)
        }
        return EntryPhoto(id: photo.name, fileName: Self.shownName(fileName, format: format))
    }

    /// A photo sealed and written under a temporary name (`PhotoFolder.stage`), not yet flushed
    /// nor recorded: `keep` does both, for many photos at once.
    struct StagedPhoto: Sendable {
        let name: String
        let keyID: Int64
        let format: PhotoFormat
        let size: Int
        /// Nil when the file was here already (the same picture, added before).
        let file: PhotoFolder.Staged?
    }

    /// Names `bytes` by the key `key` (number `keyID`), seals them with it and writes them.
    func stagePhoto(_ bytes: Data, format: PhotoFormat, keyID: Int64, key: [UInt8]) throws(JournalError) -> StagedPhoto {
        let name = PhotoName.of(bytes, key: key)
        let file = try photoFolder.stage(PhotoSeal.seal(bytes, key: key, name: name), as: name)
        return StagedPhoto(name: name, keyID: keyID, format: format, size: bytes.count, file: file)
    }

    /// Keeps staged photos: their files flushed and named first, then recorded in one
    /// transaction, `alsoRecord` in it (a photo is on the disk before anything names it).
    func keep(_ photos: [StagedPhoto], alsoRecord: (Database) throws -> Void = { _ in }) throws(JournalError) {
        guard !photos.isEmpty else { return }
        try photoFolder.keep(photos.compactMap(\.file))
        try writing { db in
            for photo in photos {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO photo (name, key_id, format, size, added_at) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [photo.name, photo.keyID, photo.format.rawValue, photo.size, Date()])
            }
            try alsoRecord(db)
        }
    }

    /// The photo's original bytes, exactly as they were added. Throws `.photoMissing` when its
    /// file is gone, `.photoDamaged` when it is not what was sealed (changed, cut short).
    public func photo(_ photo: EntryPhoto) throws(JournalError) -> Data {
        var key = try key(of: photo)
        defer { sodium_memzero(&key, key.count) }
        guard let sealed = try photoFolder.read(photo.id) else { throw .photoMissing(name: photo.fileName) }
        guard let bytes = PhotoSeal.open(sealed, key: key, name: photo.id) else { throw .photoDamaged(name: photo.fileName) }
        return bytes
    }

    /// The photo's thumbnail, nil when none was made yet (or its file no longer opens: it is
    /// made again).
    public func thumbnail(of photo: EntryPhoto) throws(JournalError) -> Data? {
        var key = try key(of: photo)
        defer { sodium_memzero(&key, key.count) }
        let name = photo.id + PhotoFolder.thumbnailSuffix
        return try photoFolder.read(name).flatMap { PhotoSeal.open($0, key: key, name: name) }
    }

    /// Keeps `bytes` as the photo's thumbnail, made once and kept from then on.
    public func keepThumbnail(_ bytes: Data, of photo: EntryPhoto) throws(JournalError) {
        var key = try key(of: photo)
        defer { sodium_memzero(&key, key.count) }
        let name = photo.id + PhotoFolder.thumbnailSuffix
        // A thumbnail that no longer opens is replaced: it is made from the photo, not kept for itself.
        if photoFolder.exists(name), (try? thumbnail(of: photo)) == nil { unlink(photoFolder.file(name)) }
        try photoFolder.write(PhotoSeal.seal(bytes, key: key, name: name), as: name)
    }

    /// The kind of picture a photo is, as it was added.
    public func format(of photo: EntryPhoto) throws(JournalError) -> PhotoFormat? {
        try reading { db in
            try String.fetchOne(db, sql: "SELECT format FROM photo WHERE name = ?", arguments: [photo.id]).flatMap(PhotoFormat.init(rawValue:))
        }
    }

    // MARK: - Keys

    /// The key the photo was sealed with.
    private func key(of photo: EntryPhoto) throws(JournalError) -> [UInt8] {
        guard PhotoName.isValid(photo.id) else { throw .photoMissing(name: photo.fileName) }
        let key = try reading { db in
            try Data.fetchOne(db, sql: "SELECT k.key FROM photo p JOIN photo_key k ON k.id = p.key_id WHERE p.name = ?", arguments: [photo.id])
        }
        guard let key else { throw .photoMissing(name: photo.fileName) }
        return Array(key)
    }

    /// The key new photos are sealed with, read without writing unless one must be made: adding
    /// photos one after another (a machine joining fetches hundreds) makes one commit each, not two.
    func keyForNewPhotos() throws(JournalError) -> (Int64, [UInt8]) {
        // Never for a journal that cannot be written (damaged, or read-only): the photo's file
        // is written next.
        _ = try using { () throws(JournalError) in try writable() }
        if let kept = try reading({ db in try Self.keptPhotoKey(locked: cipher != nil, db) }) { return kept }
        return try writing { db in try Self.photoKeyForNewPhotos(locked: cipher != nil, db) }
    }

    /// The key new photos are sealed with: the newest, unless the journal is locked and the
    /// newest was made while it was not (then a new one, made now, sealed inside the journal).
    static func photoKeyForNewPhotos(locked: Bool, _ db: Database) throws -> (Int64, [UInt8]) {
        if let kept = try keptPhotoKey(locked: locked, db) { return kept }
        let key = Sodium.random(32)
        try db.execute(sql: "INSERT INTO photo_key (key, made_locked) VALUES (?, ?)", arguments: [Data(key), locked])
        return (db.lastInsertedRowID, key)
    }

    /// The newest key, when new photos may be sealed with it (see `photoKeyForNewPhotos`).
    private static func keptPhotoKey(locked: Bool, _ db: Database) throws -> (Int64, [UInt8])? {
        guard let row = try Row.fetchOne(db, sql: "SELECT id, key, made_locked FROM photo_key ORDER BY id DESC LIMIT 1"),
              !locked || (row["made_locked"] as Bool) else { return nil }
        return (row["id"], Array(row["key"] as Data))
    }

    // MARK: - Entries' photos

    /// The photos each of these entries carries, in order, by entry id (those without, left out).
    static func photos(forEntries ids: [Int64], _ db: Database) throws -> [Int64: [EntryPhoto]] {
        // A journal from before photos, read before its upgrade (a damaged one is never upgraded).
        guard !ids.isEmpty, try db.tableExists("entry_photo") else { return [:] }
        var photos: [Int64: [EntryPhoto]] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT entry_id, photo, file_name FROM entry_photo WHERE entry_id IN (\(ids.map(String.init).joined(separator: ",")))
            ORDER BY entry_id, position
            """)
        while let row = try rows.next() {
            photos[row["entry_id"], default: []].append(EntryPhoto(id: row["photo"], fileName: row["file_name"]))
        }
        return photos
    }

    /// The entry carries exactly these photos, in this order. A photo the journal does not keep
    /// fails the save (rather than an entry naming a photo that is not there).
    static func setPhotos(_ photos: [EntryPhoto], forEntry entryID: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM entry_photo WHERE entry_id = ?", arguments: [entryID])
        for (position, photo) in photos.enumerated() {
            try db.execute(sql: "INSERT INTO entry_photo (entry_id, position, photo, file_name) VALUES (?, ?, ?, ?)",
                           arguments: [entryID, position, photo.id, photo.fileName])
        }
    }

    /// The name a photo is shown and written out by: the file's own, with an ending that says
    /// its kind when it had none; one for a photo that came without a name.
    static func shownName(_ fileName: String, format: PhotoFormat) -> String {
        let base = ((fileName as NSString).lastPathComponent).replacingOccurrences(of: "\n", with: " ")
        if base.isEmpty { return "photo.\(format.fileExtension)" }
        return (base as NSString).pathExtension.isEmpty ? "\(base).\(format.fileExtension)" : base
    }
}
