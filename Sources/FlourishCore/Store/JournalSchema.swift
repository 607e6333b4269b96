import GRDB

/// The journal's schema, as named, append-only migrations. Never edit a shipped migration:
/// add a new one, so every journal on every machine upgrades the same way.
enum JournalSchema {
    /// Every Flourish journal has this one applied; a database without it is not a journal.
    static let firstMigration = "v1: entry"
    /// Entries get a stable identity and an edit time.
    static let identityMigration = "v2: entry uuid and updated_at"

    /// Tags on entries, and the full-text index of titles and bodies.
    static let tagsAndSearchMigration = "v3: tags and search"
    /// The full-text index without word positions, with prefix indexes of one and two letters.
    static let fasterSearchMigration = "v4: faster search index"
    /// Each entry's date and mood in an index of their own, read without touching the entries.
    static let insightsMigration = "v5: index of dates and moods"
    /// What sync needs: its settings, the changes not sent yet, deletions, and the earlier
    /// versions a conflict kept. Nothing in the tables before it changes.
    static let syncMigration = "v6: sync"
    /// When an entry came back by Undo and when a tag's name was made, kept after they are sent,
    /// so that a deletion or a rename made earlier elsewhere and heard of later loses to them.
    static let syncStampsMigration = "v7: sync stamps"
    /// The New Entry form's half-written entry, and an edit not yet saved, kept inside the journal
    /// while it is locked (so, for a locked journal, sealed like the rest of it), and put back on
    /// unlock.
    static let keptDraftMigration = "v8: kept draft"
    /// Photos: the keys that seal their files, the photos kept, and which entries carry them.
    static let photosMigration = "v9: photos"
    /// Measures: the numbers and scales a person tracks beside the mood, and each entry's values.
    static let measuresMigration = "v10: measures"
    /// An entry may have no mood (one imported from a journal that has none): `entry.mood` and an
    /// earlier version's may be NULL. No row changes.
    static let optionalMoodMigration = "v11: entries without a mood"
    /// Spelling: the words a person added to the dictionary (names, places), and the journal's
    /// own settings (its spelling language). Kept in the journal, not in Enchant's plain word
    /// lists, so that they are sealed with a locked journal.
    static let ownWordsMigration = "v12: words of my own"
    /// Templates: named starts for an entry (a title, a body with placeholders, and a mood, tags
    /// and measure values to prefill), the three Flourish offers to start with, and what sync
    /// needs to carry them and the words of one's own to the other machines.
    static let templatesMigration = "v13: templates"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(firstMigration) { db in
            try db.create(table: "entry") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull().defaults(to: "")
                table.column("body", .text).notNull().defaults(to: "")
                table.column("mood", .integer).notNull().check { $0 >= 0 && $0 <= 5 }
                table.column("created_at", .datetime).notNull()
                // Room for where the person was; filled only with their consent.
                table.column("latitude", .double)
                table.column("longitude", .double)
                table.column("accuracy", .double)
            }
            try db.create(index: "entry_by_created_at", on: "entry", columns: ["created_at", "id"])
        }
        migrator.registerMigration(identityMigration, migrate: addIdentity)
        migrator.registerMigration(tagsAndSearchMigration, migrate: addTagsAndSearch)
        migrator.registerMigration(fasterSearchMigration, migrate: makeSearchFaster)
        migrator.registerMigration(insightsMigration) { db in
            // The Insights page reads every entry's date and mood in date order. Through the date
            // index alone, each one also meant reading its row, wide with its body: 90-110 ms for
            // 100,000 entries. With the mood beside the date (and the id, as every index has it),
            // SQLite answers from this index alone, in about 20 ms. It costs 3 MB at 100,000.
            try db.execute(sql: "CREATE INDEX entry_by_created_at_and_mood ON entry (created_at, mood)")
        }
        migrator.registerMigration(syncMigration, migrate: addSync)
        migrator.registerMigration(syncStampsMigration, migrate: addSyncStamps)
        // Foreign keys checked as it goes, not over the whole journal after it: a new table cannot
        // break them, and a journal with a row another program left dangling still upgrades.
        migrator.registerMigration(keptDraftMigration, foreignKeyChecks: .immediate) { db in
            // Two rows at most: 1 the New Entry form's, 2 an edit of the entry `entry_id` not yet
            // saved. Tags by id, the date in seconds since 1970 (nil: "now", or the entry's own).
            try db.execute(sql: """
                CREATE TABLE kept_draft (
                  id INTEGER PRIMARY KEY CHECK (id IN (1, 2)), entry_id INTEGER,
                  title TEXT NOT NULL, body TEXT NOT NULL, mood INTEGER, date REAL, tag_ids TEXT NOT NULL
                )
                """)
        }
        migrator.registerMigration(photosMigration, foreignKeyChecks: .immediate, migrate: addPhotos)
        migrator.registerMigration(measuresMigration, foreignKeyChecks: .immediate, migrate: addMeasures)
        migrator.registerMigration(optionalMoodMigration, foreignKeyChecks: .immediate, migrate: allowEntriesWithoutMood)
        migrator.registerMigration(ownWordsMigration, foreignKeyChecks: .immediate) { db in
            try db.execute(sql: """
                CREATE TABLE own_word (word TEXT PRIMARY KEY NOT NULL CHECK (length(word) BETWEEN 1 AND 100)) WITHOUT ROWID;
                CREATE TABLE journal_setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration(templatesMigration, foreignKeyChecks: .immediate, migrate: addTemplates)
        return migrator
    }

    /// - `photo_key`: the keys that seal photo files (`PhotoSeal`), kept here so that a photo is
    ///   exactly as private as the journal: sealed with it when it is locked. `made_locked` says a
    ///   key was made while the journal was locked (one made before could have been read from the
    ///   disk then; a locked journal seals new photos only with a key it made locked).
    /// - `photo`: each photo kept in the photo folder, by name (`PhotoName`, from its content),
    ///   its key, its kind and size in bytes. A row no entry, kept draft or earlier version
    ///   names is removed at the next start (`JournalStore.forgetUnusedPhotos`).
    /// - `entry_photo`: the photos each entry carries, in order, each with its file's name.
    /// - A kept draft and an earlier version gain their photos (as `EntryPhoto.text`).
    /// - `sync_photo`: each photo's name at the sync place (a keyed hash of it under the sync
    ///   key, learnt once: a photo is read whole to learn it); empty until sync is set up.
    /// - `sync_photo_unused`: photos at the place that no entry here names, since when (a photo
    ///   is removed from the place once none has named it for a while).
    private static func addPhotos(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE photo_key (
              id INTEGER PRIMARY KEY,
              key BLOB NOT NULL CHECK (length(key) = 32),
              made_locked INTEGER NOT NULL
            );
            CREATE TABLE photo (
              name     TEXT PRIMARY KEY NOT NULL,
              key_id   INTEGER NOT NULL REFERENCES photo_key(id),
              format   TEXT NOT NULL,
              size     INTEGER NOT NULL,
              added_at TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE entry_photo (
              entry_id  INTEGER NOT NULL REFERENCES entry(id) ON DELETE CASCADE,
              position  INTEGER NOT NULL,
              photo     TEXT NOT NULL REFERENCES photo(name),
              file_name TEXT NOT NULL,
              PRIMARY KEY (entry_id, position)
            ) WITHOUT ROWID;
            CREATE INDEX entry_photo_by_photo ON entry_photo (photo);
            ALTER TABLE kept_draft ADD COLUMN photos TEXT NOT NULL DEFAULT '';
            ALTER TABLE entry_version ADD COLUMN photos TEXT NOT NULL DEFAULT '';
            CREATE TABLE sync_photo (
              photo TEXT PRIMARY KEY NOT NULL REFERENCES photo(name) ON DELETE CASCADE,
              place TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX sync_photo_by_place ON sync_photo (place);
            CREATE TABLE sync_photo_unused (place TEXT PRIMARY KEY NOT NULL, since TEXT NOT NULL) WITHOUT ROWID;
            """)
    }

    /// - `measure`: what the person tracks (Sleep, hours, 0–24; Energy, 1 to 5), in their order
    ///   (`position`). Named without regard to case through `key`, as tags are; `uuid` names it
    ///   between machines, so a rename travels as a rename. `kind` is `number` (with an optional
    ///   `unit` and range, `lowest`–`highest`) or `scale` (whole steps 1 to 5).
    /// - `entry_measure`: each entry's values, one per measure at most; an entry without a value
    ///   for a measure has no row (not a zero). Indexed by measure and value, for "sleep < 6".
    /// - A kept draft and an earlier version gain their values (as `MeasureValues.text`).
    /// - What sync needs of measures: when each definition last changed (`changed_at`, the
    ///   later change wins between machines), a change logged by triggers while sync is on
    ///   (named by uuid), and `sync_measure_gone`: measures deleted, with when, so that a
    ///   deletion travels and a machine that had not heard of it does not bring it back.
    /// Nothing in the tables before it changes.
    private static func addMeasures(_ db: Database) throws {
        let on = "EXISTS (SELECT 1 FROM sync_state WHERE key = 'journal') AND NOT EXISTS (SELECT 1 FROM sync_state WHERE key = 'applying')"
        let now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
        try db.execute(sql: """
            CREATE TABLE measure (
              id       INTEGER PRIMARY KEY AUTOINCREMENT,
              uuid     TEXT NOT NULL UNIQUE,
              name     TEXT NOT NULL,
              key      TEXT NOT NULL UNIQUE,
              kind     TEXT NOT NULL CHECK (kind IN ('number', 'scale')),
              unit     TEXT NOT NULL DEFAULT '',
              lowest   REAL,
              highest  REAL,
              position INTEGER NOT NULL,
              changed_at TEXT NOT NULL DEFAULT (\(now))
            );
            CREATE TABLE entry_measure (
              entry_id   INTEGER NOT NULL REFERENCES entry(id) ON DELETE CASCADE,
              measure_id INTEGER NOT NULL REFERENCES measure(id) ON DELETE CASCADE,
              value      REAL NOT NULL,
              PRIMARY KEY (entry_id, measure_id)
            ) WITHOUT ROWID;
            CREATE INDEX entry_measure_by_value ON entry_measure (measure_id, value);
            ALTER TABLE kept_draft ADD COLUMN measures TEXT NOT NULL DEFAULT '';
            ALTER TABLE entry_version ADD COLUMN measures TEXT NOT NULL DEFAULT '';
            CREATE TABLE sync_measure_gone (uuid TEXT PRIMARY KEY NOT NULL, gone_at TEXT NOT NULL) WITHOUT ROWID;
            CREATE TRIGGER sync_measure_made AFTER INSERT ON measure WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name) VALUES ('measure', new.uuid);
              DELETE FROM sync_measure_gone WHERE uuid = new.uuid;
            END;
            CREATE TRIGGER sync_measure_changed AFTER UPDATE ON measure WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name) VALUES ('measure', new.uuid);
            END;
            CREATE TRIGGER sync_measure_deleted AFTER DELETE ON measure WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name) VALUES ('measure', old.uuid);
              INSERT OR REPLACE INTO sync_measure_gone (uuid, gone_at) VALUES (old.uuid, \(now));
            END;
            """)
    }

    /// - `template`: each template, by uuid (as it travels), in the person's order. Its tags by
    ///   name, one a line (as they travel: a tag made on another machine has another id); its
    ///   measure values by the measures' uuids (`MeasureValues.text(byUUID:)`). `is_default`:
    ///   the one every new entry starts from (of several, after sync, the one changed last).
    /// - `sync_template_gone`: templates deleted, since when, as `sync_measure_gone`.
    /// - Words of one's own travel too: each added is logged to be sent.
    /// - The three templates to start with (`StarterTemplates`), in the language Flourish speaks
    ///   as the journal is made or upgraded, under fixed uuids and dated long ago: two machines
    ///   that both made them hold the same three, and any edit made anywhere wins over them.
    private static func addTemplates(_ db: Database) throws {
        let on = "EXISTS (SELECT 1 FROM sync_state WHERE key = 'journal') AND NOT EXISTS (SELECT 1 FROM sync_state WHERE key = 'applying')"
        let now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
        try db.execute(sql: """
            CREATE TABLE template (
              id         INTEGER PRIMARY KEY AUTOINCREMENT,
              uuid       TEXT NOT NULL UNIQUE,
              name       TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
              title      TEXT NOT NULL DEFAULT '',
              body       TEXT NOT NULL DEFAULT '',
              mood       INTEGER CHECK (mood BETWEEN 0 AND 5),
              tags       TEXT NOT NULL DEFAULT '',
              measures   TEXT NOT NULL DEFAULT '',
              position   INTEGER NOT NULL,
              is_default INTEGER NOT NULL DEFAULT 0,
              changed_at TEXT NOT NULL DEFAULT (\(now))
            );
            CREATE TABLE sync_template_gone (uuid TEXT PRIMARY KEY NOT NULL, gone_at TEXT NOT NULL) WITHOUT ROWID;
            """)
        // Before the triggers: every machine makes the same three, so none is sent.
        for (position, starter) in StarterTemplates.all.enumerated() {
            try db.execute(sql: """
                INSERT INTO template (uuid, name, title, body, position, changed_at) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [starter.uuid, starter.name, starter.title, starter.body, position, JournalStore.longAgo])
        }
        try db.execute(sql: """
            CREATE TRIGGER sync_template_made AFTER INSERT ON template WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name) VALUES ('template', new.uuid);
              DELETE FROM sync_template_gone WHERE uuid = new.uuid;
            END;
            CREATE TRIGGER sync_template_changed AFTER UPDATE ON template WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name) VALUES ('template', new.uuid);
            END;
            CREATE TRIGGER sync_template_deleted AFTER DELETE ON template WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name) VALUES ('template', old.uuid);
              INSERT OR REPLACE INTO sync_template_gone (uuid, gone_at) VALUES (old.uuid, \(now));
            END;
            CREATE TRIGGER sync_word_added AFTER INSERT ON own_word WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name) VALUES ('word', new.word);
            END;
            """)
    }

    /// SQLite cannot add a NOT NULL UNIQUE column to a table with rows, so the table is rebuilt:
    /// every existing column is copied as stored (the same bytes), each entry gets a random v4
    /// UUID, and AUTOINCREMENT's high-water mark is carried over so no deleted id is ever reused.
    private static func addIdentity(_ db: Database) throws {
        // The columns are spelled out again rather than shared with v1: a shipped migration must
        // never change because a later one did.
        try db.create(table: "entry_v2") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("title", .text).notNull().defaults(to: "")
            table.column("body", .text).notNull().defaults(to: "")
            table.column("mood", .integer).notNull().check { $0 >= 0 && $0 <= 5 }
            table.column("created_at", .datetime).notNull()
            table.column("latitude", .double)
            table.column("longitude", .double)
            table.column("accuracy", .double)
            table.column("uuid", .text).notNull().unique()
            table.column("updated_at", .datetime)
        }
        let hex = "lower(hex(randomblob(%d)))"
        // xxxxxxxx-xxxx-4xxx-Yxxx-xxxxxxxxxxxx, Y one of 8, 9, a, b (RFC 4122 version 4).
        let uuid = [
            String(format: hex, 4), "'-'", String(format: hex, 2), "'-4'", "substr(\(String(format: hex, 2)), 2)",
            "'-'", "substr('89ab', 1 + (random() & 3), 1)", "substr(\(String(format: hex, 2)), 2)", "'-'", String(format: hex, 6),
        ].joined(separator: " || ")
        let columns = "id, title, body, mood, created_at, latitude, longitude, accuracy"
        try db.execute(sql: "INSERT INTO entry_v2 (\(columns), uuid) SELECT \(columns), \(uuid) FROM entry")
        let highWater = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'entry'")
        try db.drop(table: "entry")
        try db.rename(table: "entry_v2", to: "entry")
        if let highWater {
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'entry'", arguments: [highWater])
            if db.changesCount == 0 {
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('entry', ?)", arguments: [highWater])
            }
        }
        try db.create(index: "entry_by_created_at", on: "entry", columns: ["created_at", "id"])
    }

    /// Tags (names compared without regard to case through `key`), which entries carry them,
    /// and an FTS5 index of titles and bodies kept current by triggers in the same transaction
    /// as each change. Nothing in `entry` changes; the index is built from it here. (It had no
    /// prefix indexes: with word positions kept, they made the file 55 MB larger. v4 drops the
    /// positions and adds them, which is what made a first letter typed fast.)
    private static func addTagsAndSearch(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE tag (
              id   INTEGER PRIMARY KEY AUTOINCREMENT,
              name TEXT NOT NULL,
              key  TEXT NOT NULL UNIQUE
            );
            CREATE TABLE entry_tag (
              entry_id INTEGER NOT NULL REFERENCES entry(id) ON DELETE CASCADE,
              tag_id   INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
              PRIMARY KEY (entry_id, tag_id)
            ) WITHOUT ROWID;
            CREATE INDEX entry_tag_by_tag ON entry_tag (tag_id, entry_id);
            CREATE VIRTUAL TABLE entry_search USING fts5(
              title, body, content = 'entry', content_rowid = 'id',
              tokenize = 'unicode61 remove_diacritics 2'
            );
            CREATE TRIGGER entry_search_after_insert AFTER INSERT ON entry BEGIN
              INSERT INTO entry_search (rowid, title, body) VALUES (new.id, new.title, new.body);
            END;
            CREATE TRIGGER entry_search_after_delete AFTER DELETE ON entry BEGIN
              INSERT INTO entry_search (entry_search, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
            END;
            CREATE TRIGGER entry_search_after_update AFTER UPDATE OF title, body ON entry BEGIN
              INSERT INTO entry_search (entry_search, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
              INSERT INTO entry_search (rowid, title, body) VALUES (new.id, new.title, new.body);
            END;
            INSERT INTO entry_search (entry_search) VALUES ('rebuild');
            """)
        // The starting set, in the person's language when the journal gets it.
        for name in TagName.starters {
            try db.execute(sql: "INSERT INTO tag (name, key) VALUES (?, ?)", arguments: [name, TagName.key(name)])
        }
    }

    /// The v3 index kept every word's positions, which only phrase queries use (Flourish asks for
    /// words, each on its own), and had no prefix index: a single letter typed into the search
    /// merged the lists of every word beginning with it, 50–70 ms at 100,000 entries. Rebuilt
    /// without positions (`detail = none`) and with prefix indexes of one and two letters, it
    /// answers the same queries in a few milliseconds and takes less room. The entries, tags and
    /// everything else are untouched: the index is derived from the entries and rebuilt from them.
    /// The triggers are spelled out again rather than shared with v3: a shipped migration must
    /// never change because a later one did.
    private static func makeSearchFaster(_ db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER entry_search_after_insert;
            DROP TRIGGER entry_search_after_delete;
            DROP TRIGGER entry_search_after_update;
            DROP TABLE entry_search;
            CREATE VIRTUAL TABLE entry_search USING fts5(
              title, body, content = 'entry', content_rowid = 'id',
              tokenize = 'unicode61 remove_diacritics 2', detail = none, prefix = '1 2'
            );
            CREATE TRIGGER entry_search_after_insert AFTER INSERT ON entry BEGIN
              INSERT INTO entry_search (rowid, title, body) VALUES (new.id, new.title, new.body);
            END;
            CREATE TRIGGER entry_search_after_delete AFTER DELETE ON entry BEGIN
              INSERT INTO entry_search (entry_search, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
            END;
            CREATE TRIGGER entry_search_after_update AFTER UPDATE OF title, body ON entry BEGIN
              INSERT INTO entry_search (entry_search, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
              INSERT INTO entry_search (rowid, title, body) VALUES (new.id, new.title, new.body);
            END;
            INSERT INTO entry_search (entry_search) VALUES ('rebuild');
            """)
    }

    /// Sync's tables, empty until sync is set up (see `JournalSync`):
    /// - `sync_state`: the place, the journal's id there, this machine's id, the next batch's
    ///   number, how far the change log has been sent.
    /// - `sync_change`: what changed since the last sync, appended by triggers in the same
    ///   transaction as each change, so no write path (a save, an edit, an undo, an import, a tag
    ///   renamed in the Tags window) can forget it. Entries are named by uuid, tags by name.
    ///   The triggers write only while sync is on, and not while a sync applies what other
    ///   machines sent (`applying`), which is theirs, not a change of this machine's.
    /// - `sync_tombstone`: entries deleted, with when, so that a deletion travels and an entry
    ///   is not brought back by a machine that had not heard of it; `sync_tag_gone` does the
    ///   same for tags' names.
    /// - `sync_applied`: the batches of other machines already applied (and this machine's own).
    /// - `entry_version`: the version of an entry that lost a conflict, kept in full.
    private static func addSync(_ db: Database) throws {
        let on = "EXISTS (SELECT 1 FROM sync_state WHERE key = 'journal') AND NOT EXISTS (SELECT 1 FROM sync_state WHERE key = 'applying')"
        let now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
        try db.execute(sql: """
            CREATE TABLE sync_state (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE sync_change (
              seq    INTEGER PRIMARY KEY AUTOINCREMENT,
              kind   TEXT NOT NULL,
              name   TEXT NOT NULL,
              detail TEXT,
              at     TEXT NOT NULL DEFAULT (\(now))
            );
            CREATE INDEX sync_change_by_name ON sync_change (name);
            CREATE TABLE sync_tombstone (uuid TEXT PRIMARY KEY NOT NULL, deleted_at TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE sync_tag_gone (key TEXT PRIMARY KEY NOT NULL, gone_at TEXT NOT NULL, renamed_to TEXT) WITHOUT ROWID;
            CREATE TABLE sync_applied (machine TEXT NOT NULL, batch INTEGER NOT NULL, PRIMARY KEY (machine, batch)) WITHOUT ROWID;
            CREATE TABLE entry_version (
              id         INTEGER PRIMARY KEY AUTOINCREMENT,
              entry_uuid TEXT NOT NULL,
              title      TEXT NOT NULL,
              body       TEXT NOT NULL,
              mood       INTEGER NOT NULL,
              created_at TEXT NOT NULL,
              updated_at TEXT,
              latitude   REAL,
              longitude  REAL,
              accuracy   REAL,
              tags       TEXT NOT NULL,
              kept_at    TEXT NOT NULL
            );
            CREATE INDEX entry_version_by_entry ON entry_version (entry_uuid);

            -- An entry saved, imported or put back by Undo; put back, it says when it came back.
            CREATE TRIGGER sync_entry_inserted AFTER INSERT ON entry WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name, detail)
                VALUES (CASE WHEN EXISTS (SELECT 1 FROM sync_tombstone WHERE uuid = new.uuid) THEN 'revived' ELSE 'entry' END,
                        new.uuid, \(now));
              DELETE FROM sync_tombstone WHERE uuid = new.uuid;
            END;
            -- An entry edited: the detail is the version it replaced (its stamp), which tells a
            -- machine that had that version a later edit from an edit made beside it.
            CREATE TRIGGER sync_entry_updated AFTER UPDATE ON entry WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name, detail) VALUES ('entry', new.uuid, coalesce(old.updated_at, old.created_at));
            END;
            CREATE TRIGGER sync_entry_deleted AFTER DELETE ON entry WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name, detail) VALUES ('deleted', old.uuid, NULL);
              INSERT OR REPLACE INTO sync_tombstone (uuid, deleted_at) VALUES (old.uuid, \(now));
            END;
            CREATE TRIGGER sync_tag_inserted AFTER INSERT ON tag WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name, detail) VALUES ('tag', new.name, NULL);
              DELETE FROM sync_tag_gone WHERE key = new.key;
            END;
            CREATE TRIGGER sync_tag_renamed AFTER UPDATE OF name ON tag WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name, detail) VALUES ('rename', old.name, new.name);
            END;
            CREATE TRIGGER sync_tag_deleted AFTER DELETE ON tag WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name, detail) VALUES ('delete-tag', old.name, NULL);
            END;
            -- A tag's old name, gone from the journal (renamed, merged or deleted), and when: an
            -- entry or a machine that still says it, from before then, means the tag as it is now.
            CREATE TRIGGER sync_tag_name_gone AFTER UPDATE OF key ON tag WHEN \(on) AND old.key != new.key BEGIN
              INSERT OR REPLACE INTO sync_tag_gone (key, gone_at, renamed_to) VALUES (old.key, \(now), new.name);
            END;
            CREATE TRIGGER sync_tag_gone AFTER DELETE ON tag WHEN \(on) BEGIN
              INSERT OR REPLACE INTO sync_tag_gone (key, gone_at, renamed_to) VALUES (old.key, \(now), NULL);
            END;
            """)
    }

    /// - `sync_revival`: when a deleted entry was put back (Undo), here or on another machine.
    ///   A deletion stamped before it, from a machine that deleted the entry too, no longer
    ///   deletes it once the Undo has been sent.
    /// - `sync_tag_made`: when a tag's name was made (created, or renamed to), here or elsewhere.
    ///   A rename or deletion of that name stamped before it was meant for an older tag of the
    ///   same name, and leaves this one alone. Tags made before v7 have none: older than any.
    /// The two triggers that write them replace v6's, which stay as they were in v6's migration.
    private static func addSyncStamps(_ db: Database) throws {
        let on = "EXISTS (SELECT 1 FROM sync_state WHERE key = 'journal') AND NOT EXISTS (SELECT 1 FROM sync_state WHERE key = 'applying')"
        let now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
        try db.execute(sql: """
            CREATE TABLE sync_revival (uuid TEXT PRIMARY KEY NOT NULL, revived_at TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE sync_tag_made (key TEXT PRIMARY KEY NOT NULL, made_at TEXT NOT NULL) WITHOUT ROWID;

            DROP TRIGGER sync_entry_inserted;
            CREATE TRIGGER sync_entry_inserted AFTER INSERT ON entry WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name, detail)
                VALUES (CASE WHEN EXISTS (SELECT 1 FROM sync_tombstone WHERE uuid = new.uuid) THEN 'revived' ELSE 'entry' END,
                        new.uuid, \(now));
              INSERT OR REPLACE INTO sync_revival (uuid, revived_at)
                SELECT new.uuid, \(now) WHERE EXISTS (SELECT 1 FROM sync_tombstone WHERE uuid = new.uuid);
              DELETE FROM sync_tombstone WHERE uuid = new.uuid;
            END;
            DROP TRIGGER sync_tag_inserted;
            CREATE TRIGGER sync_tag_inserted AFTER INSERT ON tag WHEN \(on) BEGIN
              INSERT INTO sync_change (kind, name, detail) VALUES ('tag', new.name, NULL);
              DELETE FROM sync_tag_gone WHERE key = new.key;
              INSERT OR REPLACE INTO sync_tag_made (key, made_at) VALUES (new.key, \(now));
            END;
            CREATE TRIGGER sync_tag_name_made AFTER UPDATE OF key ON tag WHEN \(on) AND old.key != new.key BEGIN
              DELETE FROM sync_tag_gone WHERE key = new.key;
              INSERT OR REPLACE INTO sync_tag_made (key, made_at) VALUES (new.key, \(now));
            END;
            """)
    }

    /// Takes NOT NULL off `entry.mood` and `entry_version.mood`, as SQLite's own documentation
    /// says to remove a NOT NULL constraint (ALTER TABLE, "making other kinds of table schema
    /// changes"): each table's definition is edited in place and the schema's version raised, in
    /// this migration's transaction. Nothing on disk changes but the two definitions: a rebuilt
    /// table would copy every entry and cascade through every table that names one, to gain
    /// nothing. The mood's CHECK stays (NULL passes it, as it passes every CHECK). A definition
    /// not as Flourish wrote it is refused, and the journal stays as it was.
    private static func allowEntriesWithoutMood(_ db: Database) throws {
        let edits = [("entry", "\"mood\" INTEGER NOT NULL CHECK", "\"mood\" INTEGER CHECK"),
                     ("entry_version", "mood       INTEGER NOT NULL,", "mood       INTEGER,")]
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "PRAGMA writable_schema = ON")
        do {
            for (table, before, after) in edits {
                guard let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                                                    arguments: [table]),
                      sql.components(separatedBy: before).count == 2 else {
                    // Not "damaged": the journal is whole, only written by other hands; it stays as it was.
                    throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the table \(table) is not as Flourish made it, so it cannot gain entries without a mood")
                }
                try db.execute(sql: "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
                               arguments: [sql.replacingOccurrences(of: before, with: after), table])
            }
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
        } catch {
            try? db.execute(sql: "PRAGMA writable_schema = OFF")
            throw error
        }
        try db.execute(sql: "PRAGMA writable_schema = OFF")
    }
}
