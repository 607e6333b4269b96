import Foundation
import GRDB

/// What deleting a measure took out: the measure, where it stood, and every entry's value for
/// it, so that Undo puts it all back as it was.
public struct DeletedMeasure: Sendable, Equatable {
    public let measure: Measure
    let position: Int
    /// Each entry's value, by entry id.
    public let values: [Int64: Double]
}

/// The store's intents for measures. Each write is one transaction.
extension JournalStore {
    /// Every measure, in the person's order.
    public func measures() throws(JournalError) -> [Measure] {
        try reading { db in try Self.measures(db) }
    }

    static func measures(_ db: Database) throws -> [Measure] {
        try Row.fetchAll(db, sql: "SELECT * FROM measure ORDER BY position, uuid").compactMap(Self.measure)
    }

    /// A row of `measure` as a `Measure`; nil for one a hand edit spoiled (an unknown kind).
    private static func measure(_ row: Row) -> Measure? {
        guard let kind = MeasureKind(rawValue: row["kind"]) else { return nil }
        let lowest: Double? = row["lowest"], highest: Double? = row["highest"]
        let range = lowest.flatMap { low in highest.flatMap { high in low < high ? low...high : nil } }
        return Measure(id: row["id"], uuid: row["uuid"], name: row["name"], kind: kind, unit: row["unit"], range: range)
    }

    /// How many entries carry a value for each measure, by measure id (none: absent).
    public func measureUse() throws(JournalError) -> [Int64: Int] {
        try reading { db in
            var counts: [Int64: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT measure_id, count(*) AS n FROM entry_measure GROUP BY measure_id") {
                counts[row["measure_id"]] = row["n"]
            }
            return counts
        }
    }

    /// A new measure, last in the order. A name taken already, whatever its case, is refused.
    public func createMeasure(_ definition: MeasureDefinition) throws(JournalError) -> Measure {
        let definition = try Self.valid(definition)
        return try writing { db in
            try Self.refuseTaken(definition.name, except: nil, db)
            let uuid = UUID().uuidString.lowercased()
            return Measure(id: try Self.insertLast(definition, uuid: uuid, db), uuid: uuid, name: definition.name, kind: definition.kind,
                           unit: definition.unit, range: definition.range)
        }
    }

