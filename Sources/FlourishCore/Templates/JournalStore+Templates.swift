import Foundation
import GRDB

/// The store's intents for templates. Each write is one transaction, and stamps what it changed
/// (`changed_at`), which is what sync compares.
extension JournalStore {
    /// Every template, in the person's order.
    public func templates() throws(JournalError) -> [EntryTemplate] {
        try reading { db in try Self.templates(db) }
    }

    static func templates(_ db: Database) throws -> [EntryTemplate] {
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM template ORDER BY position, uuid")
        // Several marked the default (each machine chose one before they heard of each other):
        // the one changed last is, the same on every machine.
        let chosen = rows.filter { $0["is_default"] as Bool }
            .max { ($0["changed_at"] as String, $0["uuid"] as String) < ($1["changed_at"] as String, $1["uuid"] as String) }
        return rows.map { row in
            EntryTemplate(id: row["id"], uuid: row["uuid"], definition: definition(row), isDefault: chosen?["id"] == row["id"] as Int64)
        }
    }

    /// A row of `template` as its definition.
    static func definition(_ row: Row) -> TemplateDefinition {
        let tags: String = row["tags"], measures: String = row["measures"]
        return TemplateDefinition(name: row["name"], title: row["title"], body: row["body"], mood: (row["mood"] as Int?).flatMap(Mood.init(rawValue:)),
                                  tags: tags.split(separator: "\n").map(String.init), measures: MeasureValues.valuesByUUID(measures))
    }

    /// A new template, last in the order.
    @discardableResult
    public func createTemplate(_ definition: TemplateDefinition) throws(JournalError) -> EntryTemplate {
        let definition = try Self.valid(definition)
        return try writing { db in
            let uuid = UUID().uuidString.lowercased()
            let position = (try Int.fetchOne(db, sql: "SELECT max(position) FROM template") ?? -1) + 1
            try Self.insert(definition, uuid: uuid, position: position, isDefault: false, db)
            return EntryTemplate(id: db.lastInsertedRowID, uuid: uuid, definition: definition, isDefault: false)
        }
    }

