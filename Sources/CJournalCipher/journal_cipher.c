// The encrypting VFS (see journal_cipher.h). Only two kinds of file are ever opened through it:
// the journal itself and its write-ahead log, and one more: the rollback journal SQLite opens for
// a new file that VACUUM INTO writes, which holds no page (a new file has none to save) and may
// hold none: a write of anything but its headers and 4-byte fields is refused, and so is a read
// of a page from one. A rollback journal is never Flourish's way of keeping a locked journal's
// pages, so one found beside it holds only what someone else put there: SQLite would play its
// pages back into the journal, sealed under the real key, and they are never read. Every other file
// SQLite could ask for (a temporary table, a sort that spills) is refused too, so no page ever
// reaches the disk in the clear by a path nobody thought of: locked journals run in WAL mode
// with temp_store=MEMORY, and need none of them.
//
// A page on disk: ciphertext of its first 4056 bytes, then the nonce (24 bytes) and the tag (16)
// in the page's reserved space. The associated data binds the page to its place and its file: the
// page's number, and the file's identity, 8 random bytes chosen when the file is made, which
// open every nonce of the file in the clear (the other 16 bytes are random per write). A page
// moved to another place in the file, or from another file sealed by the same key (a backup, a
// recovered copy), fails to open just as a changed one does. Page 1 tells a file's identity: the
// first 8 bytes of its nonce, which it opens under.
//
// In the log, each frame's 24-byte header stays as SQLite wrote it (page number, salts, none of
// the page's content) but for its two checksums, which SQLite sums over the page in the clear:
// they are masked with a keyed hash of the frame's place and salts, so the log tells nothing of a
// page's content. The page after the header is sealed as in the journal's file, under the number
// its header gives and the journal file's identity.
//
// Format 1, the first locked journals': the associated data is the page number alone, the nonce
// all random, and the log's checksums are not masked. Such a file is still read and written in its
// own format, so that a log left by a crash plays back; Flourish rewrites it whole in format 2
// (JournalLock.upgradeFormat) before it writes to it.
#include "journal_cipher.h"

#include <pthread.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define PAGE FLOURISH_CIPHER_PAGE_SIZE
#define RESERVE FLOURISH_CIPHER_RESERVE
#define KEY_SIZE FLOURISH_CIPHER_KEY_SIZE
#define NONCE_SIZE 24
#define TAG_SIZE 16
#define SEALED (PAGE - RESERVE)
#define WAL_HEADER 32
#define FRAME_HEADER 24
#define FRAME (FRAME_HEADER + PAGE)
#define SLOTS 32
#define FILE_ID 8
#define CHECKSUMS 16 /* where a frame header's two checksums start */

enum kind { MAIN_DB = 1, WAL_FILE = 2, ROLLBACK = 3 };

typedef struct CipherFile {
    sqlite3_file base;
    sqlite3_file *real;     // the unix VFS's file, allocated right after this struct
    enum kind kind;
    unsigned char *key;     // this file's own copy (key_copy)
    // The log's last frame header written, so the page that follows is sealed under its number
    // without reading the header back.
    sqlite3_int64 header_offset;
    uint32_t header_page;
    // Opened to salvage what a damaged log still holds (a rescue's copy, `salvage=1` in the URI):
    // a frame that does not open ends the log there, wherever it is.
    int salvage;
    // The journal's file: its format (0 until page 1 has been read, or the file found empty) and
    // identity. An empty file's identity is `provisional` until this connection writes a page
    // (another connection may be making the file): a later read of the file, no longer empty,
    // learns the one on disk.
    int format;
    int provisional;
    int wrote;
    unsigned char id[FILE_ID];
    const char *name;
    struct CipherFile *next_main;
    // The log: its journal's file (opened before it, closed after it), and the key that masks its
    // checksums (format 2), derived from the key when the log is opened.
    struct CipherFile *main;
    unsigned char *mask_key;
} CipherFile;

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *slots[SLOTS];
// Each key's id, never given twice: a key wiped with all the others (locking, quitting) leaves its
// owner holding an id no later key has, so that owner letting go cannot wipe a newer key.
static int slot_ids[SLOTS];
static int next_id = 1;

/// The slot holding key `id`, or -1 (call with slots_lock held).
static int slot_of(int id) {
    if (id < 1) return -1;
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i] && slot_ids[i] == id) return i;
    }
    return -1;
}
static long refused_pages;

// Every journal's file open through the VFS, found by the name SQLite opened it with: a log finds
// its journal's file there (SQLite names the log from the same allocation, sqlite3_filename_database).
static pthread_mutex_t mains_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CipherFile *mains;

static sqlite3_vfs *root_vfs(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }

// MARK: - Keys

// MARK: - Copies of keys

// A file's copy of its key (and a log's mask key) lives while the file is open, and every opening
// of a locked journal makes one or two. sodium_malloc gives each allocation a mapping of its own
// with guard pages, locked in memory: made and freed, some 50 µs of system calls (mmap,
// mprotect, mlock, munlock, munmap) here, a quarter of a locked store's opening. So copies are
// cells of one such allocation, made once: locked in memory, out of core dumps, guarded at both
// ends, and each cell wiped as it is given back. Only with every cell in use does a copy get an
// allocation of its own.
#define KEY_CELLS 64
_Static_assert(crypto_generichash_KEYBYTES == KEY_SIZE, "a mask key fits a key's cell");
static pthread_mutex_t cells_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *cells; // KEY_CELLS keys, from sodium_malloc, kept for the process's life
static uint64_t cells_used;

