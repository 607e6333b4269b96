import Foundation
import GRDB

/// Measures as they travel: each definition whole, by its uuid, the later change winning; a
/// deletion with when, which a change made before it does not undo; and each entry's values by
/// the measures' uuids. Two machines that each made a measure of one name before they heard of
/// each other end with one: the one whose uuid sorts first (every machine picks the same), the
/// other's entries' values moved onto it and sent again.
extension JournalStore {
    static let syncedMeasures = SyncedTable(table: "measure", gone: "sync_measure_gone", deletion: .deleteMeasure)

    /// The measure with `uuid` as it is now, or its deletion.
    static func measureChange(uuid: String, _ db: Database) throws -> SyncChange? {
        try change(of: uuid, in: syncedMeasures, db, definitionChange)
    }

    /// Every measure deleted, then every measure: what a snapshot holds of them.
    static func measureChanges(_ db: Database) throws -> [SyncChange] {
        try changes(in: syncedMeasures, db, definitionChange)
    }

    static func definitionChange(_ row: Row) -> SyncChange {
        var change = SyncChange(kind: .measure)
        change.uuid = row["uuid"]
        change.name = row["name"]
        change.measureKind = row["kind"]
        let unit: String = row["unit"]
        change.unit = unit.isEmpty ? nil : unit
        change.lowest = row["lowest"]
        change.highest = row["highest"]
        change.position = row["position"]
        change.at = row["changed_at"]
        return change
    }

