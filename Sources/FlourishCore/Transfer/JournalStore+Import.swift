import Foundation
import GRDB

/// What an import will do, said before anything is written.
public struct ImportSummary: Sendable, Equatable {
    /// Entries in the file.
    public let entries: Int
    /// Of those, already in the journal (the same uuid), or twice in the file: left as they are.
    public let already: Int
    /// Distinct tags the new entries carry, and how many of them the journal does not have yet.
    public let tags: Int
    public let newTags: Int
    /// Distinct photos the new entries carry, brought with them.
    public let photos: Int

    public init(entries: Int, already: Int, tags: Int, newTags: Int, photos: Int = 0) {
        self.entries = entries
        self.already = already
        self.tags = tags
        self.newTags = newTags
        self.photos = photos
    }

    /// Entries the import adds.
    public var adding: Int { entries - already }
}

/// What an import wrote, for undoing it right after.
public struct ImportReceipt: Sendable, Equatable {
    public let entryIDs: [Int64]
    /// Tags the import made (those it found are left alone by an undo).
    public let tagIDs: [Int64]
    /// Distinct photos the entries added carry (kept once each, and let go at a later start
    /// once an undo leaves no entry carrying them).
    public let photos: Int
    /// Measures the import made (those it found are left alone by an undo).
    public var measureIDs: [Int64] = []
    /// Templates the import added (one whose uuid the journal had stays as it was).
    public var templateIDs: [Int64] = []
}

extension JournalStore {
    public func importSummary(_ entries: [ImportedEntry]) throws(JournalError) -> ImportSummary {
        try reading { db in
            let plan = try Self.plan(entries, db)
            return ImportSummary(entries: entries.count, already: entries.count - plan.adding.count, tags: plan.tagNames.count,
                                 newTags: plan.tagNames.count - plan.existingTags.count,
                                 photos: Set(plan.adding.flatMap { $0.photos.map(\.source) }).count)
        }
    }