/// Memory for one key, locked and never dumped; NULL when there is none.
static unsigned char *key_copy(void) {
    unsigned char *out = NULL;
    pthread_mutex_lock(&cells_lock);
    if (!cells) cells = sodium_malloc(KEY_CELLS * KEY_SIZE);
    for (int i = 0; cells && i < KEY_CELLS; i++) {
        if (!(cells_used & (UINT64_C(1) << i))) {
            cells_used |= UINT64_C(1) << i;
            out = cells + (size_t)i * KEY_SIZE;
            break;
        }
    }
    pthread_mutex_unlock(&cells_lock);
    return out ? out : sodium_malloc(KEY_SIZE);
}

/// Wipes a key_copy and gives it back.
static void free_key_copy(unsigned char *key) {
    if (!key) return;
    sodium_memzero(key, KEY_SIZE);
    pthread_mutex_lock(&cells_lock);
    int cell = cells && key >= cells && key < cells + KEY_CELLS * KEY_SIZE ? (int)((key - cells) / KEY_SIZE) : -1;
    if (cell >= 0) cells_used &= ~(UINT64_C(1) << cell);
    pthread_mutex_unlock(&cells_lock);
    if (cell < 0) sodium_free(key);
}

int flourish_cipher_add_key(const unsigned char *key) {
    if (sodium_init() < 0) return -1;
    unsigned char *copy = sodium_malloc(KEY_SIZE);
    if (!copy) return -1;
    memcpy(copy, key, KEY_SIZE);
    pthread_mutex_lock(&slots_lock);
    int id = -1;
    for (int i = 0; i < SLOTS && next_id > 0; i++) {
        if (!slots[i]) {
            slots[i] = copy;
            slot_ids[i] = id = next_id++;
            break;
        }
    }
    pthread_mutex_unlock(&slots_lock);
    if (id < 0) sodium_free(copy);
    return id;
}

void flourish_cipher_remove_key(int id) {
    pthread_mutex_lock(&slots_lock);
    int slot = slot_of(id);
    unsigned char *key = slot >= 0 ? slots[slot] : NULL;
    if (slot >= 0) slots[slot] = NULL;
    pthread_mutex_unlock(&slots_lock);
    if (key) sodium_free(key); // sodium_free wipes before it frees
}

void flourish_cipher_remove_all_keys(void) {
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i]) sodium_free(slots[i]);
        slots[i] = NULL;
    }
    pthread_mutex_unlock(&slots_lock);
}

int flourish_cipher_copy_key(int id, unsigned char *out) {
    pthread_mutex_lock(&slots_lock);
    int slot = slot_of(id);
    if (slot >= 0) memcpy(out, slots[slot], KEY_SIZE);
    pthread_mutex_unlock(&slots_lock);
    return slot >= 0 ? 0 : -1;
}

long flourish_cipher_refused_pages(void) {
    pthread_mutex_lock(&slots_lock);
    long count = refused_pages;
    pthread_mutex_unlock(&slots_lock);
    return count;
}

static void count_refused(void) {
    pthread_mutex_lock(&slots_lock);
    refused_pages++;
    pthread_mutex_unlock(&slots_lock);
}

// MARK: - Pages

/// How a page of `file` (the journal's file) is bound: its number and, in format 2, the file's
/// identity. Returns the associated data's length.
static size_t associated_data(unsigned char out[16], const struct CipherFile *file, uint32_t page) {
    size_t length = 0;
    if (file->format == 1) {
        memcpy(out, "FLJ1", 4);
        length = 4;
    } else {
        memcpy(out, "FLJ2", 4);
        memcpy(out + 4, file->id, FILE_ID);
        length = 4 + FILE_ID;
    }
    out[length] = (unsigned char)(page >> 24);
    out[length + 1] = (unsigned char)(page >> 16);
    out[length + 2] = (unsigned char)(page >> 8);
    out[length + 3] = (unsigned char)page;
    return length + 4;
}

/// Seals `plain`, page `page` of the journal's file `file`, into `out` under `key`.
static void seal_page(const unsigned char *key, const struct CipherFile *file, uint32_t page, const unsigned char *plain,
                      unsigned char *out) {
    unsigned char ad[16];
    size_t ad_length = associated_data(ad, file, page);
    unsigned char *nonce = out + SEALED;
    if (file->format == 1) {
        randombytes_buf(nonce, NONCE_SIZE);
    } else {
        memcpy(nonce, file->id, FILE_ID);
        randombytes_buf(nonce + FILE_ID, NONCE_SIZE - FILE_ID);
    }
    crypto_aead_xchacha20poly1305_ietf_encrypt_detached(out, out + SEALED + NONCE_SIZE, NULL, plain, SEALED,
                                                        ad, ad_length, NULL, nonce, key);
}

/// 0 when the page opened; its reserved space reads as zeros, as SQLite left it. Not counted.
static int open_page_quietly(const unsigned char *key, const struct CipherFile *file, uint32_t page,
                             const unsigned char *sealed, unsigned char *out) {
    unsigned char ad[16];
    size_t ad_length = associated_data(ad, file, page);
    if (crypto_aead_xchacha20poly1305_ietf_decrypt_detached(out, NULL, sealed, SEALED, sealed + SEALED + NONCE_SIZE,
                                                            ad, ad_length, sealed + SEALED, key) != 0) {
        return -1;
    }
    memset(out + SEALED, 0, RESERVE);
    return 0;
}

/// As open_page_quietly, a page that does not open counted as refused.
static int open_page(const unsigned char *key, const struct CipherFile *file, uint32_t page, const unsigned char *sealed,
                     unsigned char *out) {
    if (open_page_quietly(key, file, page, sealed, out) == 0) return 0;
    count_refused();
    return -1;
}