    static func insert(_ definition: TemplateDefinition, uuid: String, position: Int, isDefault: Bool, at: String? = nil, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO template (uuid, \(definitionColumns.joined(separator: ", ")), position, is_default, changed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, \(templateStamp)))
            """, arguments: [uuid] + stored(definition) + [position, isDefault, at])
    }

    /// The columns a definition is kept in, and its values for them as stored: tags by name one a
    /// line, values by measure uuid (`MeasureValues.text(byUUID:)`).
    static let definitionColumns = ["name", "title", "body", "mood", "tags", "measures"]

    static func stored(_ definition: TemplateDefinition) -> StatementArguments {
        [definition.name, definition.title, definition.body, definition.mood?.rawValue, definition.tags.joined(separator: "\n"),
         MeasureValues.text(byUUID: definition.measures)]
    }

    /// "name = ?, title = ?, …": the definition's columns to set.
    static let settingDefinition = definitionColumns.map { "\($0) = ?" }.joined(separator: ", ")

    /// Gives the template a new name, words, mood, tags or values.
    @discardableResult
    public func updateTemplate(id: Int64, to definition: TemplateDefinition) throws(JournalError) -> EntryTemplate {
        let definition = try Self.valid(definition)
        return try writing { db in
            try db.execute(sql: "UPDATE template SET \(Self.settingDefinition), changed_at = \(Self.templateStamp) WHERE id = ?",
                           arguments: Self.stored(definition) + [id])
            guard db.changesCount > 0, let template = try Self.templates(db).first(where: { $0.id == id }) else { throw Self.templateMissing }
            return template
        }
    }

    /// Makes the template the one every new entry starts from (nil: none does).
    public func setDefaultTemplate(id: Int64?) throws(JournalError) {
        try writing { db in
            if let id, try Bool.fetchOne(db, sql: "SELECT 1 FROM template WHERE id = ?", arguments: [id]) != true { throw Self.templateMissing }
            // Each template whose mark changes is stamped, so that the choice travels whole.
            try db.execute(sql: "UPDATE template SET is_default = 0, changed_at = \(Self.templateStamp) WHERE is_default AND id IS NOT ?",
                           arguments: [id])
            if let id {
                try db.execute(sql: "UPDATE template SET is_default = 1, changed_at = \(Self.templateStamp) WHERE id = ?", arguments: [id])
            }
        }
    }

    /// Removes the template; returns it, for Undo.
    public func deleteTemplate(id: Int64) throws(JournalError) -> DeletedTemplate {
        try writing { db in
            let all = try Self.templates(db)
            guard let position = all.firstIndex(where: { $0.id == id }) else { throw Self.templateMissing }
            try db.execute(sql: "DELETE FROM template WHERE id = ?", arguments: [id])
            return DeletedTemplate(template: all[position], position: position)
        }
    }

    /// Puts a deleted template back where it stood, under its own uuid (so that, sent again, it
    /// is the same template on every machine).
    @discardableResult
    public func restoreTemplate(_ deleted: DeletedTemplate) throws(JournalError) -> EntryTemplate {
        try writing { db in
            var order = try Int64.fetchAll(db, sql: "SELECT id FROM template ORDER BY position, uuid")
            try Self.insert(deleted.template.definition, uuid: deleted.template.uuid, position: order.count, isDefault: false, db)
            let id = db.lastInsertedRowID
            order.insert(id, at: min(deleted.position, order.count))
            // Each one that moves to make room is stamped: it travels with its new place, and wins
            // over its old one on every machine (an unstamped move would tie, and the tie be
            // broken differently from how it was made here).
            for (position, each) in order.enumerated() {
                try db.execute(sql: "UPDATE template SET position = ?, changed_at = \(Self.templateStamp) WHERE id = ? AND position != ?",
                               arguments: [position, each, position])
            }
            if deleted.template.isDefault {
                try db.execute(sql: "UPDATE template SET is_default = 0, changed_at = \(Self.templateStamp) WHERE is_default")
                try db.execute(sql: "UPDATE template SET is_default = 1 WHERE id = ?", arguments: [id])
            }
            guard let template = try Self.templates(db).first(where: { $0.id == id }) else { throw Self.templateMissing }
            return template
        }
    }

    /// When a template changed, as sync compares them (the later change wins).
    static let templateStamp = "strftime('%Y-%m-%d %H:%M:%f', 'now')"

    static var templateMissing: JournalError { .other(reason: tr("This template is no longer in the journal.")) }

    private static func valid(_ definition: TemplateDefinition) throws(JournalError) -> TemplateDefinition {
        switch definition.validated() {
        case .success(let valid): valid
        case .failure(let problem): throw .other(reason: problem.message)
        }
    }
}

extension JournalStore {
    /// Adds the templates the journal has no uuid of, last in its order, their measure values
    /// on the journal's measures of those names (a value for a measure it lacks is left out);
    /// returns their ids. The file's default becomes the journal's only if it has none.
    static func importedTemplates(_ templates: [ImportedTemplate], _ db: Database) throws -> [Int64] {
        guard !templates.isEmpty else { return [] }
        var ids: [Int64] = []
        let hasDefault = try Self.templates(db).contains(where: \.isDefault)
        for template in templates where try Bool.fetchOne(db, sql: "SELECT 1 FROM template WHERE uuid = ?", arguments: [template.uuid]) != true {
            var definition = template.definition
            for (name, value) in template.measuresByName {
                if let uuid = try String.fetchOne(db, sql: "SELECT uuid FROM measure WHERE key = ?", arguments: [MeasureDefinition.key(name)]) {
                    definition.measures[uuid] = value
                }
            }
            let position = (try Int.fetchOne(db, sql: "SELECT max(position) FROM template") ?? -1) + 1
            try insert(definition, uuid: template.uuid, position: position, isDefault: template.isDefault && !hasDefault, db)
            ids.append(db.lastInsertedRowID)
        }
        return ids
    }
}
