// The journal's encryption at rest: a SQLite VFS over the system's own ("unix") that seals every
// page of a locked journal, and every page in its write-ahead log, with XChaCha20-Poly1305
// (libsodium) before it reaches the disk, and opens and checks each one as SQLite reads it.
//
// A file is opened through it with a URI: file:/path?vfs=flourish-cipher&cipher=N, where N is a
// key's id from flourish_cipher_add_key. The key is never part of a name or a URI.
#ifndef FLOURISH_JOURNAL_CIPHER_H
#define FLOURISH_JOURNAL_CIPHER_H

#define FLOURISH_CIPHER_VFS "flourish-cipher"
/// Every locked journal's page size, and the bytes at the end of each page that hold its nonce
/// (24) and tag (16): SQLite leaves them unused (the header's "reserved space").
#define FLOURISH_CIPHER_PAGE_SIZE 4096
#define FLOURISH_CIPHER_RESERVE 40
#define FLOURISH_CIPHER_KEY_SIZE 32
/// The page format every file the VFS makes is in: 2, each page bound to its file's identity and
/// the log's checksums masked (1: the first locked journals', still read and written as they are).
#define FLOURISH_CIPHER_FORMAT 2
/// sqlite3_file_control's op that asks a connection's locked journal (its "main" file) its page
/// format into an int: 1 or 2 once a page has been read, 0 before (or for a file still empty).
/// Far from SQLite's own ops, which count up from 1.
#define FLOURISH_CIPHER_FCNTL_FORMAT 0x464c0001

/// Registers the VFS (once; later calls do nothing). Returns 0, or SQLite's error code.
int flourish_cipher_register(void);

/// Copies a 32-byte key into locked memory (sodium_malloc) and returns its id (1 or more, never
/// given twice), or -1 when libsodium cannot start or every slot is taken. Files already open
/// keep their own copy.
int flourish_cipher_add_key(const unsigned char *key);

/// Wipes and frees the key `id` (if it is still held); files opened with it later fail to open.
void flourish_cipher_remove_key(int id);

/// Copies the key `id` into `out` (32 bytes), for wrapping it anew or keeping it in the
/// desktop's keyring; the caller wipes it. Returns 0, or -1 for a key no longer held.
int flourish_cipher_copy_key(int id, unsigned char *out);

/// Wipes and frees every key (the journal locking, the app quitting): files opened later with any
/// of them fail to open.
void flourish_cipher_remove_all_keys(void);

/// The page format of the sealed file at `path` under the key `key_id` (1 or 2, as its page 1
/// opens), 0 for an empty file, or -1 when page 1 opens in neither (damage, another key, a plain
/// file, a key no longer held) or the file cannot be read.
int flourish_cipher_file_format(const char *path, int key_id);

/// Whether the write-ahead log beside the locked journal at `path` (its "-wal") was written
/// without the journal's key `key_id`: its header's checksum, which the VFS masks with the key,
/// does not unmask to SQLite's own (or it is no log header at all). 0 when there is none, when it
/// is empty, and for a journal in format 1 (whose log headers are not masked). SQLite would only
/// ignore such a log; it is set aside and said (SetAsideFiles.swift).
int flourish_cipher_log_is_foreign(const char *path, int key_id);

/// Whether every block SQLite frees is wiped first (its allocator set as the program loaded,
/// before SQLite started): 1, or 0 when SQLite had started already.
int flourish_cipher_wipes_sqlite_memory(void);

/// How many sealed pages failed to open since the process started (damage, a wrong key): for
/// tests and diagnostics.
long flourish_cipher_refused_pages(void);

#endif
