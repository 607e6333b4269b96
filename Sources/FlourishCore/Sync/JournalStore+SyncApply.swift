import Foundation
import GRDB

/// What applying other machines' batches did.
public struct SyncReceipt: Sendable, Equatable {
    /// Changes that changed this journal (entries added, edited or deleted; tags).
    public var received = 0
    /// Versions of entries that lost a conflict, kept as earlier versions.
    public var conflicts = 0
}

extension JournalStore {
    /// Applies a batch of another machine's, whole or not at all, and records it as applied. A
    /// batch that opened with the key but does not hold what Flourish writes is refused whole.
    func apply(_ batch: SyncBatch, fileName: String) throws(SyncError) -> SyncReceipt {
        try apply(batch.changes, extras: SyncExtras(batch), fileName: fileName, fromSnapshot: false,
                  holding: [(batch.machine, batch.number)])
    }

    /// Applies changes in one transaction, the measures' first, then the templates and words,
    /// and records the batches they hold as applied.
    func apply(_ changes: [SyncChange], extras: SyncExtras = SyncExtras(), fileName: String, fromSnapshot: Bool,
               holding batches: [(machine: String, number: Int)]) throws(SyncError) -> SyncReceipt {
        do {
            return try writing { db in
                let sent = try Self.syncState(db)?.sent ?? 0
                // The triggers leave what is applied here out of this machine's own changes.
                try db.execute(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES ('applying', '1')")
                var applier = SyncApplier(db: db, sent: sent, fromSnapshot: fromSnapshot)
                // A measure's change among the entries', or anything else among the measures',
                // is not what Flourish writes.
                guard extras.isWellFormed(besides: changes) else { throw JournalError.other(reason: Self.invalidBatch) }
                for change in extras.measures { try applier.applyMeasure(change) }
                for change in extras.templates { try applier.applyTemplate(change) }
                for word in extras.words { try applier.applyWord(word) }
                for change in changes { try applier.apply(change) }
                try db.execute(sql: "DELETE FROM sync_state WHERE key = 'applying'")
                let record = try db.makeStatement(sql: "INSERT OR IGNORE INTO sync_applied (machine, batch) VALUES (?, ?)")
                for (machine, number) in batches { try record.execute(arguments: [machine, number]) }
                return applier.receipt
            }
        } catch .other(let reason) where reason == Self.invalidBatch {
            throw .refusedFile(name: fileName)
        } catch {
            throw .other(reason: error.errorDescription ?? "\(error)")
        }
    }

    /// The reason an invalid change gives, inside the transaction it ends.
    static let invalidBatch = "a batch that is not Flourish's"
}

/// Applies one machine's changes inside a transaction: per entry the later change wins (by its
/// stamp, the edit time or else the creation time; a tie goes to the greater content, the same
/// on every machine), and the version that lost to an edit made beside it is kept in
/// `entry_version`, here and, through the next batch, on every machine.
struct SyncApplier {
    let db: Database
    let sent: Int64
    /// A snapshot carries no bases: whether a version was made beside this machine's is told
    /// by this machine's own unsent edit, if it has one.
    let fromSnapshot: Bool
    var receipt = SyncReceipt()

    init(db: Database, sent: Int64, fromSnapshot: Bool) {
        self.db = db
        self.sent = sent
        self.fromSnapshot = fromSnapshot
    }