/// What page 1, as it is on disk (`raw`), says of its file: its format and identity, found by
/// opening it (2 or 1), or 0 when it opens in neither (damage, or another key). `opened`, when
/// not NULL, is given the page opened (the caller wipes it), for a read of page 1 that asked.
static int format_of_page_one(const unsigned char *key, const unsigned char *raw, unsigned char id[FILE_ID],
                              unsigned char *opened) {
    struct CipherFile probe;
    memset(&probe, 0, sizeof probe);
    unsigned char own[PAGE];
    unsigned char *plain = opened ? opened : own;
    int format = 0;
    memcpy(probe.id, raw + SEALED, FILE_ID);
    probe.format = 2;
    if (open_page_quietly(key, &probe, 1, raw, plain) == 0) {
        format = 2;
    } else {
        probe.format = 1;
        if (open_page_quietly(key, &probe, 1, raw, plain) == 0) format = 1;
    }
    if (!opened || !format) sodium_memzero(plain, PAGE);
    if (format) memcpy(id, probe.id, FILE_ID);
    return format;
}

/// Learns the format and identity of the journal's file `file` before a page of it (or of its
/// log) is read or written: from page 1 on disk, or, for an empty file, a new identity in
/// format 2 (see `provisional`). `page_one`, when not NULL, is given page 1 opened whenever it
/// was read here (`*read_it` set; the caller wipes it): the first read of a connection is of
/// page 1, which is then not read and opened twice.
static int know_identity(CipherFile *file, unsigned char *page_one, int *read_it) {
    if (file->format && (!file->provisional || file->wrote)) return SQLITE_OK;
    sqlite3_int64 size = 0;
    int rc = file->real->pMethods->xFileSize(file->real, &size);
    if (rc != SQLITE_OK) return rc;
    if (size == 0) {
        if (!file->format) {
            file->format = 2;
            file->provisional = 1;
            randombytes_buf(file->id, FILE_ID);
        }
        return SQLITE_OK;
    }
    unsigned char raw[PAGE];
    rc = file->real->pMethods->xRead(file->real, raw, PAGE, 0);
    if (rc != SQLITE_OK) {
        if (rc != SQLITE_IOERR_SHORT_READ) return rc;
        count_refused(); // a file shorter than one page is no sealed journal
        return SQLITE_IOERR_DATA;
    }
    unsigned char id[FILE_ID];
    int format = format_of_page_one(file->key, raw, id, page_one);
    if (!format) {
        count_refused();
        return SQLITE_IOERR_DATA;
    }
    if (read_it) *read_it = page_one != NULL;
    file->format = format;
    file->provisional = 0;
    memcpy(file->id, id, FILE_ID);
    return SQLITE_OK;
}

static uint32_t big_endian_32(const unsigned char *bytes) {
    return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | bytes[3];
}

/// Reads up to `size` bytes from the start of `path` into `out`; the count read, or -1.
static ssize_t read_start(const char *path, unsigned char *out, size_t size) {
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return -1;
    ssize_t total = 0;
    while ((size_t)total < size) {
        ssize_t count = pread(descriptor, out + total, size - (size_t)total, total);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        total += count;
    }
    close(descriptor);
    return total;
}

int flourish_cipher_file_format(const char *path, int key_id) {
    if (sodium_init() < 0) return -1;
    unsigned char raw[PAGE], id[FILE_ID];
    ssize_t count = read_start(path, raw, PAGE);
    if (count == 0) return 0;
    if (count != PAGE) return -1;
    // Opened with the slot's own key, under its lock: no copy of the key to make and wipe.
    pthread_mutex_lock(&slots_lock);
    int slot = slot_of(key_id);
    int format = slot >= 0 ? format_of_page_one(slots[slot], raw, id, NULL) : 0;
    pthread_mutex_unlock(&slots_lock);
    return format == 0 ? -1 : format;
}

// MARK: - The journal's file

static int read_main(CipherFile *file, unsigned char *buffer, int amount, sqlite3_int64 offset) {
    unsigned char raw[PAGE], plain[PAGE];
    int page_one_read = 0;
    int known = know_identity(file, offset + amount <= PAGE ? plain : NULL, &page_one_read);
    if (known != SQLITE_OK) return known;
    if (page_one_read) {
        // Page 1 was just read and opened to learn the file's identity: this read is within it.
        memcpy(buffer, plain + offset, (size_t)amount);
        sodium_memzero(plain, sizeof plain);
        return SQLITE_OK;
    }
    if (amount == PAGE && offset % PAGE == 0) {
        // How SQLite reads nearly every page: opened straight into its buffer, no copy between.
        int rc = file->real->pMethods->xRead(file->real, raw, PAGE, offset);
        if (rc == SQLITE_OK) {
            return open_page(file->key, file, (uint32_t)(offset / PAGE + 1), raw, buffer) == 0 ? SQLITE_OK : SQLITE_IOERR_DATA;
        }
        if (rc != SQLITE_IOERR_SHORT_READ) return rc;
        // Short: past the end, or cut short; the loop below tells which.
    }
    int short_read = 0;
    for (sqlite3_int64 index = offset / PAGE; index * PAGE < offset + amount; index++) {
        sqlite3_int64 start = index * PAGE;
        int rc = file->real->pMethods->xRead(file->real, raw, PAGE, start);
        if (rc == SQLITE_IOERR_SHORT_READ) {
            // Past the end is an empty page, as SQLite expects; a page cut short is damage.
            sqlite3_int64 size = 0;
            if (file->real->pMethods->xFileSize(file->real, &size) != SQLITE_OK || size > start) {
                count_refused();
                return SQLITE_IOERR_DATA;
            }
            memset(plain, 0, PAGE);
            short_read = 1;
        } else if (rc != SQLITE_OK) {
            return rc;
        } else if (open_page(file->key, file, (uint32_t)(index + 1), raw, plain) != 0) {
            return SQLITE_IOERR_DATA;
        }
        sqlite3_int64 from = offset > start ? offset : start;
        sqlite3_int64 to = offset + amount < start + PAGE ? offset + amount : start + PAGE;
        memcpy(buffer + (from - offset), plain + (from - start), (size_t)(to - from));
    }
    sodium_memzero(plain, sizeof plain);
    return short_read ? SQLITE_IOERR_SHORT_READ : SQLITE_OK;
}