    /// Adds the entries not in the journal yet (by uuid or alias), with their tags (made when the journal
    /// has no tag of that name, in any case) and photos, in one transaction: all or nothing.
    ///
    /// The new entries' photos are kept first, one at a time, each read from the file and written
    /// durably (sealed) before the transaction that names them, as a form saves its photos
    /// before its entry: a failure leaves at most photos no entry names, let go at a later start.
    /// A picture two entries share, or that the journal has already, is kept once.
    public func importEntries(_ entries: [ImportedEntry], tags extraTags: [String] = [],
                              measures: [ImportedMeasure] = [], templates: [ImportedTemplate] = []) throws(JournalError) -> ImportReceipt {
        let kept = entries.contains { !$0.photos.isEmpty } ? try keepPhotos(of: try reading { db in try Self.plan(entries, db).adding }) : [:]
        return try writing { db in
            var plan = try Self.plan(entries, db, extraTags: extraTags)
            // Only an entry removed since the photos were kept (by another Flourish) can lack
            // them here: it is left for the next import rather than saved without its photos.
            plan.adding.removeAll { $0.photos.contains { kept[$0.source] == nil } }
            var tagIDs = plan.existingTags
            var made: [Int64] = []
            for (key, name) in plan.tagNames where tagIDs[key] == nil {
                try db.execute(sql: "INSERT INTO tag (name, key) VALUES (?, ?)", arguments: [name, key])
                tagIDs[key] = db.lastInsertedRowID
                made.append(db.lastInsertedRowID)
            }
            var ids: [Int64] = []
            ids.reserveCapacity(plan.adding.count)
            // Prepared once: a statement compiled for each of 100,000 entries took most of the time.
            let insert = try db.cachedStatement(sql: """
                INSERT INTO entry (title, body, mood, created_at, latitude, longitude, accuracy, uuid, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let tag = try db.cachedStatement(sql: "INSERT INTO entry_tag (entry_id, tag_id) VALUES (?, ?)")
            let (measureIDs, madeMeasures) = try Self.importedMeasures(measures, valuesIn: plan.adding, db)
            for entry in plan.adding {
                try insert.execute(arguments: [entry.title, entry.body, entry.mood?.rawValue, entry.createdAt.stored,
                                               entry.location?.latitude, entry.location?.longitude, entry.location?.accuracy,
                                               entry.uuid, entry.updatedAt?.stored])
                let id = db.lastInsertedRowID
                ids.append(id)
                for tagID in Set(entry.tags.compactMap { Self.importedTag($0).flatMap { tagIDs[$0.key] } }).sorted() {
                    try tag.execute(arguments: [id, tagID])
                }
                let photos = entry.photos.compactMap { photo in
                    kept[photo.source].map { EntryPhoto(id: $0.id, fileName: Self.shownName(photo.fileName, format: $0.format)) }
                }
                if !photos.isEmpty { try Self.setPhotos(photos, forEntry: id, db) }
                if !entry.measures.isEmpty {
                    var values: [Int64: Double] = [:]
                    for (name, value) in entry.measures { if let measure = measureIDs[MeasureDefinition.key(name)] { values[measure] = value } }
                    try Self.setMeasures(values, forEntry: id, db)
                }
            }
            var receipt = ImportReceipt(entryIDs: ids, tagIDs: made.sorted(), photos: Set(plan.adding.flatMap { $0.photos.map(\.source) }).count)
            receipt.measureIDs = madeMeasures
            receipt.templateIDs = try Self.importedTemplates(templates, db)
            return receipt
        }
    }

    /// Keeps each distinct photo of `entries`, read from its file one at a time; returns each
    /// one's stored name and kind.
    private func keepPhotos(of entries: [ImportedEntry]) throws(JournalError) -> [ImportedPhoto.Source: (id: String, format: PhotoFormat)] {
        var kept: [ImportedPhoto.Source: (id: String, format: PhotoFormat)] = [:]
        for photo in entries.lazy.flatMap(\.photos) where kept[photo.source] == nil {
            let bytes = try photo.bytes()
            guard let format = PhotoFormat.of(bytes) else { throw .notAPicture(name: photo.fileName) }
            kept[photo.source] = (try addPhoto(bytes, fileName: photo.fileName).id, format)
        }
        return kept
    }

    /// Takes an import back: its entries, and the tags it made that no other entry has taken
    /// since, in one transaction.
    public func undoImport(_ receipt: ImportReceipt) throws(JournalError) {
        try writing { db in
            for chunk in stride(from: 0, to: receipt.entryIDs.count, by: 500) {
                let ids = receipt.entryIDs[chunk..<min(receipt.entryIDs.count, chunk + 500)].map(String.init).joined(separator: ",")
                try db.execute(sql: "DELETE FROM entry WHERE id IN (\(ids))")
            }
            for tag in receipt.tagIDs {
                try db.execute(sql: "DELETE FROM tag WHERE id = ? AND NOT EXISTS (SELECT 1 FROM entry_tag WHERE tag_id = ?)", arguments: [tag, tag])
            }
            for template in receipt.templateIDs { try db.execute(sql: "DELETE FROM template WHERE id = ?", arguments: [template]) }
            for measure in receipt.measureIDs {
                try db.execute(sql: "DELETE FROM measure WHERE id = ? AND NOT EXISTS (SELECT 1 FROM entry_measure WHERE measure_id = ?)",
                               arguments: [measure, measure])
            }
        }
    }

    private struct Plan {
        var adding: [ImportedEntry] = []
        /// Every tag the new entries carry (and the file's own list), by key, as first written.
        var tagNames: [String: String] = [:]
        /// Those the journal has, by key.
        var existingTags: [String: Int64] = [:]
    }

    /// A name as a tag's (trimmed, one line, at most 40 characters), or nil for a blank one.
    static func importedTag(_ name: String) -> (key: String, name: String)? {
        var cleaned = name.oneLine.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !cleaned.isEmpty else { return nil }
        if cleaned.count > TagName.maximumLength { cleaned = String(cleaned.prefix(TagName.maximumLength)).trimmingCharacters(in: .whitespaces) }
        return (TagName.key(cleaned), cleaned)
    }

    private static func plan(_ entries: [ImportedEntry], _ db: Database, extraTags: [String] = []) throws -> Plan {
        var plan = Plan()
        var known = Set<String>()
        let existingUUIDs = try Set(String.fetchAll(db, sql: "SELECT uuid FROM entry"))
        // An entry is there already by its uuid, or by one of its aliases (a Daylio entry
        // imported before from the other kind of Daylio file).
        for entry in entries where !existingUUIDs.contains(entry.uuid) && !entry.aliases.contains(where: existingUUIDs.contains)
            && known.insert(entry.uuid).inserted {
            plan.adding.append(entry)
            for tag in entry.tags {
                guard let (key, name) = importedTag(tag) else { continue }
                if plan.tagNames[key] == nil { plan.tagNames[key] = name }
            }
        }
        for tag in extraTags {
            guard let (key, name) = importedTag(tag) else { continue }
            if plan.tagNames[key] == nil { plan.tagNames[key] = name }
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, key FROM tag") {
            let key: String = row["key"]
            if plan.tagNames[key] != nil { plan.existingTags[key] = row["id"] }
        }
        return plan
    }
}