    mutating func apply(_ change: SyncChange) throws {
        switch change.kind {
        case .entry: try applyEntry(change)
        case .deleted: try applyDeletion(change)
        case .version: if try keep(change, send: false) { receipt.conflicts += 1 }
        case .tag:
            let name = try name(change.name), at = try time(change.at)
            // Said before the name went here (renamed, merged or deleted): the tag as it is now.
            if let gone = try gone(name), stamp(gone.at) >= stamp(at) { return }
            // Made again after its name went: the name is a tag again.
            try db.execute(sql: "DELETE FROM sync_tag_gone WHERE key = ?", arguments: [TagName.key(name)])
            // A tag here already keeps its own time: the other machine may only hold a copy
            // (a machine that joins sends every tag it has).
            if try !exists(name) {
                _ = try tagID(named: name)
                try recordMade(name, at: at)
            }
        case .rename:
            let (old, new, at) = (try name(change.name), try name(change.to), try time(change.at))
            if try alreadyGone(old, at: at) || madeSince(old, at: at) { return }
            let isNew = try !exists(new)
            try rename(old, to: new)
            if isNew { try recordMade(new, at: at) }
            if TagName.key(old) != TagName.key(new) { try markGone(old, at: at, renamedTo: new) }
        case .deleteTag:
            let (name, at) = (try name(change.name), try time(change.at))
            if try alreadyGone(name, at: at) || madeSince(name, at: at) { return }
            try db.execute(sql: "DELETE FROM tag WHERE key = ?", arguments: [TagName.key(name)])
            receipt.received += db.changesCount
            try markGone(name, at: at, renamedTo: nil)
        case .mergeTag:
            let (source, target, at) = (try name(change.name), try name(change.to), try time(change.at))
            if try madeSince(source, at: at) { return }
            try merge(source, into: target)
            try markGone(source, at: at, renamedTo: target)
        case .measure, .deleteMeasure, .template, .deleteTemplate, .word:
            throw JournalError.other(reason: JournalStore.invalidBatch)
        }
    }

    // MARK: - Entries

    private mutating func applyEntry(_ remote: SyncChange) throws {
        let uuid = try valid(remote)
        if let revivedAt = remote.revivedAt {
            // Kept, so that a deletion stamped before it and heard of later leaves the entry.
            try db.execute(sql: """
                INSERT INTO sync_revival (uuid, revived_at) VALUES (?, ?)
                ON CONFLICT (uuid) DO UPDATE SET revived_at = max(revived_at, excluded.revived_at)
                """, arguments: [uuid, try time(revivedAt)])
        }
        guard let found = try localEntry(uuid) else {
            if let deletedAt = try tombstone(uuid), stamp(deletedAt) >= max(stamp(remote), remote.revivedAt.map(stamp) ?? 0) {
                // Deleted here after this version was made: an edit it carries is still kept.
                if remote.updatedAt != nil, try keep(remote, send: false) { receipt.conflicts += 1 }
                return
            }
            try write(remote, over: nil)
            try db.execute(sql: "DELETE FROM sync_tombstone WHERE uuid = ?", arguments: [uuid])
            receipt.received += 1
            return
        }
        // A row that cannot be read (edited by hand) is left exactly as it is.
        guard let change = found.change else { return }
        let local = (id: found.id, change: change)
        guard canonical(local.change) != canonical(remote) else {
            // The same version here already (sent back by a machine that just joined, say):
            // nothing of this machine's is left to send for it.
            try dropPending(uuid)
            return
        }
        let concurrent = try madeBeside(remote, local: local.change)
        if wins(remote, over: local.change) {
            if concurrent {
                // This machine's unsent edit lost: it travels as the earlier version it now is.
                if try keep(local.change, send: try isPending(uuid)) { receipt.conflicts += 1 }
            }
            try dropPending(uuid)
            try write(remote, over: local.id)
            receipt.received += 1
        } else if concurrent {
            if try keep(remote, send: false) { receipt.conflicts += 1 }
        }
    }

    private mutating func applyDeletion(_ remote: SyncChange) throws {
        guard let uuid = remote.uuid, !uuid.isEmpty, let deletedAt = remote.deletedAt, StoredDate.parse(.string(deletedAt)) != nil
        else { throw JournalError.other(reason: JournalStore.invalidBatch) }
        if let found = try localEntry(uuid) {
            guard let change = found.change else { return }
            let local = (id: found.id, change: change)
            // Edited, or put back by an Undo, after it was deleted elsewhere: it stands (and travels).
            let revivedAt = try String.fetchOne(db, sql: "SELECT revived_at FROM sync_revival WHERE uuid = ?", arguments: [uuid])
            guard max(stamp(local.change), revivedAt.map(stamp) ?? 0) <= stamp(deletedAt) else { return }
            if try isPending(uuid) {
                if try keep(local.change, send: true) { receipt.conflicts += 1 }
                try dropPending(uuid)
            }
            try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [local.id])
            receipt.received += 1
        }
        try db.execute(sql: """
            INSERT INTO sync_tombstone (uuid, deleted_at) VALUES (?, ?)
            ON CONFLICT (uuid) DO UPDATE SET deleted_at = max(deleted_at, excluded.deleted_at)
            """, arguments: [uuid, deletedAt])
    }