static int write_main(CipherFile *file, const unsigned char *buffer, int amount, sqlite3_int64 offset) {
    // SQLite writes the journal's file a whole page at a time, and nothing else may be written.
    if (amount != PAGE || offset % PAGE != 0) return SQLITE_IOERR_WRITE;
    // Page 1 holds the page size and the reserved space: a journal made without room for the
    // nonce and tag would be sealed over its own data.
    if (offset == 0 && (buffer[16] != (PAGE >> 8) || buffer[17] != (PAGE & 0xff) || buffer[20] != RESERVE)) {
        return SQLITE_IOERR_WRITE;
    }
    int known = know_identity(file, NULL, NULL);
    if (known != SQLITE_OK) return known;
    unsigned char sealed[PAGE];
    seal_page(file->key, file, (uint32_t)(offset / PAGE + 1), buffer, sealed);
    file->wrote = 1;
    return file->real->pMethods->xWrite(file->real, sealed, PAGE, offset);
}

// MARK: - The write-ahead log

/// Where in its frame an offset of the log falls (-1 within the log's own header).
static sqlite3_int64 frame_position(sqlite3_int64 offset) {
    return offset < WAL_HEADER ? -1 : (offset - WAL_HEADER) % FRAME;
}

/// The page number in the header of the frame whose page starts at `page_offset`. `written`:
/// the page SQLite writes right after that header, whose number this connection remembers; a
/// read always looks on disk (another connection may have restarted the log since).
static int frame_page(CipherFile *file, sqlite3_int64 page_offset, int written, uint32_t *page) {
    sqlite3_int64 header = page_offset - FRAME_HEADER;
    if (written && file->header_offset == header) {
        *page = file->header_page;
        return SQLITE_OK;
    }
    unsigned char bytes[FRAME_HEADER];
    int rc = file->real->pMethods->xRead(file->real, bytes, FRAME_HEADER, header);
    if (rc != SQLITE_OK) return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_IOERR_DATA : rc;
    *page = big_endian_32(bytes);
    return SQLITE_OK;
}

/// The journal's file of the log `file`, its format and identity known; NULL (with `rc` set)
/// when they cannot be: page 1 does not open.
static CipherFile *journal_of(CipherFile *file, int *rc) {
    *rc = know_identity(file->main, NULL, NULL);
    return *rc == SQLITE_OK ? file->main : NULL;
}

/// XORs into `checksums` (a frame header's two checksums, 8 bytes) the mask of the frame whose
/// header starts at `header` in the log, with `salts` (its header's bytes 8 to 15): a keyed hash
/// of its place and salts, the same for masking and unmasking. Format 1's log has none.
static void mask_checksums(CipherFile *file, const CipherFile *journal, sqlite3_int64 header, const unsigned char *salts,
                           unsigned char *checksums) {
    if (journal->format == 1) return;
    unsigned char input[4 + FILE_ID + 8 + 8], mask[8];
    memcpy(input, "FLW2", 4);
    memcpy(input + 4, journal->id, FILE_ID);
    memcpy(input + 4 + FILE_ID, salts, 8);
    for (int i = 0; i < 8; i++) input[4 + FILE_ID + 8 + i] = (unsigned char)((uint64_t)header >> (56 - 8 * i));
    crypto_generichash(mask, sizeof mask, input, sizeof input, file->mask_key, crypto_generichash_KEYBYTES);
    for (int i = 0; i < 8; i++) checksums[i] ^= mask[i];
}

/// XORs into `checksum` (the log header's checksum, its last 8 bytes) the mask of the header
/// whose first 24 bytes are `header`: a keyed hash of them, so that a log header written without
/// the key is told from the journal's own (`flourish_cipher_log_is_foreign`).
static void mask_header_checksum(const unsigned char *mask_key, const unsigned char id[FILE_ID], const unsigned char *header,
                                 unsigned char *checksum) {
    unsigned char input[4 + FILE_ID + WAL_HEADER - 8], mask[8];
    memcpy(input, "FLH2", 4);
    memcpy(input + 4, id, FILE_ID);
    memcpy(input + 4 + FILE_ID, header, WAL_HEADER - 8);
    crypto_generichash(mask, sizeof mask, input, sizeof input, mask_key, crypto_generichash_KEYBYTES);
    for (int i = 0; i < 8; i++) checksum[i] ^= mask[i];
}

/// Unmasks the part of the log header's checksum, and of each frame header's checksums, that the
/// read of `amount` bytes at `offset` (now in `buffer`, as on disk) covers.
static int unmask_read(CipherFile *file, const CipherFile *journal, unsigned char *buffer, int amount, sqlite3_int64 offset) {
    if (journal->format == 1) return SQLITE_OK;
    if (offset < WAL_HEADER && offset + amount > WAL_HEADER - 8) {
        unsigned char header[WAL_HEADER - 8], checksum[8];
        if (offset == 0 && amount >= WAL_HEADER - 8) {
            memcpy(header, buffer, sizeof header);
        } else {
            int rc = file->real->pMethods->xRead(file->real, header, sizeof header, 0);
            if (rc != SQLITE_OK) return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_IOERR_DATA : rc;
        }
        memset(checksum, 0, sizeof checksum);
        mask_header_checksum(file->mask_key, journal->id, header, checksum);
        for (sqlite3_int64 at = offset > WAL_HEADER - 8 ? offset : WAL_HEADER - 8; at < WAL_HEADER && at < offset + amount; at++) {
            buffer[at - offset] ^= checksum[at - (WAL_HEADER - 8)];
        }
    }
    if (offset + amount <= WAL_HEADER) return SQLITE_OK;
    sqlite3_int64 first = offset < WAL_HEADER ? 0 : (offset - WAL_HEADER) / FRAME;
    for (sqlite3_int64 index = first;; index++) {
        sqlite3_int64 header = WAL_HEADER + index * FRAME;
        sqlite3_int64 from = header + CHECKSUMS, to = header + FRAME_HEADER;
        if (from >= offset + amount) break;
        if (to <= offset) continue;
        unsigned char salts[8], checksums[8];
        if (header + 8 >= offset && header + 16 <= offset + amount) {
            memcpy(salts, buffer + (header + 8 - offset), 8);
        } else {
            int rc = file->real->pMethods->xRead(file->real, salts, 8, header + 8);
            if (rc != SQLITE_OK) return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_IOERR_DATA : rc;
        }
        memset(checksums, 0, sizeof checksums);
        mask_checksums(file, journal, header, salts, checksums);
        for (sqlite3_int64 at = from > offset ? from : offset; at < to && at < offset + amount; at++) {
            buffer[at - offset] ^= checksums[at - from];
        }
    }
    return SQLITE_OK;
}