    /// Inserts a valid definition under `uuid`, last in the order; returns its id.
    static func insertLast(_ definition: MeasureDefinition, uuid: String, _ db: Database) throws -> Int64 {
        let position = (try Int.fetchOne(db, sql: "SELECT max(position) FROM measure") ?? -1) + 1
        try db.execute(sql: """
            INSERT INTO measure (uuid, name, key, kind, unit, lowest, highest, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [uuid, definition.name, MeasureDefinition.key(definition.name), definition.kind.rawValue,
                             definition.unit, definition.range?.lowerBound, definition.range?.upperBound, position])
        return db.lastInsertedRowID
    }

    /// Gives the measure a new name, unit or range; its kind stays (a number's values need not
    /// be a scale's steps), and so do the values entries carry.
    @discardableResult
    public func updateMeasure(id: Int64, to definition: MeasureDefinition) throws(JournalError) -> Measure {
        let definition = try Self.valid(definition)
        return try writing { db in
            try Self.refuseTaken(definition.name, except: id, db)
            try db.execute(sql: """
                UPDATE measure SET name = ?, key = ?, unit = ?, lowest = ?, highest = ?, changed_at = \(Self.measureStamp)
                WHERE id = ? AND kind = ?
                """,
                           arguments: [definition.name, MeasureDefinition.key(definition.name), definition.unit,
                                       definition.range?.lowerBound, definition.range?.upperBound, id, definition.kind.rawValue])
            guard db.changesCount > 0,
                  let row = try Row.fetchOne(db, sql: "SELECT * FROM measure WHERE id = ?", arguments: [id]),
                  let measure = Self.measure(row) else { throw JournalError.measureMissing }
            return measure
        }
    }

    /// Moves the measure to `index` in the order (0 is first); the others keep theirs around it.
    public func moveMeasure(id: Int64, to index: Int) throws(JournalError) {
        try writing { db in
            var order = try Int64.fetchAll(db, sql: "SELECT id FROM measure ORDER BY position, uuid")
            guard let from = order.firstIndex(of: id) else { throw JournalError.measureMissing }
            order.remove(at: from)
            order.insert(id, at: max(0, min(index, order.count)))
            try Self.setOrder(order, moved: id, db)
        }
    }

    /// When a definition changed, as sync compares them (the later change wins).
    static let measureStamp = "strftime('%Y-%m-%d %H:%M:%f', 'now')"

    /// Numbers the measures 0, 1, 2… in `order`. Only `moved` (the one the person moved, or put
    /// back) is stamped as changed: the others only made room, and a definition changed elsewhere
    /// meanwhile must not lose to a stamp they did not earn.
    private static func setOrder(_ order: [Int64], moved: Int64? = nil, _ db: Database) throws {
        for (position, id) in order.enumerated() {
            try db.execute(sql: "UPDATE measure SET position = ? WHERE id = ? AND position != ?", arguments: [position, id, position])
        }
        if let moved {
            try db.execute(sql: "UPDATE measure SET changed_at = \(measureStamp) WHERE id = ?", arguments: [moved])
        }
    }

    /// Removes the measure and every entry's value for it; returns all of it, for Undo.
    public func deleteMeasure(id: Int64) throws(JournalError) -> DeletedMeasure {
        try writing { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM measure WHERE id = ?", arguments: [id]),
                  let measure = Self.measure(row) else { throw JournalError.measureMissing }
            var values: [Int64: Double] = [:]
            for value in try Row.fetchAll(db, sql: "SELECT entry_id, value FROM entry_measure WHERE measure_id = ?", arguments: [id]) {
                values[value["entry_id"]] = value["value"]
            }
            let position = try Int64.fetchAll(db, sql: "SELECT id FROM measure ORDER BY position, uuid").firstIndex(of: id) ?? 0
            try db.execute(sql: "DELETE FROM measure WHERE id = ?", arguments: [id])
            try Self.setOrder(try Int64.fetchAll(db, sql: "SELECT id FROM measure ORDER BY position, uuid"), db)
            return DeletedMeasure(measure: measure, position: position, values: values)
        }
    }

    /// Puts a deleted measure back where it stood, under its id and uuid, with the values of the
    /// entries still there. Refused if a measure of its name was made meanwhile.
    public func restoreMeasure(_ deleted: DeletedMeasure) throws(JournalError) -> Measure {
        try writing { db in
            let measure = deleted.measure
            try Self.refuseTaken(measure.name, except: nil, db)
            try db.execute(sql: """
                INSERT INTO measure (id, uuid, name, key, kind, unit, lowest, highest, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [measure.id, measure.uuid, measure.name, MeasureDefinition.key(measure.name), measure.kind.rawValue,
                                 measure.unit, measure.range?.lowerBound, measure.range?.upperBound, Int.max])
            for (entry, value) in deleted.values.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "INSERT INTO entry_measure (entry_id, measure_id, value) SELECT id, ?, ? FROM entry WHERE id = ?",
                               arguments: [measure.id, value, entry])
            }
            // Synced, the entries that have their values back are edits to send (the values
            // came back here alone; elsewhere they went with the measure).
            try db.execute(sql: """
                UPDATE entry SET updated_at = max(strftime('%Y-%m-%d %H:%M:%f', 'now'), coalesce(updated_at, created_at))
                WHERE id IN (SELECT entry_id FROM entry_measure WHERE measure_id = ?) AND EXISTS (SELECT 1 FROM sync_state WHERE key = 'journal')
                """, arguments: [measure.id])
            var order = try Int64.fetchAll(db, sql: "SELECT id FROM measure WHERE id != ? ORDER BY position, uuid", arguments: [measure.id])
            order.insert(measure.id, at: min(deleted.position, order.count))
            try Self.setOrder(order, db)
            return measure
        }
    }

    /// Each of these entries' values, by entry id (entries without any are left out).
    static func measureValues(forEntries ids: [Int64], _ db: Database) throws -> [Int64: [Int64: Double]] {
        guard !ids.isEmpty else { return [:] }
        var values: [Int64: [Int64: Double]] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT entry_id, measure_id, value FROM entry_measure WHERE entry_id IN (\(ids.map(String.init).joined(separator: ",")))
            """)
        while let row = try rows.next() { values[row["entry_id"], default: [:]][row["measure_id"]] = row["value"] }
        return values
    }

    /// The entry carries exactly these values. A measure deleted meanwhile (in Preferences, while
    /// the form was open) is left out rather than failing the save, as is a value its measure
    /// cannot take (a scale's value that is not a whole step from 1 to 5; a number not finite).
    static func setMeasures(_ values: [Int64: Double], forEntry entryID: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM entry_measure WHERE entry_id = ?", arguments: [entryID])
        for (measure, value) in values.sorted(by: { $0.key < $1.key }) where value.isFinite {
            try db.execute(sql: """
                INSERT INTO entry_measure (entry_id, measure_id, value) SELECT ?, id, ? FROM measure
                WHERE id = ? AND (kind = 'number' OR (? BETWEEN 1 AND 5 AND ? = round(?)))
                """, arguments: [entryID, value, measure, value, value, value])
        }
    }

    private static func valid(_ definition: MeasureDefinition) throws(JournalError) -> MeasureDefinition {
        switch definition.validated() {
        case .success(let definition): return definition
        case .failure(let problem): throw .measure(problem)
        }
    }

    private static func refuseTaken(_ name: String, except id: Int64?, _ db: Database) throws {
        if let existing = try Row.fetchOne(db, sql: "SELECT id, name FROM measure WHERE key = ?", arguments: [MeasureDefinition.key(name)]),
           existing["id"] as Int64 != id {
            throw JournalError.measure(.nameTaken(existing: existing["name"]))
        }
    }
}

extension JournalStore {
    /// The journal's measures for what an import brings, by name's key: the file's own measures
    /// (matched by uuid, then by name in any case, else made, after the journal's, in the file's
    /// order, under the file's uuid when no measure has it), then any name the new entries give
    /// a value for that neither has (made as a number). Returns them, and the ids of those made.
    static func importedMeasures(_ measures: [ImportedMeasure], valuesIn entries: [ImportedEntry],
                                 _ db: Database) throws -> (byKey: [String: Int64], made: [Int64]) {
        var byKey: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, key FROM measure") { byKey[row["key"]] = row["id"] }
        var made: [Int64] = []
        func make(_ definition: MeasureDefinition, uuid: String?) throws -> Int64? {
            guard case .success(let valid) = definition.validated() else { return nil }
            let key = MeasureDefinition.key(valid.name)
            if let id = byKey[key] { return id }
            let free = try uuid.map { try Bool.fetchOne(db, sql: "SELECT 1 FROM measure WHERE uuid = ?", arguments: [$0]) == nil } ?? false
            let id = try insertLast(valid, uuid: free ? uuid! : UUID().uuidString.lowercased(), db)
            byKey[key] = id
            made.append(id)
            return id
        }
        for measure in measures {
            // The same measure under another name here (renamed since the export): by identity.
            if let uuid = measure.uuid, let id = try Int64.fetchOne(db, sql: "SELECT id FROM measure WHERE uuid = ?", arguments: [uuid]) {
                byKey[MeasureDefinition.key(measure.definition.name)] = byKey[MeasureDefinition.key(measure.definition.name)] ?? id
                continue
            }
            _ = try make(measure.definition, uuid: measure.uuid)
        }
        for name in Set(entries.flatMap(\.measures.keys)).sorted() where byKey[MeasureDefinition.key(name)] == nil {
            _ = try make(MeasureDefinition(name: name, kind: .number), uuid: nil)
        }
        return (byKey, made)
    }
}
