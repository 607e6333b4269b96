import CSodium
import Foundation
import GRDB

/// The store's side of photos in sync: which photo is which at the place (`sync_photo`), the
/// photos entries name, and those the place holds that no entry here names any more.
extension JournalStore {
    /// The photos entries here name whose name at the place is not known yet.
    func photosWithoutPlaceNames() throws(JournalError) -> [EntryPhoto] {
        try reading { db in
            try Row.fetchAll(db, sql: """
                SELECT photo, min(file_name) AS file_name FROM entry_photo
                WHERE photo NOT IN (SELECT photo FROM sync_photo) GROUP BY photo
                """).map { EntryPhoto(id: $0["photo"], fileName: $0["file_name"]) }
        }
    }

    /// Notes the photos' names at the place, in one transaction.
    func recordPlaceNames(_ names: [(place: String, photo: String)]) throws(JournalError) {
        guard !names.isEmpty else { return }
        try writing { db in
            for (place, photo) in names { try Self.recordPlaceName(place, of: photo, db) }
        }
    }

    /// A photo fetched from the place, staged here (`stagePhoto`), with its name at the place.
    struct FetchedPhoto: Sendable {
        let photo: StagedPhoto
        let place: String
    }

    /// Seals a photo fetched from the place and writes it (see `addPhoto`), not flushed yet.
    func stageFetchedPhoto(_ bytes: Data, place: String) throws(JournalError) -> FetchedPhoto {
        guard let format = PhotoFormat.of(bytes) else { throw .notAPicture(name: place) }
        var (keyID, key) = try keyForNewPhotos()
        defer { sodium_memzero(&key, key.count) }
        return FetchedPhoto(photo: try stagePhoto(bytes, format: format, keyID: keyID, key: key), place: place)
    }

    /// Keeps fetched photos (`keep`), each with its name at the place noted in the same transaction.
    func keepFetchedPhotos(_ photos: [FetchedPhoto]) throws(JournalError) {
        try keep(photos.map(\.photo)) { db in
            for fetched in photos { try Self.recordPlaceName(fetched.place, of: fetched.photo.name, db) }
        }
    }

    private static func recordPlaceName(_ place: String, of photo: String, _ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO sync_photo (photo, place) VALUES (?, ?)", arguments: [photo, place])
        try db.execute(sql: "DELETE FROM sync_photo_unused WHERE place = ?", arguments: [place])
    }

    /// Every photo entries here name, with its name at the place (those known).
    func placeNamesOfEntriesPhotos() throws(JournalError) -> [(photo: EntryPhoto, place: String)] {
        try reading { db in
            try Row.fetchAll(db, sql: """
                SELECT s.photo, s.place, min(ep.file_name) AS file_name FROM sync_photo s JOIN entry_photo ep ON ep.photo = s.photo
                GROUP BY s.photo
                """).map { (EntryPhoto(id: $0["photo"], fileName: $0["file_name"]), $0["place"]) }
        }
    }

    /// The photo here that is `place` at the place, if any.
    func localPhoto(atPlace place: String) throws(JournalError) -> String? {
        try reading { db in try String.fetchOne(db, sql: "SELECT photo FROM sync_photo WHERE place = ? LIMIT 1", arguments: [place]) }
    }

    /// Each entry's photos as they travel, by entry id (those whose name at the place is not
    /// known are left out: see `JournalSync.namePhotos`, which runs before anything is sent).
    static func syncPhotos(forEntries ids: [Int64], _ db: Database) throws -> [Int64: [SyncPhoto]] {
        guard !ids.isEmpty else { return [:] }
        var photos: [Int64: [SyncPhoto]] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT ep.entry_id, s.place, ep.file_name FROM entry_photo ep JOIN sync_photo s ON s.photo = ep.photo
            WHERE ep.entry_id IN (\(ids.map(String.init).joined(separator: ","))) ORDER BY ep.entry_id, ep.position
            """)
        while let row = try rows.next() {
            photos[row["entry_id"], default: []].append(SyncPhoto(name: row["place"], file: row["file_name"]))
        }
        return photos
    }

    /// An applied change's photos, as this journal keeps them (each was fetched before).
    static func localPhotos(_ photos: [SyncPhoto], _ db: Database) throws -> [EntryPhoto] {
        try photos.compactMap { photo in
            try String.fetchOne(db, sql: "SELECT photo FROM sync_photo WHERE place = ? LIMIT 1", arguments: [photo.name])
                .map { EntryPhoto(id: $0, fileName: photo.file) }
        }
    }

    /// Of the photos at the place (`listed`), those no entry here names: noted with the time
    /// first seen so (kept while named again). Returns those unnamed since before `before`.
    func unusedPlacePhotos(listed: Set<String>, before: Date, now: Date = Date()) throws(JournalError) -> [String] {
        try writing { db in
            let named = Set(try String.fetchAll(db, sql: "SELECT s.place FROM sync_photo s JOIN entry_photo ep ON ep.photo = s.photo"))
            let unused = listed.subtracting(named)
            try db.execute(sql: "DELETE FROM sync_photo_unused WHERE place NOT IN (SELECT value FROM json_each(?))",
                           arguments: [String(decoding: (try? JSONEncoder().encode(Array(unused))) ?? Data("[]".utf8), as: UTF8.self)])
            for place in unused {
                try db.execute(sql: "INSERT OR IGNORE INTO sync_photo_unused (place, since) VALUES (?, ?)", arguments: [place, now])
            }
            return try String.fetchAll(db, sql: "SELECT place FROM sync_photo_unused WHERE since < ?", arguments: [before])
        }
    }

    func forgetUnusedPlacePhoto(_ place: String) throws(JournalError) {
        try writing { db in try db.execute(sql: "DELETE FROM sync_photo_unused WHERE place = ?", arguments: [place]) }
    }
}