/// Whether the frame at `bad` (one that does not open) is in the middle of the log rather than
/// at its torn end: whether, after the commit that ends `bad`'s own transaction, a further
/// transaction of the same log (the salts of its header) ends in a frame that opens. A power cut
/// during a commit may tear any frame of that last transaction, its commit frame reaching the disk
/// whole: that transaction is dropped, as SQLite drops it, and is no damage.
static int later_commit_opens(CipherFile *file, const CipherFile *journal, sqlite3_int64 bad) {
    unsigned char salts[8], frame[FRAME], plain[PAGE];
    if (file->real->pMethods->xRead(file->real, salts, sizeof salts, 16) != SQLITE_OK) return 0;
    sqlite3_int64 size = 0;
    if (file->real->pMethods->xFileSize(file->real, &size) != SQLITE_OK) return 0;
    int own_transaction_ended = 0, found = 0;
    for (sqlite3_int64 offset = bad; !found && offset + FRAME <= size; offset += FRAME) {
        if (file->real->pMethods->xRead(file->real, frame, FRAME, offset) != SQLITE_OK) break;
        if (memcmp(frame + 8, salts, sizeof salts) != 0) break; // an older log's frame: the log ended
        int commit = big_endian_32(frame + 4) != 0;
        if (!own_transaction_ended) {
            own_transaction_ended = commit;
            continue;
        }
        found = commit && open_page_quietly(file->key, journal, big_endian_32(frame), frame + FRAME_HEADER, plain) == 0;
    }
    sodium_memzero(plain, sizeof plain);
    return found;
}

static int read_wal(CipherFile *file, unsigned char *buffer, int amount, sqlite3_int64 offset) {
    sqlite3_int64 position = frame_position(offset);
    int rc;
    CipherFile *journal = journal_of(file, &rc);
    if (!journal) return rc;
    if (position == FRAME_HEADER && amount == PAGE) {
        // A page the log's index says is there: it must open.
        uint32_t page;
        rc = frame_page(file, offset, 0, &page);
        if (rc != SQLITE_OK) return rc;
        unsigned char raw[PAGE];
        rc = file->real->pMethods->xRead(file->real, raw, PAGE, offset);
        if (rc != SQLITE_OK) return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_IOERR_DATA : rc;
        return open_page(file->key, journal, page, raw, buffer) == 0 ? SQLITE_OK : SQLITE_IOERR_DATA;
    }
    rc = file->real->pMethods->xRead(file->real, buffer, amount, offset);
    if (position == 0 && amount == FRAME && rc == SQLITE_OK) {
        // Recovery reads whole frames to find where the log ends. A frame that does not open
        // because a crash tore it (in the log's last transaction) is handed back as it is: its
        // checksum then fails, and SQLite ends the log there, as it does for a torn frame in a
        // plain log. One with a whole transaction after its own is damage: the saves after it are
        // not dropped unsaid.
        unsigned char plain[PAGE];
        int opened = open_page(file->key, journal, big_endian_32(buffer), buffer + FRAME_HEADER, plain) == 0;
        if (opened) memcpy(buffer + FRAME_HEADER, plain, PAGE);
        sodium_memzero(plain, sizeof plain);
        if (!opened && !file->salvage && later_commit_opens(file, journal, offset)) return SQLITE_IOERR_DATA;
        return unmask_read(file, journal, buffer, FRAME_HEADER, offset);
    }
    // The log's header, a frame's header, or the end of the log: none holds a page's content.
    if (position >= 0 && position + amount > FRAME_HEADER) {
        if (rc == SQLITE_IOERR_SHORT_READ) return rc; // past the end: zeros, nothing to open
        return SQLITE_IOERR_READ;
    }
    return rc == SQLITE_OK ? unmask_read(file, journal, buffer, amount, offset) : rc;
}

static int write_wal(CipherFile *file, const unsigned char *buffer, int amount, sqlite3_int64 offset) {
    sqlite3_int64 position = frame_position(offset);
    int rc;
    CipherFile *journal = journal_of(file, &rc);
    if (!journal) return rc;
    // A log's pages are sealed under the identity of the journal's file: one that has none on
    // disk yet would leave them unreadable to every other connection.
    if (journal->provisional && !journal->wrote) return SQLITE_IOERR_WRITE;
    if (position < 0) {
        // The log's header, which names its page size.
        if (offset != 0 || amount != WAL_HEADER || big_endian_32(buffer + 8) != PAGE) return SQLITE_IOERR_WRITE;
        unsigned char header[WAL_HEADER];
        memcpy(header, buffer, WAL_HEADER);
        if (journal->format != 1) mask_header_checksum(file->mask_key, journal->id, header, header + WAL_HEADER - 8);
        return file->real->pMethods->xWrite(file->real, header, WAL_HEADER, offset);
    }
    if (position == 0 && amount == FRAME_HEADER) {
        file->header_offset = offset;
        file->header_page = big_endian_32(buffer);
        unsigned char header[FRAME_HEADER];
        memcpy(header, buffer, FRAME_HEADER);
        mask_checksums(file, journal, offset, header + 8, header + CHECKSUMS);
        return file->real->pMethods->xWrite(file->real, header, FRAME_HEADER, offset);
    }
    if (position == FRAME_HEADER && amount == PAGE) {
        uint32_t page;
        rc = frame_page(file, offset, 1, &page);
        if (rc != SQLITE_OK) return rc;
        unsigned char sealed[PAGE];
        seal_page(file->key, journal, page, buffer, sealed);
        return file->real->pMethods->xWrite(file->real, sealed, PAGE, offset);
    }
    return SQLITE_IOERR_WRITE;
}

