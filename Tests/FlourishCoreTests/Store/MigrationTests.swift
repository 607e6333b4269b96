import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Journals made by each released schema, kept under Tests/Fixtures, open and upgrade without
/// losing a byte. `journal-v1.sqlite` was written by Flourish's v1 store (seven entries: a
/// location, emoji, right-to-left and combining text, a long body, two on one day).
final class MigrationTests: XCTestCase {
    private let folder = TemporaryFolder()

    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures").standardized

    /// A copy of the fixture to work on: the fixture itself is never opened for writing.
    private func copy(_ name: String) throws -> String {
        let path = folder.file(name)
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent(name).path, toPath: path)
        chmod(path, 0o600)
        return path
    }

    private let v1Columns = ["id", "title", "body", "mood", "created_at", "latitude", "longitude", "accuracy"]

    /// Each v1 column of every entry as SQLite stores it, with its storage class.
    private func v1Values(_ path: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        let selection = v1Columns.map { "typeof(\($0)) || ':' || quote(\($0))" }.joined(separator: ", ")
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT \(selection) FROM entry ORDER BY id").map { row in
                (0..<row.count).map { row[$0] as String }
            }
        }
    }

    func testAV1JournalUpgradesKeepingEveryEntryByteForByte() throws {
        let path = try copy("journal-v1.sqlite")
        let before = try v1Values(path)
        XCTAssertEqual(before.count, 7)

        let store = try JournalStore(path: path)
        XCTAssertEqual(try v1Values(path), before, "every v1 column of every entry is unchanged")
        let entries = try store.entries(ids: try store.entryIDs())
        XCTAssertEqual(entries.count, 7)
        XCTAssertEqual(Set(entries.map(\.uuid)).count, 7, "each entry gets its own uuid")
        for entry in entries {
            let uuid = try XCTUnwrap(UUID(uuidString: entry.uuid), entry.uuid)
            XCTAssertEqual(entry.uuid, uuid.uuidString.lowercased())
            XCTAssertEqual(Array(entry.uuid)[14], "4", "a version 4 (random) UUID")
            XCTAssertTrue("89ab".contains(Array(entry.uuid)[19]), "the RFC 4122 variant")
            XCTAssertNil(entry.updatedAt)
        }
        XCTAssertEqual(entries.first { $0.title == "שלום עולם" }?.location,
                       Location(latitude: -33.8688, longitude: 151.2093, accuracy: 2500))

        let queue = try DatabaseQueue(path: path)
        try queue.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"),
                           ["v10: measures", "v11: entries without a mood", "v12: words of my own", "v13: templates", "v1: entry", "v2: entry uuid and updated_at", "v3: tags and search",
                            "v4: faster search index", "v5: index of dates and moods", "v6: sync", "v7: sync stamps",
                            "v8: kept draft", "v9: photos"], "by identifier, as text: “v10” sorts before “v1:”")
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
            XCTAssertTrue(try db.indexes(on: "entry").contains { $0.name == "entry_by_created_at" })
            XCTAssertTrue(try db.indexes(on: "entry").contains { $0.isUnique && $0.columns == ["uuid"] })
            let uuid = try db.columns(in: "entry").first { $0.name == "uuid" }
            XCTAssertEqual(uuid?.isNotNull, true)
        }
        try queue.close()

        // The uuids are kept across reopening: given once, by the migration.
        let reopened = try JournalStore(path: path)
        XCTAssertEqual(Set(try reopened.entries(ids: try reopened.entryIDs()).map(\.uuid)), Set(entries.map(\.uuid)))
        XCTAssertEqual(try v1Values(path), before)
    }

    func testAfterTheUpgradeNewIdsContinueFromTheOldHighWaterMark() throws {
        let path = try copy("journal-v1.sqlite")
        let store = try JournalStore(path: path)
        let saved = try store.save(try EntryDraft(title: "after", mood: .okay).validated().get(), createdAt: Date())
        XCTAssertEqual(saved.id, 8)
        XCTAssertEqual(try store.position(of: saved.id), 0)
    }

    /// Every column of every entry, with its storage class, as SQLite holds it.
    private func storedValues(_ path: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: "file:\(path)?immutable=1", configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in
            let columns = try db.columns(in: "entry").map(\.name)
            let selection = columns.map { "typeof(\($0)) || ':' || quote(\($0))" }.joined(separator: ", ")
            return try Row.fetchAll(db, sql: "SELECT \(selection) FROM entry ORDER BY id").map { row in
                (0..<row.count).map { row[$0] as String }
            }
        }
    }

    func testAV2JournalGetsTagsAndSearchKeepingEveryEntryByteForByte() throws {
        let path = try copy("journal-v2.sqlite")
        let before = try storedValues(path)
        XCTAssertEqual(before.count, 7)
        let sequence = try DatabaseQueue(path: "file:\(path)?immutable=1").read { db in
            try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'entry'")
        }

        let store = try JournalStore(path: path)
        XCTAssertEqual(try storedValues(path), before, "every column of every entry is unchanged")
        // The index was built from the entries already there: words, prefixes, accents.
        let seaAir = try XCTUnwrap(try store.entries(ids: try store.entryIDs()).first { $0.title == "Sea air" })
        XCTAssertEqual(try store.search(JournalQuery(text: "beach")), [seaAir.id])
        XCTAssertEqual(try store.search(JournalQuery(text: "BEA")), [seaAir.id])
        let sunday = try XCTUnwrap(try store.entries(ids: try store.entryIDs()).first { $0.title == "Quiet Sunday" })
        XCTAssertEqual(try store.search(JournalQuery(text: "cafe")), [sunday.id], "“cafe” finds “Café”")
        XCTAssertEqual(try store.tags().map(\.name), ["exercise", "family", "friends", "good sleep", "music", "outdoors", "reading", "work"])
        XCTAssertTrue(try store.tags().allSatisfy { $0.entryCount == 0 })
        let saved = try store.save(try EntryDraft(title: "after v3", mood: .okay).validated().get(), createdAt: Date())
        XCTAssertEqual(saved.id, (sequence ?? 0) + 1, "ids continue after the highest ever given")

        let queue = try DatabaseQueue(path: path)
        try queue.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"),
                           ["v10: measures", "v11: entries without a mood", "v12: words of my own", "v13: templates", "v1: entry", "v2: entry uuid and updated_at", "v3: tags and search",
                            "v4: faster search index", "v5: index of dates and moods", "v6: sync", "v7: sync stamps",
                            "v8: kept draft", "v9: photos"], "by identifier, as text: “v10” sorts before “v1:”")
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
        }
        // FTS5's own check that the index matches the entries (it throws on a mismatch).
        XCTAssertNoThrow(try queue.write { db in
            try db.execute(sql: "INSERT INTO entry_search (entry_search) VALUES ('integrity-check')")
        })
        try queue.close()
    }

    /// Every row of the journal's own tables, as SQLite holds them.
    /// Takes off what v9 adds to a journal: its migration's row, its three empty tables, and the
    /// empty list of photos it adds to each kept draft and earlier version. What is left is the
    /// journal as it was.
    private func peelPhotos(_ tables: inout [String: [[String]]], file: StaticString = #filePath, line: UInt = #line) {
        peelMeasures(&tables, file: file, line: line)
        XCTAssertEqual(tables["grdb_migrations"]?.removeLast(), ["text:'v9: photos'"], file: file, line: line)
        for table in ["photo_key", "photo", "entry_photo", "sync_photo", "sync_photo_unused"] {
            XCTAssertEqual(tables.removeValue(forKey: table), [], "v9's \(table) starts empty", file: file, line: line)
        }
        for table in ["kept_draft", "entry_version"] {
            guard let rows = tables[table] else { continue }
            XCTAssertEqual(rows.map { $0.last }, rows.map { _ in "text:''" }, "\(table) gains no photos", file: file, line: line)
            tables[table] = rows.map { Array($0.dropLast()) }
        }
    }

    /// Takes off what v10 adds to a journal: its migration's row, its two empty tables, and the
    /// empty values it adds to each kept draft and earlier version.
    private func peelMeasures(_ tables: inout [String: [[String]]], file: StaticString = #filePath, line: UInt = #line) {
        peelOptionalMood(&tables, file: file, line: line)
        let row = ["text:'v10: measures'"]
        XCTAssertEqual(tables["grdb_migrations"]?.filter { $0 == row }.count, 1, "v10 applied once", file: file, line: line)
        tables["grdb_migrations"]?.removeAll { $0 == row }
        for table in ["measure", "entry_measure", "sync_measure_gone"] {
            XCTAssertEqual(tables.removeValue(forKey: table), [], "v10's \(table) starts empty", file: file, line: line)
        }
        for table in ["kept_draft", "entry_version"] {
            guard let rows = tables[table] else { continue }
            XCTAssertEqual(rows.map { $0.last }, rows.map { _ in "text:''" }, "\(table) gains no values", file: file, line: line)
            tables[table] = rows.map { Array($0.dropLast()) }
        }
    }

    /// Takes off what v11 adds to a journal: its migration's row, and nothing else (no row changes).
    private func peelOptionalMood(_ tables: inout [String: [[String]]], file: StaticString = #filePath, line: UInt = #line) {
        peelOwnWords(&tables, file: file, line: line)
        let row = ["text:'v11: entries without a mood'"]
        XCTAssertEqual(tables["grdb_migrations"]?.filter { $0 == row }.count, 1, "v11 applied once", file: file, line: line)
        tables["grdb_migrations"]?.removeAll { $0 == row }
    }

    /// Takes off what v12 adds to a journal: its migration's row and its two empty tables.
    private func peelOwnWords(_ tables: inout [String: [[String]]], file: StaticString = #filePath, line: UInt = #line) {
        peelTemplates(&tables, file: file, line: line)
        let row = ["text:'v12: words of my own'"]
        XCTAssertEqual(tables["grdb_migrations"]?.filter { $0 == row }.count, 1, "v12 applied once", file: file, line: line)
        tables["grdb_migrations"]?.removeAll { $0 == row }
        for table in ["own_word", "journal_setting"] {
            XCTAssertEqual(tables.removeValue(forKey: table), [], "v12's \(table) starts empty", file: file, line: line)
        }
    }

    /// Takes off what v13 adds to a journal: its migration's row, the three templates it starts
    /// with (and their table's sequence), and its empty table of deletions. Nothing is logged to
    /// be sent: every machine makes the same three.
    private func peelTemplates(_ tables: inout [String: [[String]]], file: StaticString = #filePath, line: UInt = #line) {
        let row = ["text:'v13: templates'"]
        XCTAssertEqual(tables["grdb_migrations"]?.filter { $0 == row }.count, 1, "v13 applied once", file: file, line: line)
        tables["grdb_migrations"]?.removeAll { $0 == row }
        let starters = tables.removeValue(forKey: "template") ?? []
        XCTAssertEqual(starters.map { $0[1] }, ["text:'5f1c2a9e-3b7d-4e61-9a0c-000000000001'", "text:'5f1c2a9e-3b7d-4e61-9a0c-000000000002'",
                                                "text:'5f1c2a9e-3b7d-4e61-9a0c-000000000003'"], "the three to start with", file: file, line: line)
        XCTAssertEqual(starters.map { $0.last }, starters.map { _ in "text:'1970-01-01 00:00:00.000'" }, "dated long ago", file: file, line: line)
        XCTAssertEqual(tables.removeValue(forKey: "sync_template_gone"), [], "v13's deletions start empty", file: file, line: line)
        tables["sqlite_sequence"]?.removeAll { $0.first == "text:'template'" }
    }

    private func everyTable(_ path: String) throws -> [String: [[String]]] {
        let queue = try DatabaseQueue(path: "file:\(path)?immutable=1", configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in
            var tables: [String: [[String]]] = [:]
            let sync = try db.tableExists("sync_state")
                ? ["sync_state", "sync_change", "sync_tombstone", "sync_tag_gone", "sync_applied", "entry_version"] : []
            let stamps = try db.tableExists("sync_revival") ? ["sync_revival", "sync_tag_made"] : []
            let kept = try db.tableExists("kept_draft") ? ["kept_draft"] : []
            let photos = try db.tableExists("photo") ? ["photo_key", "photo", "entry_photo", "sync_photo", "sync_photo_unused"] : []
            let measures = try db.tableExists("measure") ? ["measure", "entry_measure", "sync_measure_gone"] : []
            let words = try db.tableExists("own_word") ? ["own_word", "journal_setting"] : []
            let templates = try db.tableExists("template") ? ["template", "sync_template_gone"] : []
            for table in ["entry", "tag", "entry_tag", "grdb_migrations", "sqlite_sequence"] + sync + stamps + kept + photos + measures + words
                + templates {
                let columns = try db.columns(in: table).map(\.name)
                let selection = columns.map { "typeof(\($0)) || ':' || quote(\($0))" }.joined(separator: ", ")
                tables[table] = try Row.fetchAll(db, sql: "SELECT \(selection) FROM \(table) ORDER BY 1").map { row in
                    (0..<row.count).map { row[$0] as String }
                }
            }
            return tables
        }
    }

    func testAV3JournalOpensWithItsTagsAndEveryRowAsItWas() throws {
        let path = try copy("journal-v3.sqlite")
        let before = try everyTable(path)
        XCTAssertEqual(before["entry_tag"]?.count, 3)
        let store = try JournalStore(path: path)
        let sea = try XCTUnwrap(try store.entries(ids: try store.entryIDs()).first { $0.title == "Sea air" })
        let tags = try store.tags()
        XCTAssertEqual(Set(try store.tagIDs(forEntries: [sea.id])[sea.id] ?? []),
                       Set(tags.filter { ["friends", "Swimming 🏊"].contains($0.name) }.map(\.id)))
        XCTAssertEqual(tags.first { $0.name == "Outside" }?.entryCount, 0)
        _ = try store.save(try EntryDraft(title: "one more", mood: .okay).validated().get(), createdAt: Date())
        store.close()
        var after = try everyTable(path)
        peelPhotos(&after)
        dropEmptySyncTables(&after)
        after["entry"]?.removeLast()
        after["sqlite_sequence"] = before["sqlite_sequence"]
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v8: kept draft'"])
        XCTAssertEqual(after.removeValue(forKey: "kept_draft"), [], "an empty kept draft table is all v8 adds")
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v7: sync stamps'"])
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v6: sync'"])
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v5: index of dates and moods'"])
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v4: faster search index'"])
        XCTAssertEqual(after, before, "no row of a v3 journal changes by opening it")
    }

    /// v4 rebuilds the search index (without word positions, with prefix indexes): everything it
    /// found in a v3 journal it finds again, and the index matches the entries.
    func testAV3JournalsSearchIndexIsRebuiltAndFindsTheSame() throws {
        let path = try copy("journal-v3.sqlite")
        let store = try JournalStore(path: path)
        let titles = { (query: JournalQuery) throws -> [String] in
            try store.entries(ids: try store.search(query)).map(\.title).sorted()
        }
        XCTAssertEqual(try titles(JournalQuery(text: "cafe naive")), ["Quiet Sunday"])
        XCTAssertEqual(try titles(JournalQuery(text: "b")), ["Rainy commute, edited", "Sea air", "Written by v2 👋🏽"], "one letter: a prefix index")
        XCTAssertEqual(try titles(JournalQuery(text: "שלו")), ["שלום עולם"])
        XCTAssertEqual(try titles(JournalQuery(text: "x‍y ab·cd 👋🏽wr")), [], "separators the tokenizer cuts at are no phrase")
        XCTAssertEqual(try titles(JournalQuery(text: "👋🏽wr")), ["Written by v2 👋🏽"])
        store.close()
        let queue = try DatabaseQueue(path: path)
        try queue.read { db in
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'entry_search'") ?? ""
            XCTAssertTrue(sql.contains("detail = none") && sql.contains("prefix = '1 2'"), sql)
        }
        XCTAssertNoThrow(try queue.write { db in
            try db.execute(sql: "INSERT INTO entry_search (entry_search) VALUES ('integrity-check')")
        })
        try queue.close()
    }

    func testAV4JournalUpgradesWithEveryRowAsItWas() throws {
        let path = try copy("journal-v4.sqlite")
        let before = try everyTable(path)
        XCTAssertEqual(before["grdb_migrations"]?.last, ["text:'v4: faster search index'"])
        let store = try JournalStore(path: path)
        XCTAssertEqual(try store.entries(ids: try store.search(JournalQuery(text: "written v4"))).map(\.title), ["Written by v4"])
        _ = try store.save(try EntryDraft(title: "one more", mood: .okay).validated().get(), createdAt: Date())
        store.close()
        var after = try everyTable(path)
        peelPhotos(&after)
        dropEmptySyncTables(&after)
        after["entry"]?.removeAll { $0[1] == "text:'one more'" }
        after["sqlite_sequence"] = before["sqlite_sequence"]
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v8: kept draft'"])
        XCTAssertEqual(after.removeValue(forKey: "kept_draft"), [], "an empty kept draft table is all v8 adds")
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v7: sync stamps'"])
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v6: sync'"])
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v5: index of dates and moods'"])
        XCTAssertEqual(after, before, "no row of a v4 journal changes by upgrading it")
        try assertInsightsReadTheIndexAlone(path)
    }

    /// v5 only adds an index: the Insights page's pass over dates and moods reads it alone, never
    /// the entries' rows, whatever the period.
    private func assertInsightsReadTheIndexAlone(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.read { db in
            for bound in ["", "AND entry.created_at >= '2025-01-01' AND entry.created_at < '2026-01-01'"] {
                let plan = try Row.fetchAll(db, sql: """
                    EXPLAIN QUERY PLAN SELECT created_at, mood, id FROM entry WHERE 1 \(bound) ORDER BY created_at
                    """).map { $0["detail"] as String }.joined(separator: "; ")
                XCTAssertTrue(plan.contains("COVERING INDEX entry_by_created_at_and_mood"), plan, file: file, line: line)
            }
        }
    }

    /// Takes out the tables v6 and v7 added to an older journal, each of them empty.
    private func dropEmptySyncTables(_ tables: inout [String: [[String]]], file: StaticString = #filePath, line: UInt = #line) {
        for table in ["sync_state", "sync_change", "sync_tombstone", "sync_tag_gone", "sync_applied", "entry_version",
                      "sync_revival", "sync_tag_made"] {
            XCTAssertEqual(tables.removeValue(forKey: table), [], table, file: file, line: line)
        }
    }

    /// v6 and v7 add sync's tables, empty, and triggers that write nothing until sync is set up.
    private func assertSyncTablesAreEmptyAndItsTriggersQuiet(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.read { db in
            for table in ["sync_state", "sync_change", "sync_tombstone", "sync_tag_gone", "sync_applied", "entry_version",
                          "sync_revival", "sync_tag_made"] {
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)"), 0, table, file: file, line: line)
            }
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok", file: file, line: line)
        }
    }

    func testAV5JournalUpgradesWithEveryRowAsItWas() throws {
        let path = try copy("journal-v5.sqlite")
        let before = try everyTable(path)
        XCTAssertEqual(before["grdb_migrations"]?.last, ["text:'v5: index of dates and moods'"])
        let store = try JournalStore(path: path)
        let written = try XCTUnwrap(try store.entries(ids: try store.search(JournalQuery(text: "written v5"))).first)
        XCTAssertEqual(written.mood, .reallyGood)
        XCTAssertEqual(try store.tagIDs(forEntries: [written.id])[written.id].map(Set.init), Set(try store.tags().filter { $0.name == "reading" }.map(\.id)))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let november = try store.insights(for: .year(2025), now: written.createdAt, calendar: utc)
        XCTAssertEqual(november.total.count, 9, "every entry of the fixture with a valid mood")
        XCTAssertEqual(november.pixelDays[Insights.Day(year: 2025, month: 11, day: 25).number], MoodAverage(count: 1, total: 4))
        _ = try store.save(try EntryDraft(title: "one more", mood: .okay).validated().get(), createdAt: Date())
        store.close()
        var after = try everyTable(path)
        peelPhotos(&after)
        dropEmptySyncTables(&after)
        after["entry"]?.removeAll { $0[1] == "text:'one more'" }
        after["sqlite_sequence"] = before["sqlite_sequence"]
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v8: kept draft'"])
        XCTAssertEqual(after.removeValue(forKey: "kept_draft"), [], "an empty kept draft table is all v8 adds")
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v7: sync stamps'"])
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v6: sync'"])
        XCTAssertEqual(after, before, "no row of a v5 journal changes by upgrading it")
        try assertSyncTablesAreEmptyAndItsTriggersQuiet(path)
        try assertInsightsReadTheIndexAlone(path)
    }

    /// A v6 journal, synced through a folder with another machine (made by `flourish
    /// --sync-setup` and `--sync`): it opens with every row as it was, sync's included, and
    /// its triggers still note a change.
    func testAV6SyncedJournalOpensWithEveryRowAsItWas() throws {
        let path = try copy("journal-v6.sqlite")
        let before = try everyTable(path)
        XCTAssertEqual(before["grdb_migrations"]?.last, ["text:'v6: sync'"])
        XCTAssertEqual(before["sync_applied"]?.count, 2, "its own batch and the other machine's")
        let store = try JournalStore(path: path)
        let state = try XCTUnwrap(try store.syncState())
        XCTAssertEqual(state.place, "/tmp/fx2/place")
        let entries = try store.entries(ids: try store.entryIDs())
        XCTAssertEqual(Set(entries.map(\.title)), ["Written by v6", "שלום 🌊", "Grey", "From the other machine"])
        let written = try XCTUnwrap(entries.first { $0.title == "Written by v6" })
        XCTAssertEqual(written.location, Location(latitude: 48.8566, longitude: 2.3522, accuracy: 35))
        XCTAssertEqual(store.check(), .healthy)
        store.close()
        var after = try everyTable(path)
        peelPhotos(&after)
        XCTAssertEqual(after.removeValue(forKey: "sync_revival"), [])
        XCTAssertEqual(after.removeValue(forKey: "sync_tag_made"), [])
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v8: kept draft'"])
        XCTAssertEqual(after.removeValue(forKey: "kept_draft"), [], "an empty kept draft table is all v8 adds")
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v7: sync stamps'"])
        XCTAssertEqual(after, before, "no row of a v6 journal changes by upgrading it")

        let reopened = try JournalStore(path: path)
        _ = try reopened.save(try EntryDraft(title: "one more", mood: .okay).validated().get(), createdAt: Date())
        reopened.close()
        XCTAssertEqual(try everyTable(path)["sync_change"]?.count, 1, "the new entry is noted to be sent")
    }

    /// A v7 journal (made by `flourish --import`, `--sync-setup` and `--sync`, with one entry
    /// deleted by another program and imported again): it opens with every row as it was, the
    /// Undo's and the tag's stamps included.
    func testAV7SyncedJournalOpensWithEveryRowAsItWas() throws {
        let path = try copy("journal-v7.sqlite")
        let before = try everyTable(path)
        XCTAssertEqual(before["grdb_migrations"]?.last, ["text:'v7: sync stamps'"])
        XCTAssertEqual(before["sync_revival"]?.map(\.first), ["text:'8c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d53'"])
        XCTAssertEqual(before["sync_tag_made"]?.map(\.first), ["text:'kitchen'"])
        let store = try JournalStore(path: path)
        XCTAssertEqual(try store.syncState()?.place, "/tmp/fx7/place")
        let entries = try store.entries(ids: try store.entryIDs())
        XCTAssertEqual(Set(entries.map(\.title)), ["Written by v7", "مرحبا 🌱", "Deleted, then back"])
        XCTAssertEqual(store.check(), .healthy)
        store.close()
        var after = try everyTable(path)
        peelPhotos(&after)
        XCTAssertEqual(after["grdb_migrations"]?.removeLast(), ["text:'v8: kept draft'"])
        XCTAssertEqual(after.removeValue(forKey: "kept_draft"), [], "an empty kept draft table is all v8 adds")
        XCTAssertEqual(after, before, "no row of a v7 journal changes by opening it")
    }

    /// A v8 journal (a v7 one given an entry by `flourish --import`, with the New Entry form's
    /// words and an unsaved edit of that entry kept, as the lock leaves them): it opens with every
    /// row as it was, and both come back whole.
    func testAV8JournalOpensWithItsKeptDraftAndEveryRowAsItWas() throws {
        let path = try copy("journal-v8.sqlite")
        let before = try everyTable(path)
        XCTAssertEqual(before["grdb_migrations"]?.last, ["text:'v8: kept draft'"])
        XCTAssertEqual(before["kept_draft"]?.count, 2, "the New Entry form's words and an edit not saved")
        let store = try JournalStore(path: path)
        let draft = try XCTUnwrap(store.keptDraft())
        XCTAssertEqual(draft.title, "Half a thought 🌱")
        XCTAssertEqual(draft.body, "Written before the lock")
        XCTAssertEqual(draft.mood, .meh)
        XCTAssertEqual(draft.date, Date(timeIntervalSince1970: 1_795_740_000.5))
        XCTAssertEqual(draft.tagIDs, [6, 11])
        let entries = try store.entries(ids: try store.entryIDs())
        let written = try XCTUnwrap(entries.first { $0.title == "Written by v8" })
        let edit = try XCTUnwrap(store.keptDrafts().edit)
        XCTAssertEqual(edit.entryID, written.id)
        XCTAssertEqual(edit.draft, EntryDraft(title: "Written by v8, edited", body: "An edit not saved yet", mood: .reallyGood))
        XCTAssertEqual(store.check(), .healthy)
        store.close()
        var after = try everyTable(path)
        peelPhotos(&after)
        XCTAssertEqual(after, before, "no row of a v8 journal changes by opening it")
    }

    /// A v9 journal (the v8 one given three photos: two on one entry, one of them on another
    /// entry under another name, a PNG on the kept New Entry draft, and one thumbnail): it opens
    /// with every row as it was, and every photo opens byte for byte from its folder.
    func testAV9JournalOpensWithItsPhotosAndEveryRowAsItWas() throws {
        let path = try copy("journal-v9.sqlite")
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("journal-v9-photos").path,
                                         toPath: folder.file("journal-v9-photos"))
        let before = try everyTable(path)
        XCTAssertEqual(before["grdb_migrations"]?.last, ["text:'v9: photos'"])
        XCTAssertEqual(before["entry_photo"]?.count, 3)
        let store = try JournalStore(path: path)
        let entries = try store.entries(ids: try store.entryIDs())
        let first = try XCTUnwrap(entries.first { $0.title == "Written by v9, with photos 📷" })
        XCTAssertEqual(first.photos.map(\.fileName), ["IMG_2041.jpg", "dunes.jpg"])
        XCTAssertEqual(try store.photo(first.photos[0]), PhotoStoreTests.picture(901, size: 30_000, framed: false))
        XCTAssertEqual(try store.photo(first.photos[1]), PhotoStoreTests.picture(902, size: 12_000, framed: false))
        XCTAssertEqual(try store.thumbnail(of: first.photos[0]), PhotoStoreTests.picture(904, size: 2_000, framed: false))
        let again = try XCTUnwrap(entries.first { $0.title == "The same dunes" })
        XCTAssertEqual(again.photos, [EntryPhoto(id: first.photos[1].id, fileName: "dunes again.jpg")])
        let kept = store.keptDrafts()
        let scan = try XCTUnwrap(kept.newEntry?.photos?.first)
        XCTAssertEqual(scan.fileName, "scan.png")
        XCTAssertEqual(try store.format(of: scan), .png)
        XCTAssertEqual(try store.photo(scan).dropFirst(8), PhotoStoreTests.picture(903, size: 5_000, framed: false))
        XCTAssertEqual(kept.edit?.draft.photos, [first.photos[1]])
        XCTAssertEqual(store.check(), .healthy)
        store.close()
        var after = try everyTable(path)
        peelMeasures(&after)
        XCTAssertEqual(after, before, "no row of a v9 journal changes by opening it")
    }

    /// A v10 journal (the v9 one given three measures, a number with a unit and range, a scale
    /// and a number with neither, in an order of their own; values on two entries, and on both
    /// kept drafts): it opens with every row as it was, and every value comes back.
    func testAV10JournalOpensWithItsMeasuresAndEveryRowAsItWas() throws {
        let path = try copy("journal-v10.sqlite")
        let before = try everyTable(path)
        XCTAssertEqual(before["grdb_migrations"]?.first, ["text:'v10: measures'"])
        XCTAssertEqual(before["entry_measure"]?.count, 3)
        XCTAssertEqual(before["sync_change"]?.filter { $0[1] == "text:'measure'" }.count, 6, "synced: each measure made, and the three moved, logged")
        let store = try JournalStore(path: path)
        let measures = try store.measures()
        XCTAssertEqual(measures.map(\.definition), [
            MeasureDefinition(name: "Steps", kind: .number),
            MeasureDefinition(name: "Sleep 😴", kind: .number, unit: "hours", range: 0...24),
            MeasureDefinition(name: "Énergie", kind: .scale),
        ])
        let (steps, sleep, energy) = (measures[0].id, measures[1].id, measures[2].id)
        let entries = try store.entries(ids: try store.entryIDs())
        XCTAssertEqual(entries.first { $0.title == "Written by v9, with photos 📷" }?.measures, [sleep: 6.75, energy: 4])
        XCTAssertEqual(entries.first { $0.title == "The same dunes" }?.measures, [steps: 12_345])
        XCTAssertEqual(entries.filter { !$0.measures.isEmpty }.count, 2)
        let kept = store.keptDrafts()
        XCTAssertEqual(kept.newEntry?.measures, [sleep: 9, energy: 2])
        XCTAssertEqual(kept.newEntry?.photos?.map(\.fileName), ["scan.png"])
        XCTAssertEqual(kept.edit?.draft.measures, [sleep: 5])
        XCTAssertEqual(store.check(), .healthy)
        store.close()
        var after = try everyTable(path)
        peelOptionalMood(&after)
        XCTAssertEqual(after, before, "no row of a v10 journal changes by opening it")
    }

    /// A v10 journal upgrades to v11 by its definitions alone: `entry.mood` and
    /// `entry_version.mood` lose NOT NULL (their CHECK stays) and no row changes.
    func testAV10JournalUpgradesToEntriesWithoutAMoodChangingNoRow() throws {
        let path = try copy("journal-v10.sqlite")
        let store = try JournalStore(path: path)
        store.close()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.read { db in
            XCTAssertEqual(try db.columns(in: "entry").first { $0.name == "mood" }?.isNotNull, false)
            XCTAssertEqual(try db.columns(in: "entry_version").first { $0.name == "mood" }?.isNotNull, false)
            let entry = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'entry'") ?? ""
            XCTAssertTrue(entry.contains("\"mood\" INTEGER CHECK ((\"mood\" >= 0) AND (\"mood\" <= 5))"), entry)
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
        }
    }

    /// A v11 journal (the v10 one with two entries imported without a mood by `--import`, one
    /// untitled): it opens with every row as it was, and the two read back without a mood.
    func testAV11JournalOpensWithItsEntriesWithoutAMoodAndEveryRowAsItWas() throws {
        let path = try copy("journal-v11.sqlite")
        let before = try everyTable(path)
        XCTAssertEqual(before["grdb_migrations"]?.filter { $0 == ["text:'v11: entries without a mood'"] }.count, 1)
        XCTAssertEqual(before["entry"]?.filter { $0[3] == "null:NULL" }.count, 2)
        let store = try JournalStore(path: path)
        let entries = try store.entries(ids: try store.entryIDs())
        XCTAssertEqual(entries.filter { $0.mood == nil }.map(\.body).sorted(), ["No mood was kept then.\nTwo lines.", "Untitled, no mood either 🌧"])
        XCTAssertEqual(entries.first { $0.title == "Written by v9, with photos 📷" }?.mood, .theBest)
        XCTAssertEqual(store.check(), .healthy)
        store.close()
        var after = try everyTable(path)
        peelOwnWords(&after)
        XCTAssertEqual(after, before, "no row of a v11 journal changes by opening it")
    }

    /// A v12 journal (the v11 one with two words added to its dictionary and French chosen for
    /// its spelling, by this build): it opens with its words, language and every row as it was.
    func testAV12JournalOpensWithItsOwnWordsAndEveryRowAsItWas() throws {
        let path = try copy("journal-v12.sqlite")
        let before = try everyTable(path)
        XCTAssertEqual(before["grdb_migrations"]?.filter { $0 == ["text:'v12: words of my own'"] }.count, 1)
        let store = try JournalStore(path: path)
        XCTAssertEqual(store.ownWords(), ["Gretchenberg", "Quillabamba"])
        XCTAssertEqual(store.spellingLanguage(), "fr_FR")
        XCTAssertEqual(store.check(), .healthy)
        store.close()
        var after = try everyTable(path)
        peelTemplates(&after)
        XCTAssertEqual(after, before, "no row of a v12 journal changes by opening it")
    }

    /// A v13 journal (the v12 one upgraded by this build, then a template made with a mood, tags
    /// and a value and made the default, a starter edited, another deleted and a word added, as
    /// the app writes them, with sync on): it opens with all of it and every row as it was.
    func testAV13JournalOpensWithItsTemplatesAndEveryRowAsItWas() throws {
        let path = try copy("journal-v13.sqlite")
        let before = try everyTable(path)
        XCTAssertEqual(before["grdb_migrations"]?.filter { $0 == ["text:'v13: templates'"] }.count, 1)
        let store = try JournalStore(path: path)
        let templates = try store.templates()
        XCTAssertEqual(templates.map(\.name), ["Three good things", "Evening review", "Dream log"])
        XCTAssertEqual(templates.filter(\.isDefault).map(\.name), ["Dream log"])
        let dream = try XCTUnwrap(templates.last?.definition)
        XCTAssertEqual(dream.mood, .okay)
        XCTAssertEqual(dream.tags, ["Kitchen", "old diary"])
        XCTAssertEqual(dream.values(in: try store.measures()).values.sorted(), [7.5])
        XCTAssertTrue(templates[0].definition.body.hasSuffix("Edited by v13."))
        XCTAssertEqual(store.ownWords(), ["Gretchenberg", "Ollantaytambo", "Quillabamba"])
        XCTAssertEqual(store.check(), .healthy)
        store.close()
        XCTAssertEqual(try everyTable(path), before, "no row of a v13 journal changes by opening it")
    }
}