    /// Whether `remote` was made beside the version here, rather than from it (a later edit)
    /// or before it.
    private func madeBeside(_ remote: SyncChange, local: SyncChange) throws -> Bool {
        guard fromSnapshot else { return remote.base != (local.updatedAt ?? local.createdAt) }
        // Only an edit not sent yet can have been made beside a version another machine had; it
        // was, unless it was made from that very version.
        guard let edit = try Row.fetchOne(db, sql: """
            SELECT detail FROM sync_change WHERE name = ? AND kind IN ('entry', 'revived') AND seq > ? ORDER BY seq LIMIT 1
            """, arguments: [remote.uuid, sent]) else { return false }
        let base: String? = edit["detail"]
        return base == nil || base != (remote.updatedAt ?? remote.createdAt)
    }

    /// Whether `remote` is the version to keep: the later stamp, or on a tie the greater content.
    private func wins(_ remote: SyncChange, over local: SyncChange) -> Bool {
        let (remoteStamp, localStamp) = (stamp(remote), stamp(local))
        return remoteStamp != localStamp ? remoteStamp > localStamp : canonical(remote) > canonical(local)
    }

    private func stamp(_ change: SyncChange) -> Int64 {
        stamp(change.updatedAt ?? change.createdAt ?? "")
    }

    func stamp(_ text: String) -> Int64 {
        StoredDate.parse(.string(text)).map { ExportedTime($0).milliseconds } ?? 0
    }