/// SQLite's checksum over the log header's first 24 bytes, its words in the order the header's
/// magic number names (its lowest bit set: big-endian).
static void log_header_checksum(const unsigned char *header, unsigned char out[8]) {
    int big = header[3] & 1;
    uint32_t first = 0, second = 0;
    for (int at = 0; at < WAL_HEADER - 8; at += 8) {
        uint32_t words[2];
        for (int i = 0; i < 2; i++) {
            const unsigned char *b = header + at + 4 * i;
            words[i] = big ? big_endian_32(b) : ((uint32_t)b[3] << 24) | ((uint32_t)b[2] << 16) | ((uint32_t)b[1] << 8) | b[0];
        }
        first += words[0] + second;
        second += words[1] + first;
    }
    for (int i = 0; i < 4; i++) {
        out[i] = (unsigned char)(first >> (24 - 8 * i));
        out[4 + i] = (unsigned char)(second >> (24 - 8 * i));
    }
}

int flourish_cipher_log_is_foreign(const char *path, int key_id) {
    if (sodium_init() < 0) return 0;
    size_t length = strlen(path);
    char *log_path = malloc(length + 5);
    if (!log_path) return 0;
    memcpy(log_path, path, length);
    memcpy(log_path + length, "-wal", 5);
    unsigned char header[WAL_HEADER];
    ssize_t count = read_start(log_path, header, WAL_HEADER);
    free(log_path);
    if (count < 0) return 0;
    if (count == 0) return 0; // an empty log: SQLite makes one so, before its header
    unsigned char *key = key_copy(), *mask_key = key_copy();
    int foreign = 0;
    if (key && mask_key) {
        pthread_mutex_lock(&slots_lock);
        int slot = slot_of(key_id);
        if (slot >= 0) memcpy(key, slots[slot], KEY_SIZE);
        pthread_mutex_unlock(&slots_lock);
        unsigned char raw[PAGE], id[FILE_ID];
        // Only a journal in format 2 masks its log's header: of format 1's, nothing can be told.
        if (slot >= 0 && read_start(path, raw, PAGE) == PAGE && format_of_page_one(key, raw, id, NULL) == 2) {
            crypto_kdf_derive_from_key(mask_key, crypto_generichash_KEYBYTES, 1, "FLWALMSK", key);
            unsigned char expected[8], stored[8];
            // Shorter than its header: nothing SQLite writes (its header is one write).
            if (count < WAL_HEADER) memset(header + count, 0, (size_t)(WAL_HEADER - count));
            memcpy(stored, header + WAL_HEADER - 8, 8);
            mask_header_checksum(mask_key, id, header, stored);
            log_header_checksum(header, expected);
            foreign = count < WAL_HEADER || (big_endian_32(header) & 0xFFFFFFFE) != 0x377f0682
                || big_endian_32(header + 8) != PAGE || memcmp(expected, stored, 8) != 0;
        }
    }
    free_key_copy(key);
    free_key_copy(mask_key);
    return foreign;
}

// MARK: - I/O methods

static int cipher_close(sqlite3_file *base) {
    CipherFile *file = (CipherFile *)base;
    if (file->kind == MAIN_DB) {
        pthread_mutex_lock(&mains_lock);
        for (CipherFile **link = &mains; *link; link = &(*link)->next_main) {
            if (*link == file) {
                *link = file->next_main;
                break;
            }
        }
        pthread_mutex_unlock(&mains_lock);
    }
    int rc = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    free_key_copy(file->key);
    free_key_copy(file->mask_key);
    file->key = file->mask_key = NULL;
    sodium_memzero(file->id, FILE_ID);
    return rc;
}

/// A rollback journal's headers start on a sector (512 bytes at least) and its records' page
/// numbers and checksums are 4 bytes; a page saved in it would be neither.
static int rollback_holds_no_page(int amount, sqlite3_int64 offset) { return offset % 512 == 0 || amount == 4; }