    /// Each of these entries' values by their measures' uuids.
    static func measureValuesByUUID(forEntries ids: [Int64], _ db: Database) throws -> [Int64: [String: Double]] {
        guard !ids.isEmpty else { return [:] }
        var values: [Int64: [String: Double]] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT entry_measure.entry_id, measure.uuid, entry_measure.value FROM entry_measure JOIN measure ON measure.id = entry_measure.measure_id
            WHERE entry_measure.entry_id IN (\(ids.map(String.init).joined(separator: ",")))
            """)
        while let row = try rows.next() { values[row[0], default: [:]][row[1]] = row[2] }
        return values
    }
}

extension SyncApplier {
    /// A measure's definition or deletion from another machine.
    mutating func applyMeasure(_ change: SyncChange) throws {
        guard let uuid = change.uuid, !uuid.isEmpty else { throw JournalError.other(reason: JournalStore.invalidBatch) }
        let at = try time(change.at)
        if change.kind == .deleteMeasure {
            if let local = try Row.fetchOne(db, sql: "SELECT id, changed_at FROM measure WHERE uuid = ?", arguments: [uuid]) {
                // Changed here after it was deleted there: it stands, and goes back there whole,
                // its definition and every entry's value (which went there with the deletion).
                guard stamp(local["changed_at"]) <= stamp(at) else {
                    try db.execute(sql: "INSERT INTO sync_change (kind, name) VALUES ('measure', ?)", arguments: [uuid])
                    try resendEntries(withValuesOf: local["id"])
                    return
                }
                try db.execute(sql: "DELETE FROM measure WHERE id = ?", arguments: [local["id"] as Int64])
                receipt.received += 1
            }
            try db.execute(sql: """
                INSERT INTO sync_measure_gone (uuid, gone_at) VALUES (?, ?)
                ON CONFLICT (uuid) DO UPDATE SET gone_at = max(gone_at, excluded.gone_at)
                """, arguments: [uuid, at])
            return
        }
        guard let kind = change.measureKind.flatMap(MeasureKind.init(rawValue:)),
              case .success(let valid) = MeasureDefinition(name: change.name ?? "", kind: kind, unit: change.unit ?? "",
                                                                range: Self.range(change.lowest, change.highest)).validated(),
              (change.position ?? 0) >= 0
        else { throw JournalError.other(reason: JournalStore.invalidBatch) }
        // Deleted here after this version was made: it stays deleted.
        if let gone = try String.fetchOne(db, sql: "SELECT gone_at FROM sync_measure_gone WHERE uuid = ?", arguments: [uuid]),
           stamp(gone) >= stamp(at) { return }
        let key = MeasureDefinition.key(valid.name)
        var local = try Row.fetchOne(db, sql: "SELECT * FROM measure WHERE uuid = ?", arguments: [uuid])
        var definition = valid
        // Another measure of this name here: one of the two gives way, the same on every machine.
        if let other = try Row.fetchOne(db, sql: "SELECT id, uuid, kind, name FROM measure WHERE key = ? AND uuid != ?", arguments: [key, uuid]) {
            let otherUUID: String = other["uuid"]
            if other["kind"] as String != kind.rawValue {
                // Not one kind (a scale's steps are not a number's values): both stay, and the
                // one whose uuid sorts last is called "Name (2)", here and on every machine.
                if uuid < otherUUID {
                    let second = Self.secondName(other["name"])
                    try db.execute(sql: "UPDATE measure SET name = ?, key = ? WHERE id = ?",
                                   arguments: [second, MeasureDefinition.key(second), other["id"] as Int64])
                } else {
                    definition.name = Self.secondName(definition.name)
                }
            } else {
                guard uuid < otherUUID, local == nil else { return } // this one gives way to the one here
                try adopt(uuid, into: other["id"])
                local = try Row.fetchOne(db, sql: "SELECT * FROM measure WHERE uuid = ?", arguments: [uuid])
            }
        }
        let newKey = MeasureDefinition.key(definition.name)
        // Its new name taken here by another measure (two renamed across each other): it waits
        // under its name here for a later change, rather than breaking the journal's rule.
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM measure WHERE key = ? AND uuid != ?", arguments: [newKey, uuid]) == true { return }
        try db.execute(sql: "DELETE FROM sync_measure_gone WHERE uuid = ?", arguments: [uuid])
        if let local {
            // As the other machine stores it (validated, not renamed beside a measure here), so
            // that on a tie both machines compare the same two definitions.
            var arriving = change
            (arriving.name, arriving.unit) = (valid.name, valid.unit.isEmpty ? nil : valid.unit)
            (arriving.lowest, arriving.highest, arriving.position) = (valid.range?.lowerBound, valid.range?.upperBound, change.position ?? 0)
            guard definitionWins(arriving, over: JournalStore.definitionChange(local)) else { return }
            try db.execute(sql: """
                UPDATE measure SET name = ?, key = ?, unit = ?, lowest = ?, highest = ?, position = ?, changed_at = ? WHERE id = ?
                """, arguments: [definition.name, newKey, definition.unit, definition.range?.lowerBound, definition.range?.upperBound,
                                 change.position ?? 0, at, local["id"] as Int64])
        } else {
            try db.execute(sql: """
                INSERT INTO measure (uuid, name, key, kind, unit, lowest, highest, position, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [uuid, definition.name, newKey, kind.rawValue, definition.unit, definition.range?.lowerBound,
                                 definition.range?.upperBound, change.position ?? 0, at])
        }
        receipt.received += 1
    }

    /// Whether the definition `remote` is the one to keep over `local` (of the same uuid): the one
    /// changed last; on equal stamps (two machines changing it within one millisecond), the
    /// greater content. Both machines compare the same pair and so keep the same one, where a
    /// tie kept by each as "mine" would leave them disagreeing for good.
    func definitionWins(_ remote: SyncChange, over local: SyncChange) -> Bool {
        laterWins(remote, over: local, content: Self.definitionContent)
    }

    /// Whether `remote` was changed after `local`; on equal stamps, whether its `content` is the
    /// greater (as bytes).
    func laterWins(_ remote: SyncChange, over local: SyncChange, content: (SyncChange) -> [UInt8]) -> Bool {
        let (remoteStamp, localStamp) = (stamp(remote.at ?? ""), stamp(local.at ?? ""))
        guard remoteStamp == localStamp else { return remoteStamp > localStamp }
        return content(local).lexicographicallyPrecedes(content(remote))
    }

    /// A definition as the same bytes on every machine: what a tie is broken on. Bytes, not
    /// Swift's String order, which holds two spellings of "é" equal; JSON, so that no name can
    /// run into the next field.
    static func definitionContent(_ change: SyncChange) -> [UInt8] {
        let fields = [change.name ?? "", change.measureKind ?? "", change.unit ?? "", change.lowest.map { "\($0)" } ?? "",
                      change.highest.map { "\($0)" } ?? "", "\(change.position ?? 0)"]
        // An array of strings always encodes.
        return Array((try? JSONEncoder().encode(fields)) ?? Data())
    }

    /// The measure `id` here takes `uuid` (another machine's measure of the same name, which
    /// wins): its entries' values stay, and travel again under it, as edits made now.
    private func adopt(_ uuid: String, into id: Int64) throws {
        try db.execute(sql: "UPDATE measure SET uuid = ? WHERE id = ?", arguments: [uuid, id])
        // Logged by hand: the triggers are quiet while a batch applies. The definition travels
        // under its new name too: when it is the later one, it is the one every machine keeps.
        try db.execute(sql: "INSERT INTO sync_change (kind, name) VALUES ('measure', ?)", arguments: [uuid])
        try resendEntries(withValuesOf: id)
    }

    /// "Energy (2)": the name a measure of another kind takes beside one of its name.
    static func secondName(_ name: String) -> String {
        String(name.prefix(MeasureDefinition.maximumNameLength - 4)).trimmingCharacters(in: .whitespaces) + " (2)"
    }

    /// The entries carrying a value of measure `id` become edits made now, to send (logged by
    /// hand: the triggers are quiet while a batch applies), so their values travel again.
    private func resendEntries(withValuesOf id: Int64) throws {
        let now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
        try db.execute(sql: """
            INSERT INTO sync_change (kind, name, detail)
            SELECT 'entry', uuid, coalesce(updated_at, created_at) FROM entry WHERE id IN (SELECT entry_id FROM entry_measure WHERE measure_id = ?)
            """, arguments: [id])
        try db.execute(sql: """
            UPDATE entry SET updated_at = max(\(now), coalesce(updated_at, created_at))
            WHERE id IN (SELECT entry_id FROM entry_measure WHERE measure_id = ?)
            """, arguments: [id])
    }

    /// Values by uuid as values by this journal's measure ids; a measure not here is left out.
    func localValues(_ values: [String: Double]) throws -> [Int64: Double] {
        var local: [Int64: Double] = [:]
        for (uuid, value) in values {
            if let id = try Int64.fetchOne(db, sql: "SELECT id FROM measure WHERE uuid = ?", arguments: [uuid]) { local[id] = value }
        }
        return local
    }

    private static func range(_ low: Double?, _ high: Double?) -> ClosedRange<Double>? {
        guard let low, let high, low.isFinite, high.isFinite, low < high else { return nil }
        return low...high
    }
}
