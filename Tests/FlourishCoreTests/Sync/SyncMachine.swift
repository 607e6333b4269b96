import FlourishCore
import Foundation
import GRDB
import XCTest

/// One machine in a sync test: its own journal file, and sync through a place.
final class SyncMachine {
    let store: JournalStore
    var sync: JournalSync?

    init(_ path: String) throws { store = try JournalStore(path: path) }

    func save(_ title: String, _ body: String = "", _ mood: Mood = .okay, tags: Set<Int64> = [], at seconds: Double) throws -> Entry {
        try store.save(try EntryDraft(title: title, body: body, mood: mood, tagIDs: tags).validated().get(),
                       createdAt: Date(timeIntervalSince1970: seconds))
    }

    func edit(_ entry: Entry, title: String, at seconds: Double) throws -> Entry {
        let id = try XCTUnwrap(try store.entries(ids: try store.entryIDs()).first { $0.uuid == entry.uuid }).id
        return try store.update(id: id, with: try EntryDraft(title: title, body: entry.body, mood: entry.mood, tagIDs: entry.tagIDs)
            .validated().get(), updatedAt: Date(timeIntervalSince1970: seconds))
    }

    @discardableResult
    func syncNow() throws -> SyncReport { try XCTUnwrap(sync).sync() }

    func entry(_ uuid: String) throws -> Entry? {
        try store.entries(ids: try store.entryIDs()).first { $0.uuid == uuid }
    }

    func tagNames() throws -> [String] { try store.tags(counted: false).map(\.name) }

    /// Every stored column of every entry, by uuid, with the entry's tags' names: what "the same
    /// journal, entry for entry" means.
    func contents() throws -> [String: [String]] {
        let queue = try DatabaseQueue(path: store.file, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in
            var rows: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT uuid, quote(title), quote(body), quote(mood), quote(created_at), quote(updated_at),
                       quote(latitude), quote(longitude), quote(accuracy),
                       (SELECT group_concat(name, '|') FROM (SELECT tag.name FROM entry_tag JOIN tag ON tag.id = tag_id
                        WHERE entry_id = entry.id ORDER BY tag.key))
                FROM entry
                """) {
                rows[row[0]] = (1..<row.count).map { (row[$0] as String?) ?? "" }
            }
            return rows
        }
    }

    func versions() throws -> [String] {
        let queue = try DatabaseQueue(path: store.file, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: "SELECT entry_uuid || ':' || title FROM entry_version ORDER BY 1") }
    }
}