static int read_rollback(CipherFile *file, unsigned char *buffer, int amount, sqlite3_int64 offset) {
    // Playing a page back would seal into the journal a page nobody sealed (see the top).
    if (!rollback_holds_no_page(amount, offset) || amount > 512) return SQLITE_IOERR_READ;
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

static int cipher_read(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    CipherFile *file = (CipherFile *)base;
    switch (file->kind) {
    case MAIN_DB: return read_main(file, buffer, amount, offset);
    case WAL_FILE: return read_wal(file, buffer, amount, offset);
    default: return read_rollback(file, buffer, amount, offset);
    }
}

static int write_rollback(CipherFile *file, const unsigned char *buffer, int amount, sqlite3_int64 offset) {
    if (!rollback_holds_no_page(amount, offset)) return SQLITE_IOERR_WRITE;
    return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
}

static int cipher_write(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
    CipherFile *file = (CipherFile *)base;
    switch (file->kind) {
    case MAIN_DB: return write_main(file, buffer, amount, offset);
    case WAL_FILE: return write_wal(file, buffer, amount, offset);
    default: return write_rollback(file, buffer, amount, offset);
    }
}

#define REAL(base) (((CipherFile *)(base))->real)

static int cipher_truncate(sqlite3_file *base, sqlite3_int64 size) {
    if (((CipherFile *)base)->kind == WAL_FILE) ((CipherFile *)base)->header_offset = -1;
    return REAL(base)->pMethods->xTruncate(REAL(base), size);
}
static int cipher_sync(sqlite3_file *base, int flags) { return REAL(base)->pMethods->xSync(REAL(base), flags); }
static int cipher_file_size(sqlite3_file *base, sqlite3_int64 *size) {
    return REAL(base)->pMethods->xFileSize(REAL(base), size);
}
static int cipher_lock(sqlite3_file *base, int level) { return REAL(base)->pMethods->xLock(REAL(base), level); }
static int cipher_unlock(sqlite3_file *base, int level) { return REAL(base)->pMethods->xUnlock(REAL(base), level); }
static int cipher_check_reserved_lock(sqlite3_file *base, int *out) {
    return REAL(base)->pMethods->xCheckReservedLock(REAL(base), out);
}
static int cipher_file_control(sqlite3_file *base, int op, void *argument) {
    // The journal's page format, known once a page of it has been read (0 before).
    if (op == FLOURISH_CIPHER_FCNTL_FORMAT) {
        if (((CipherFile *)base)->kind != MAIN_DB) return SQLITE_NOTFOUND;
        *(int *)argument = ((CipherFile *)base)->provisional ? 0 : ((CipherFile *)base)->format;
        return SQLITE_OK;
    }
    // A memory map would hand SQLite the sealed bytes as they are on disk.
    if (op == SQLITE_FCNTL_MMAP_SIZE) {
        *(sqlite3_int64 *)argument = 0;
        return SQLITE_OK;
    }
    return REAL(base)->pMethods->xFileControl(REAL(base), op, argument);
}
static int cipher_sector_size(sqlite3_file *base) { return REAL(base)->pMethods->xSectorSize(REAL(base)); }
static int cipher_device_characteristics(sqlite3_file *base) {
    // Power-safe overwrite (the unix VFS's own default) keeps SQLite from padding the log with
    // writes that split a page in two.
    return REAL(base)->pMethods->xDeviceCharacteristics(REAL(base)) | SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}
// The wal-index (-shm) holds page numbers and frame counts, none of a page's content.
static int cipher_shm_map(sqlite3_file *base, int region, int size, int extend, void volatile **out) {
    return REAL(base)->pMethods->xShmMap(REAL(base), region, size, extend, out);
}
static int cipher_shm_lock(sqlite3_file *base, int offset, int count, int flags) {
    return REAL(base)->pMethods->xShmLock(REAL(base), offset, count, flags);
}
static void cipher_shm_barrier(sqlite3_file *base) { REAL(base)->pMethods->xShmBarrier(REAL(base)); }
static int cipher_shm_unmap(sqlite3_file *base, int delete_flag) {
    return REAL(base)->pMethods->xShmUnmap(REAL(base), delete_flag);
}

// Version 2: no xFetch, so SQLite never reads pages through a memory map.
static const sqlite3_io_methods cipher_methods = {
    2, cipher_close, cipher_read, cipher_write, cipher_truncate, cipher_sync, cipher_file_size, cipher_lock,
    cipher_unlock, cipher_check_reserved_lock, cipher_file_control, cipher_sector_size, cipher_device_characteristics,
    cipher_shm_map, cipher_shm_lock, cipher_shm_barrier, cipher_shm_unmap, NULL, NULL,
};

// MARK: - SQLite's memory

// SQLite holds a locked journal's pages in the clear in its page cache (8 MiB per connection),
// and rows, sort runs and search terms in other buffers, all from its allocator. Freed, they
// would stay readable in the process's memory after the journal locks. So every block SQLite
// frees is wiped first: its allocator is the system's, through these, installed before SQLite
// starts (a constructor, run as the program loads). Plain journals' memory is wiped too.
static sqlite3_mem_methods system_memory;
static int memory_wiped;

static void *wiping_malloc(int size) { return system_memory.xMalloc(size); }

static void wiping_free(void *block) {
    if (!block) return;
    sodium_memzero(block, (size_t)system_memory.xSize(block));
    system_memory.xFree(block);
}

static void *wiping_realloc(void *block, int size) {
    if (!block) return system_memory.xMalloc(size);
    // Never the system's realloc: a block it moved would be freed unwiped.
    int held = system_memory.xSize(block);
    if (size <= held) return block;
    void *grown = system_memory.xMalloc(size);
    if (!grown) return NULL;
    memcpy(grown, block, (size_t)held);
    wiping_free(block);
    return grown;
}

static int wiping_size(void *block) { return system_memory.xSize(block); }
static int wiping_roundup(int size) { return system_memory.xRoundup(size); }
static int wiping_init(void *data) { return system_memory.xInit(data); }
static void wiping_shutdown(void *data) { system_memory.xShutdown(data); }

__attribute__((constructor)) static void wipe_sqlite_memory(void) {
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &system_memory) != SQLITE_OK) return;
    sqlite3_mem_methods wiping = {wiping_malloc, wiping_free, wiping_realloc, wiping_size, wiping_roundup,
                                  wiping_init, wiping_shutdown, system_memory.pAppData};
    memory_wiped = sqlite3_config(SQLITE_CONFIG_MALLOC, &wiping) == SQLITE_OK;
}

int flourish_cipher_wipes_sqlite_memory(void) { return memory_wiped; }

// MARK: - The VFS