    /// The entry's content, the same text on every machine for the same version.
    private func canonical(_ change: SyncChange) -> String {
        var content = SyncChange(kind: .entry)
        (content.uuid, content.title, content.body, content.mood) = (change.uuid, change.title, change.body, change.mood)
        (content.createdAt, content.updatedAt) = (change.createdAt, change.updatedAt)
        (content.latitude, content.longitude, content.accuracy) = (change.latitude, change.longitude, change.accuracy)
        content.tags = (change.tags ?? []).map(TagName.key).sorted()
        // No photos and a Flourish that says nothing of photos read the same.
        content.photos = (change.photos ?? []).isEmpty ? nil : change.photos
        // No values and a Flourish that says nothing of measures read the same.
        content.measures = (change.measures ?? [:]).isEmpty ? nil : change.measures
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(content)) ?? Data(), as: UTF8.self)
    }

    private func dropPending(_ uuid: String) throws {
        try db.execute(sql: "DELETE FROM sync_change WHERE name = ? AND kind IN ('entry', 'revived') AND seq > ?", arguments: [uuid, sent])
    }

    private func isPending(_ uuid: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM sync_change WHERE name = ? AND kind IN ('entry', 'revived') AND seq > ?",
                          arguments: [uuid, sent]) ?? false
    }

    /// The entry here with this uuid, if there is one; its change is nil when its row cannot be read.
    private func localEntry(_ uuid: String) throws -> (id: Int64, change: SyncChange?)? {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM entry WHERE uuid = ?", arguments: [uuid]) else { return nil }
        return (id, try JournalStore.syncEntries(uuids: [uuid], db)[uuid])
    }

    private func tombstone(_ uuid: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT deleted_at FROM sync_tombstone WHERE uuid = ?", arguments: [uuid])
    }

    /// Writes the entry as it came, its dates as they were stored where it was made.
    private mutating func write(_ change: SyncChange, over id: Int64?) throws {
        let values: [DatabaseValueConvertible?] = [change.title, change.body, change.mood, change.createdAt, change.updatedAt,
                                                   change.latitude, change.longitude, change.accuracy]
        let entryID: Int64
        if let id {
            try db.execute(sql: """
                UPDATE entry SET title = ?, body = ?, mood = ?, created_at = ?, updated_at = ?,
                latitude = ?, longitude = ?, accuracy = ? WHERE id = ?
                """, arguments: StatementArguments(values + [id]))
            entryID = id
        } else {
            try db.execute(sql: """
                INSERT INTO entry (title, body, mood, created_at, updated_at, latitude, longitude, accuracy, uuid)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: StatementArguments(values + [change.uuid]))
            entryID = db.lastInsertedRowID
        }
        var tagIDs: Set<Int64> = []
        for name in change.tags ?? [] {
            if let current = try current(try self.name(name)) { tagIDs.insert(try tagID(named: current)) }
        }
        try JournalStore.setTags(tagIDs, forEntry: entryID, db)
        // Fetched before the batch was applied (`JournalSync.fetchPhotos`); nil leaves them.
        if let photos = change.photos { try JournalStore.setPhotos(try JournalStore.localPhotos(photos, db), forEntry: entryID, db) }
        // Nil (a Flourish before measures) leaves them; a measure not here (deleted) is left out.
        if let values = change.measures { try JournalStore.setMeasures(try localValues(values), forEntry: entryID, db) }
    }

    /// Keeps `change` as an earlier version of its entry, once; with `send`, it travels in this
    /// machine's next batch. Returns whether it was new here.
    private func keep(_ change: SyncChange, send: Bool) throws -> Bool {
        _ = try valid(change)
        // An entry as first written is where every later version comes from, never one made
        // beside another: it is not kept, whichever order the versions arrive in.
        guard change.updatedAt != nil else { return false }
        let tags = (change.tags ?? []).joined(separator: "\n")
        let same = try Bool.fetchOne(db, sql: """
            SELECT 1 FROM entry_version WHERE entry_uuid = ? AND title = ? AND body = ? AND mood IS ? AND created_at = ?
            AND updated_at IS ? AND tags = ?
            """, arguments: [change.uuid, change.title, change.body, change.mood, change.createdAt, change.updatedAt, tags]) ?? false
        guard !same else { return false }
        let photos = EntryPhoto.text(try JournalStore.localPhotos(change.photos ?? [], db))
        try db.execute(sql: """
            INSERT INTO entry_version (entry_uuid, title, body, mood, created_at, updated_at, latitude, longitude, accuracy, tags, kept_at, photos,
                                       measures)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%d %H:%M:%f', 'now'), ?, ?)
            """, arguments: [change.uuid, change.title, change.body, change.mood, change.createdAt, change.updatedAt,
                             change.latitude, change.longitude, change.accuracy, tags, photos, MeasureValues.text(byUUID: change.measures ?? [:])])
        if send {
            try db.execute(sql: "INSERT INTO sync_change (kind, name) VALUES ('version', ?)", arguments: [String(db.lastInsertedRowID)])
        }
        return true
    }

    /// The uuid of an entry change that holds what an entry must; anything else refuses the batch.
    private func valid(_ change: SyncChange) throws -> String {
        guard let uuid = change.uuid, !uuid.isEmpty, change.title != nil, change.body != nil,
              change.mood.map({ Mood(rawValue: $0) != nil }) ?? true, // null: an entry without a mood
              let createdAt = change.createdAt, StoredDate.parse(.string(createdAt)) != nil,
              change.updatedAt.map({ StoredDate.parse(.string($0)) != nil }) ?? true,
              (change.photos ?? []).allSatisfy(\.isValid), (change.measures ?? [:]).values.allSatisfy(\.isFinite)
        else { throw JournalError.other(reason: JournalStore.invalidBatch) }
        return uuid
    }

    // MARK: - Tags

    func time(_ text: String?) throws -> String {
        guard let text, StoredDate.parse(.string(text)) != nil else { throw JournalError.other(reason: JournalStore.invalidBatch) }
        return text
    }

    private func gone(_ name: String) throws -> (at: String, renamedTo: String?)? {
        try Row.fetchOne(db, sql: "SELECT gone_at, renamed_to FROM sync_tag_gone WHERE key = ?", arguments: [TagName.key(name)])
            .map { ($0["gone_at"], $0["renamed_to"]) }
    }

    /// For a snapshot's tags gone: whether this machine has the name gone already, as late or
    /// later. A tag of that name here is renamed, merged or deleted as a batch would have done
    /// (a joining machine's own "work" follows the journal's rename of "work").
    private func alreadyGone(_ name: String, at: String) throws -> Bool {
        guard fromSnapshot, let gone = try gone(name) else { return false }
        return stamp(gone.at) >= stamp(at)
    }

    /// Whether the tag of this name here was made after `at`: a rename, merge or deletion from
    /// then was meant for an older tag of the same name, gone since, and leaves this one.
    private func madeSince(_ name: String, at: String) throws -> Bool {
        guard let made = try String.fetchOne(db, sql: "SELECT made_at FROM sync_tag_made WHERE key = ?", arguments: [TagName.key(name)])
        else { return false }
        return stamp(made) > stamp(at)
    }

    private func exists(_ name: String) throws -> Bool {
        try existingTagID(name) != nil
    }

    /// The id of the tag here with this name, in any case.
    private func existingTagID(_ name: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM tag WHERE key = ?", arguments: [TagName.key(name)])
    }

    private func recordMade(_ name: String, at: String) throws {
        try db.execute(sql: """
            INSERT INTO sync_tag_made (key, made_at) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET made_at = max(made_at, excluded.made_at)
            """, arguments: [TagName.key(name), at])
    }

    private func markGone(_ name: String, at: String, renamedTo: String?) throws {
        if let gone = try gone(name), stamp(gone.at) > stamp(at) { return }
        try db.execute(sql: "INSERT OR REPLACE INTO sync_tag_gone (key, gone_at, renamed_to) VALUES (?, ?, ?)",
                       arguments: [TagName.key(name), at, renamedTo])
    }

    /// The tag an entry means by `name`: the name it was renamed or merged to, or nil when it
    /// was deleted. Whatever the entry's stamp, so that every machine, whichever order it hears
    /// of the rename and the entry in, files the entry under the same tag.
    private func current(_ name: String) throws -> String? {
        var name = name
        // A few steps at most: a chain of renames is short, and a loop must not hang a sync.
        for _ in 0..<8 {
            guard let gone = try gone(name) else { return name }
            guard let next = gone.renamedTo else { return nil }
            name = next
        }
        return name
    }

    private func name(_ text: String?) throws -> String {
        guard let text, case .success(let name) = TagName.validated(text) else {
            throw JournalError.other(reason: JournalStore.invalidBatch)
        }
        return name
    }

    private mutating func tagID(named name: String) throws -> Int64 {
        if let id = try existingTagID(name) { return id }
        try db.execute(sql: "INSERT INTO tag (name, key) VALUES (?, ?)", arguments: [name, TagName.key(name)])
        receipt.received += 1
        return db.lastInsertedRowID
    }

    private mutating func rename(_ old: String, to new: String) throws {
        guard let source = try existingTagID(old) else {
            _ = try tagID(named: new)
            return
        }
        let target = try existingTagID(new)
        if let target, target != source {
            try merge(old, into: new)
        } else {
            try db.execute(sql: "UPDATE tag SET name = ?, key = ? WHERE id = ?", arguments: [new, TagName.key(new), source])
            receipt.received += db.changesCount
        }
    }

    private mutating func merge(_ source: String, into target: String) throws {
        guard let from = try existingTagID(source) else { return }
        let into = try tagID(named: target)
        guard from != into else { return }
        try db.execute(sql: "INSERT OR IGNORE INTO entry_tag (entry_id, tag_id) SELECT entry_id, ? FROM entry_tag WHERE tag_id = ?",
                       arguments: [into, from])
        try db.execute(sql: "DELETE FROM tag WHERE id = ?", arguments: [from])
        receipt.received += 1
    }
}
