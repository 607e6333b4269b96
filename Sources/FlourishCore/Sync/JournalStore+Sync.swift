import Foundation
import GRDB

/// What the journal knows of its sync: kept in `sync_state` (see `JournalSchema.addSync`).
public struct SyncState: Sendable, Equatable {
    /// The journal's id at the place (from its key file).
    public let journal: String
    /// Where it syncs: a folder's path or a server's address (never with a password).
    public let place: String
    /// This machine's id: the name of every batch it writes.
    public let machine: String
    /// The journal file this machine id belongs to (device and inode) and the computer it is on
    /// (`ComputerIdentity`): a copy of the file, a backup put back, or the same file on a cloned
    /// disk in another computer, takes a machine id of its own.
    let file: String
    let nextBatch: Int
    /// The change log is sent up to here.
    let sent: Int64
}

/// The store's side of sync: the state, what to send, and applying what other machines sent,
/// each batch in one transaction.
extension JournalStore {
    public func syncState() throws(JournalError) -> SyncState? {
        try reading { db in try Self.syncState(db) }
    }

    static func syncState(_ db: Database) throws -> SyncState? {
        let values = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM sync_state").map {
            ($0["key"] as String, $0["value"] as String)
        })
        guard let journal = values["journal"], let place = values["place"], let machine = values["machine"] else { return nil }
        return SyncState(journal: journal, place: place, machine: machine, file: values["file"] ?? "",
                         nextBatch: values["next"].flatMap(Int.init) ?? 1, sent: values["sent"].flatMap(Int64.init) ?? 0)
    }

    /// Turns sync on: everything in the journal is queued to be sent once, as this new machine's.
    func startSync(journal: String, place: String) throws(JournalError) {
        try writing { db in
            try Self.forgetSync(db)
            try Self.setState(["journal": journal, "place": place], db)
            try Self.becomeNewMachine(file: fileIdentity(), db)
        }
    }

    /// Turns sync off on this machine: the place, the machine's id and the change log are
    /// forgotten. The entries, and the earlier versions conflicts kept, stay.
    public func stopSync() throws(JournalError) {
        try writing { db in
            try Self.forgetSync(db)
        }
    }

    /// The state, with a new machine id first when the journal file is not the one its machine
    /// id was made for (a copy, or a backup put back): such a file must not write as the machine
    /// it came from. Everything in it is then queued to be sent, as the new machine's.
    func syncStateForThisFile() throws(JournalError) -> SyncState? {
        let file = fileIdentity()
        return try writing { db in
            guard let state = try Self.syncState(db) else { return nil }
            guard state.file != file else { return state }
            // Recorded by a Flourish before the computer was part of it: the same file on the
            // same disk, now recorded with its computer.
            if !state.file.contains("@"), file.hasPrefix(state.file + "@") {
                try Self.setState(["file": file], db)
                return try Self.syncState(db)
            }
            try Self.becomeNewMachine(file: file, db)
            return try Self.syncState(db)
        }
    }

    /// A file at the place under this machine's name that it did not write (`JournalSync.checkOwn`):
    /// another computer writes as this machine, a twin (a disk cloned with its machine id, or
    /// the file copied over this one in place, keeping its inode). This journal takes a new
    /// machine id; the old one's files are then another machine's, read as any other.
    func becomeNewMachine() throws(JournalError) -> SyncState? {
        try writing { db in
            guard try Self.syncState(db) != nil else { return nil }
            try Self.becomeNewMachine(file: fileIdentity(), db)
            return try Self.syncState(db)
        }
    }

    /// Noted before a file of this machine's goes to the place, committed: its name and the
    /// digest of its sealed bytes, so that a sync cut off before recording it knows the file as
    /// its own afterwards, and any other file under its name as a twin's. Every try is kept until
    /// the name is recorded: a write that timed out may still land after a later sync wrote the
    /// name again (and was refused it), and either's bytes may be what the place holds.
    func recordWriting(name: String, digest: String) throws(JournalError) {
        try writing { db in try Self.setState([Self.writingNotes(of: name) + digest: "1", "digests": "1"], db) }
    }

    /// Whether `name` holding bytes of `digest` is a file this machine began to write.
    func wasWriting(name: String, digest: String) throws(JournalError) -> Bool {
        try reading { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_state WHERE key = ?)", arguments: [Self.writingNotes(of: name) + digest]) ?? false
        }
    }

    /// Whether this journal notes what it writes (`recordWriting`): not yet after an upgrade from
    /// a Flourish that did not, whose own cut-off file would otherwise look like a twin's.
    func notesWhatItWrites() throws(JournalError) -> Bool {
        try reading { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_state WHERE key = 'digests')") ?? false }
    }

    /// The notes of `name`'s writes, once it is recorded as this machine's.
    static func forgetWriting(_ name: String, _ db: Database) throws {
        try forgetNotes(startingWith: writingNotes(of: name), db)
    }

    /// How the key of each note of a write begins ("writing <name> ", the digest after it): for
    /// `name`'s notes, or without a name for every note.
    private static func writingNotes(of name: String? = nil) -> String {
        name.map { "writing \($0) " } ?? "writing "
    }

    private static func forgetNotes(startingWith prefix: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_state WHERE substr(key, 1, ?) = ?", arguments: [prefix.utf8.count, prefix])
    }

    /// Empties every table of sync's but the earlier versions kept, which are the journal's.
    private static func forgetSync(_ db: Database) throws {
        for table in ["sync_state", "sync_change", "sync_tombstone", "sync_tag_gone", "sync_applied", "sync_revival", "sync_tag_made",
                      "sync_photo", "sync_photo_unused", "sync_measure_gone", "sync_template_gone"] {
            try db.execute(sql: "DELETE FROM \(table)")
        }
    }

    static func becomeNewMachine(file: String, _ db: Database) throws {
        let machine = Sodium.random(8).map { String(format: "%02x", $0) }.joined()
        // A new machine has no snapshot of its own yet: its old id's are another machine's now.
        try setState(["machine": machine, "file": file, "next": "1", "sent": "0", "snapshot": "0"], db)
        try forgetNotes(startingWith: writingNotes(), db)
        // Everything is queued again as it is now; what only a log row says (a rename, a merge, a
        // deletion of a tag, an earlier version to send) stays queued.
        try db.execute(sql: "DELETE FROM sync_change WHERE kind IN ('entry', 'revived', 'deleted', 'tag', 'measure', 'template', 'word')")
        try db.execute(sql: "INSERT INTO sync_change (kind, name) SELECT 'measure', uuid FROM sync_measure_gone")
        try db.execute(sql: "INSERT INTO sync_change (kind, name) SELECT 'measure', uuid FROM measure ORDER BY position, id")
        try db.execute(sql: "INSERT INTO sync_change (kind, name) SELECT 'template', uuid FROM sync_template_gone")
        // A starter template never changed is every machine's already, each in its own language.
        try db.execute(sql: "INSERT INTO sync_change (kind, name) SELECT 'template', uuid FROM template WHERE changed_at != ? ORDER BY position, id",
                       arguments: [longAgo])
        try db.execute(sql: "INSERT INTO sync_change (kind, name) SELECT 'word', word FROM own_word ORDER BY word")
        try db.execute(sql: "INSERT INTO sync_change (kind, name) SELECT 'tag', name FROM tag ORDER BY id")
        try db.execute(sql: "INSERT INTO sync_change (kind, name) SELECT 'entry', uuid FROM entry ORDER BY id")
        try db.execute(sql: "INSERT INTO sync_change (kind, name) SELECT 'deleted', uuid FROM sync_tombstone")
    }

    /// "device:inode@computer" of the journal file (see `ComputerIdentity`).
    func fileIdentity() -> String {
        var status = stat()
        guard stat(file, &status) == 0 else { return "" }
        return "\(status.st_dev):\(status.st_ino)@\(ComputerIdentity.current())"
    }

    static func setState(_ values: [String: String], _ db: Database) throws {
        for (key, value) in values {
            try db.execute(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    // MARK: - Sending

    /// Everything changed since the last batch, in the order it changed (an entry at its latest
    /// change, as it is now), and how far the change log goes.
    func pendingChanges() throws(JournalError) -> (changes: [SyncChange], upTo: Int64) {
        try reading { db in
            let sent = try Self.syncState(db)?.sent ?? 0
            let rows = try Row.fetchAll(db, sql: "SELECT seq, kind, name, detail, at FROM sync_change WHERE seq > ? ORDER BY seq", arguments: [sent])
            guard let upTo = rows.last?["seq"] as Int64? else { return ([], sent) }
            // Each entry once, where it last changed; its base is the version before its first change.
            var last: [String: Int] = [:]
            var base: [String: String] = [:]
            var revived: [String: String] = [:]
            for (index, row) in rows.enumerated() {
                let kind: String = row["kind"], name: String = row["name"], detail: String? = row["detail"]
                guard ["entry", "revived", "deleted"].contains(kind) else { continue }
                if last[name] == nil, kind == "entry", let detail { base[name] = detail }
                if kind == "revived", let detail { revived[name] = detail }
                last[name] = index
            }
            var lastMeasure: [String: Int] = [:], lastTemplate: [String: Int] = [:]
            for (index, row) in rows.enumerated() where row["kind"] as String == "measure" { lastMeasure[row["name"]] = index }
            for (index, row) in rows.enumerated() where row["kind"] as String == "template" { lastTemplate[row["name"]] = index }
            let entries = try Self.syncEntries(uuids: Array(last.keys), db)
            let tombstones = try Self.tombstones(uuids: Array(last.keys), db)
            var changes: [SyncChange] = []
            for (index, row) in rows.enumerated() {
                let kind: String = row["kind"], name: String = row["name"], detail: String? = row["detail"], at: String = row["at"]
                switch kind {
                case "tag":
                    // A tag renamed or deleted since says so in its own change.
                    if try Bool.fetchOne(db, sql: "SELECT 1 FROM tag WHERE key = ?", arguments: [TagName.key(name)]) ?? false {
                        changes.append(.tag(.tag, name, at: at))
                    }
                case "rename": changes.append(.tag(.rename, name, to: detail, at: at))
                case "delete-tag": changes.append(.tag(.deleteTag, name, at: at))
                case "merge-tag": changes.append(.tag(.mergeTag, name, to: detail, at: at))
                case "version":
                    if let id = Int64(name), let version = try Self.keptVersion(id: id, db) { changes.append(version) }
                case "measure":
                    // Once, at its last change, as it is now (or its deletion).
                    guard lastMeasure[name] == index, let change = try Self.measureChange(uuid: name, db) else { continue }
                    changes.append(change)
                case "template":
                    guard lastTemplate[name] == index, let change = try Self.templateChange(uuid: name, db) else { continue }
                    changes.append(change)
                case "word": changes.append(.word(name))
                default:
                    guard last[name] == index else { continue }
                    if var entry = entries[name] {
                        entry.base = base[name]
                        entry.revivedAt = revived[name]
                        changes.append(entry)
                    } else if let deletedAt = tombstones[name] {
                        changes.append(.deleted(name, at: deletedAt))
                    }
                    // Neither: a row that cannot be read stays on this machine as it is.
                }
            }
            return (changes, upTo)
        }
    }

    /// A batch this machine wrote: it is never applied here, and the next one gets the next number.
    func recordWritten(machine: String, batch: Int) throws(JournalError) {
        try writing { db in
            try db.execute(sql: "INSERT OR IGNORE INTO sync_applied (machine, batch) VALUES (?, ?)", arguments: [machine, batch])
            try Self.forgetWriting(SyncBatch.fileName(machine: machine, number: batch), db)
            let next = max(try Self.syncState(db)?.nextBatch ?? 1, batch + 1)
            try Self.setState(["next": String(next)], db)
        }
    }

    /// Every change up to `upTo` has reached the place: the log is trimmed.
    func recordSent(upTo: Int64) throws(JournalError) {
        try writing { db in
            try Self.setState(["sent": String(upTo)], db)
            try db.execute(sql: "DELETE FROM sync_change WHERE seq <= ?", arguments: [upTo])
        }
    }

    /// The batches already applied here (or written here), by file name.
    func appliedBatches() throws(JournalError) -> Set<String> {
        try reading { db in
            Set(try Row.fetchAll(db, sql: "SELECT machine, batch FROM sync_applied").map {
                SyncBatch.fileName(machine: $0["machine"], number: $0["batch"])
            })
        }
    }

    // MARK: - Reading entries as they travel

    /// The readable entries with these uuids, as changes, with their tags' names.
    static func syncEntries(uuids: [String], _ db: Database) throws -> [String: SyncChange] {
        var found: [String: SyncChange] = [:]
        for (marks, arguments) in inChunks(uuids) {
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM entry WHERE uuid IN (\(marks))", arguments: arguments)
            let readable = rows.filter { if case .success = StoredEntry.read($0) { true } else { false } }
            let tags = try tagNames(forEntries: readable.map { $0["id"] }, db)
            let photos = try syncPhotos(forEntries: readable.map { $0["id"] }, db)
            let values = try measureValuesByUUID(forEntries: readable.map { $0["id"] }, db)
            for row in readable {
                var change = entryChange(.entry, row, uuid: row["uuid"], tags: tags[row["id"]] ?? [])
                change.photos = photos[row["id"]] ?? []
                change.measures = values[row["id"]] ?? [:]
                found[row["uuid"]] = change
            }
        }
        return found
    }

    /// An entry's row (or a kept version's) as it travels.
    private static func entryChange(_ kind: SyncChange.Kind, _ row: Row, uuid: String, tags: [String]) -> SyncChange {
        var change = SyncChange(kind: kind)
        change.uuid = uuid
        change.title = row["title"]
        change.body = row["body"]
        change.mood = row["mood"]
        change.createdAt = storedText(row["created_at"])
        change.updatedAt = (row["updated_at"] as DatabaseValue).isNull ? nil : storedText(row["updated_at"])
        change.latitude = row["latitude"]
        change.longitude = row["longitude"]
        change.accuracy = row["accuracy"]
        change.tags = tags
        return change
    }

    /// `values` as "?, ?, …" and their arguments, 500 at a time (SQLite's limit on arguments).
    private static func inChunks(_ values: [String]) -> [(marks: String, arguments: StatementArguments)] {
        stride(from: 0, to: values.count, by: 500).map { start in
            let chunk = Array(values[start..<min(start + 500, values.count)])
            return (Array(repeating: "?", count: chunk.count).joined(separator: ","), StatementArguments(chunk))
        }
    }

    /// A stored date as the journal holds it (text, byte for byte); a readable date stored
    /// otherwise is written as Flourish writes dates.
    private static func storedText(_ value: DatabaseValue) -> String? {
        if case .string(let text) = value.storage { return text }
        return StoredDate.parse(value.storage).map { ExportedTime($0).stored }
    }

    private static func tagNames(forEntries ids: [Int64], _ db: Database) throws -> [Int64: [String]] {
        guard !ids.isEmpty else { return [:] }
        var names: [Int64: [String]] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT entry_tag.entry_id, tag.name FROM entry_tag JOIN tag ON tag.id = entry_tag.tag_id
            WHERE entry_tag.entry_id IN (\(ids.map(String.init).joined(separator: ","))) ORDER BY tag.key
            """)
        while let row = try rows.next() { names[row[0], default: []].append(row[1]) }
        return names
    }

    private static func tombstones(uuids: [String], _ db: Database) throws -> [String: String] {
        var found: [String: String] = [:]
        for (marks, arguments) in inChunks(uuids) {
            for row in try Row.fetchAll(db, sql: "SELECT uuid, deleted_at FROM sync_tombstone WHERE uuid IN (\(marks))", arguments: arguments) {
                found[row["uuid"]] = row["deleted_at"]
            }
        }
        return found
    }

    static func keptVersion(id: Int64, _ db: Database) throws -> SyncChange? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM entry_version WHERE id = ?", arguments: [id]) else { return nil }
        var version = entryChange(.version, row, uuid: row["entry_uuid"], tags: (row["tags"] as String).split(separator: "\n").map(String.init))
        version.measures = MeasureValues.valuesByUUID((row["measures"] as String?) ?? "")
        return version
    }
}