static int cipher_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *base, int flags, int *out_flags) {
    CipherFile *file = (CipherFile *)base;
    memset(file, 0, sizeof *file);
    enum kind kind = (flags & SQLITE_OPEN_MAIN_DB) ? MAIN_DB : (flags & SQLITE_OPEN_WAL) ? WAL_FILE
        : (flags & SQLITE_OPEN_MAIN_JOURNAL) ? ROLLBACK : 0;
    if (!kind || !name) return SQLITE_CANTOPEN;
    // SQLite opens a rollback journal without creating it only to play one found on disk back
    // (see the top): refused before it reads even its header, which would cut the file to the
    // size it names.
    if (kind == ROLLBACK && !(flags & SQLITE_OPEN_CREATE)) return SQLITE_CANTOPEN;
    const char *slot_text = sqlite3_uri_parameter(name, "cipher");
    int id = slot_text ? atoi(slot_text) : 0;
    unsigned char *key = key_copy();
    if (!key) return SQLITE_NOMEM;
    pthread_mutex_lock(&slots_lock);
    int slot = slot_of(id);
    int found = slot >= 0;
    if (found) memcpy(key, slots[slot], KEY_SIZE);
    pthread_mutex_unlock(&slots_lock);
    if (!found) {
        free_key_copy(key);
        return SQLITE_CANTOPEN;
    }
    if (kind == WAL_FILE) {
        // Its journal's file, open through this VFS on the same connection.
        const char *journal_name = sqlite3_filename_database(name);
        pthread_mutex_lock(&mains_lock);
        for (CipherFile *candidate = mains; candidate; candidate = candidate->next_main) {
            if (candidate->name == journal_name) file->main = candidate;
        }
        pthread_mutex_unlock(&mains_lock);
        file->mask_key = file->main ? key_copy() : NULL;
        if (!file->mask_key) {
            free_key_copy(key);
            return file->main ? SQLITE_NOMEM : SQLITE_CANTOPEN;
        }
        crypto_kdf_derive_from_key(file->mask_key, crypto_generichash_KEYBYTES, 1, "FLWALMSK", key);
    }
    file->real = (sqlite3_file *)&file[1];
    sqlite3_vfs *root = root_vfs(vfs);
    int rc = root->xOpen(root, name, file->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        if (file->real->pMethods) file->real->pMethods->xClose(file->real);
        free_key_copy(key);
        free_key_copy(file->mask_key);
        file->mask_key = NULL;
        return rc;
    }
    file->kind = kind;
    file->key = key;
    file->salvage = sqlite3_uri_boolean(name, "salvage", 0);
    file->header_offset = -1;
    file->base.pMethods = &cipher_methods;
    if (kind == MAIN_DB) {
        file->name = name;
        pthread_mutex_lock(&mains_lock);
        file->next_main = mains;
        mains = file;
        pthread_mutex_unlock(&mains_lock);
    }
    return SQLITE_OK;
}

static int cipher_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    return root_vfs(vfs)->xDelete(root_vfs(vfs), name, sync_dir);
}
static int cipher_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    return root_vfs(vfs)->xAccess(root_vfs(vfs), name, flags, out);
}
static int cipher_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    return root_vfs(vfs)->xFullPathname(root_vfs(vfs), name, size, out);
}
static void *cipher_dl_open(sqlite3_vfs *vfs, const char *name) { return root_vfs(vfs)->xDlOpen(root_vfs(vfs), name); }
static void cipher_dl_error(sqlite3_vfs *vfs, int size, char *out) { root_vfs(vfs)->xDlError(root_vfs(vfs), size, out); }
static void (*cipher_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    return root_vfs(vfs)->xDlSym(root_vfs(vfs), handle, symbol);
}
static void cipher_dl_close(sqlite3_vfs *vfs, void *handle) { root_vfs(vfs)->xDlClose(root_vfs(vfs), handle); }
static int cipher_randomness(sqlite3_vfs *vfs, int size, char *out) {
    return root_vfs(vfs)->xRandomness(root_vfs(vfs), size, out);
}
static int cipher_sleep(sqlite3_vfs *vfs, int microseconds) { return root_vfs(vfs)->xSleep(root_vfs(vfs), microseconds); }
static int cipher_current_time(sqlite3_vfs *vfs, double *out) { return root_vfs(vfs)->xCurrentTime(root_vfs(vfs), out); }
static int cipher_last_error(sqlite3_vfs *vfs, int size, char *out) {
    return root_vfs(vfs)->xGetLastError(root_vfs(vfs), size, out);
}
static int cipher_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    return root_vfs(vfs)->xCurrentTimeInt64(root_vfs(vfs), out);
}

static sqlite3_vfs cipher_vfs;
static int registered_status = SQLITE_ERROR;
static pthread_once_t registered = PTHREAD_ONCE_INIT;

static void register_once(void) {
    sqlite3_vfs *root = sqlite3_vfs_find(NULL);
    if (!root || sodium_init() < 0) return;
    cipher_vfs = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(CipherFile) + root->szOsFile,
        .mxPathname = root->mxPathname,
        .zName = FLOURISH_CIPHER_VFS,
        .pAppData = root,
        .xOpen = cipher_open,
        .xDelete = cipher_delete,
        .xAccess = cipher_access,
        .xFullPathname = cipher_full_pathname,
        .xDlOpen = cipher_dl_open,
        .xDlError = cipher_dl_error,
        .xDlSym = cipher_dl_sym,
        .xDlClose = cipher_dl_close,
        .xRandomness = cipher_randomness,
        .xSleep = cipher_sleep,
        .xCurrentTime = cipher_current_time,
        .xGetLastError = cipher_last_error,
        .xCurrentTimeInt64 = cipher_current_time_int64,
    };
    registered_status = sqlite3_vfs_register(&cipher_vfs, 0);
}

int flourish_cipher_register(void) {
    pthread_once(&registered, register_once);
    return registered_status;
}
