import Foundation
import GRDB

/// Templates as they travel: each whole, by its uuid, the later change winning (on a tie, the
/// greater content, the same on every machine); a deletion with when, which a change made
/// before it does not undo, as measures' (`JournalStore+SyncMeasures`). Words of one's own only
/// ever grow: each machine keeps every word any of them added.
extension JournalStore {
    /// A starter template never changed is every machine's already, each in its own language:
    /// it is not sent.
    static let syncedTemplates = SyncedTable(table: "template", gone: "sync_template_gone", deletion: .deleteTemplate,
                                             travels: "changed_at != '\(longAgo)'")

    /// The template with `uuid` as it is now, or its deletion.
    static func templateChange(uuid: String, _ db: Database) throws -> SyncChange? {
        try change(of: uuid, in: syncedTemplates, db, templateChange)
    }

    /// Every template deleted, then every template but the starters never changed: what a
    /// snapshot holds of them.
    static func templateChanges(_ db: Database) throws -> [SyncChange] {
        try changes(in: syncedTemplates, db, templateChange)
    }

    static func templateChange(_ row: Row) -> SyncChange {
        let definition = definition(row)
        var change = SyncChange(kind: .template)
        change.uuid = row["uuid"]
        change.name = definition.name
        change.title = definition.title
        change.body = definition.body
        change.mood = definition.mood?.rawValue
        change.tags = definition.tags
        change.measures = definition.measures
        change.position = row["position"]
        change.isDefault = row["is_default"]
        change.at = row["changed_at"]
        return change
    }
}

extension SyncChange {
    static func word(_ word: String) -> SyncChange {
        var change = SyncChange(kind: .word)
        change.name = word
        return change
    }
}

extension SyncApplier {
    /// A template or its deletion from another machine.
    mutating func applyTemplate(_ change: SyncChange) throws {
        guard let uuid = change.uuid, (1...100).contains(uuid.count) else { throw JournalError.other(reason: JournalStore.invalidBatch) }
        let at = try time(change.at)
        let local = try Row.fetchOne(db, sql: "SELECT id, changed_at FROM template WHERE uuid = ?", arguments: [uuid])
        if change.kind == .deleteTemplate {
            if let local {
                // Changed here after it was deleted there: it stands, and goes back there.
                guard stamp(local["changed_at"]) <= stamp(at) else {
                    try db.execute(sql: "INSERT INTO sync_change (kind, name) VALUES ('template', ?)", arguments: [uuid])
                    return
                }
                try db.execute(sql: "DELETE FROM template WHERE id = ?", arguments: [local["id"] as Int64])
                receipt.received += 1
            }
            try db.execute(sql: """
                INSERT INTO sync_template_gone (uuid, gone_at) VALUES (?, ?)
                ON CONFLICT (uuid) DO UPDATE SET gone_at = max(gone_at, excluded.gone_at)
                """, arguments: [uuid, at])
            return
        }
        let mood = change.mood.flatMap(Mood.init(rawValue:))
        // A definition Flourish would not have written (cleaned by `validated`) is not Flourish's.
        guard change.mood == nil || mood != nil, (0...1_000_000).contains(change.position ?? 0),
              case .success(let definition) = TemplateDefinition(name: change.name ?? "", title: change.title ?? "", body: change.body ?? "",
                                                                 mood: mood, tags: change.tags ?? [], measures: change.measures ?? [:]).validated(),
              definition.name == change.name, definition.title == (change.title ?? ""), definition.body == (change.body ?? ""),
              definition.tags == (change.tags ?? []), definition.measures == (change.measures ?? [:])
        else { throw JournalError.other(reason: JournalStore.invalidBatch) }
        // Deleted here after this version was made: it stays deleted.
        if let gone = try String.fetchOne(db, sql: "SELECT gone_at FROM sync_template_gone WHERE uuid = ?", arguments: [uuid]),
           stamp(gone) >= stamp(at) { return }
        if let local {
            let here = try Row.fetchOne(db, sql: "SELECT * FROM template WHERE id = ?", arguments: [local["id"] as Int64])
            // As it arrived: a change that is not as `validated` keeps it was refused above.
            guard let here, templateWins(change, over: JournalStore.templateChange(here)) else { return }
            try db.execute(sql: "UPDATE template SET \(JournalStore.settingDefinition), position = ?, is_default = ?, changed_at = ? WHERE id = ?",
                           arguments: JournalStore.stored(definition) + [change.position ?? 0, change.isDefault ?? false, at, local["id"] as Int64])
        } else {
            try JournalStore.insert(definition, uuid: uuid, position: change.position ?? 0, isDefault: change.isDefault ?? false, at: at, db)
        }
        try db.execute(sql: "DELETE FROM sync_template_gone WHERE uuid = ?", arguments: [uuid])
        receipt.received += 1
    }

    /// Whether `remote` is the version to keep over `local` (of the same uuid): the one changed
    /// last; on equal stamps, the greater content, so both machines keep the same one.
    func templateWins(_ remote: SyncChange, over local: SyncChange) -> Bool {
        laterWins(remote, over: local, content: Self.templateContent)
    }

    /// A template as the same bytes on every machine (see `definitionContent`).
    static func templateContent(_ change: SyncChange) -> [UInt8] {
        let fields = [change.name ?? "", change.title ?? "", change.body ?? "", change.mood.map { "\($0)" } ?? "",
                      (change.tags ?? []).joined(separator: "\n"), MeasureValues.text(byUUID: change.measures ?? [:]), "\(change.position ?? 0)",
                      change.isDefault == true ? "1" : "0"]
        return Array((try? JSONEncoder().encode(fields)) ?? Data())
    }

    /// A word another machine's person added to the dictionary.
    func applyWord(_ word: String) throws {
        guard (1...100).contains(word.unicodeScalars.count), word == word.trimmingCharacters(in: .whitespacesAndNewlines),
              !word.unicodeScalars.contains("\u{0}") else {
            throw JournalError.other(reason: JournalStore.invalidBatch)
        }
        try db.execute(sql: "INSERT OR IGNORE INTO own_word (word) VALUES (?)", arguments: [word])
    }
}
