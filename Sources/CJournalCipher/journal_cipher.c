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
// in the page's reserved space. The associated data is the page's number, so a page moved to
// another place in the file fails to open just as a changed one does. In the log, each frame's
// 24-byte header stays as SQLite wrote it (page number, salts and checksums, none of the page's
// content) and the page after it is sealed the same way, under the number its header gives.
#include "journal_cipher.h"

#include <pthread.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdint.h>
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

enum kind { MAIN_DB = 1, WAL_FILE = 2, ROLLBACK = 3 };

typedef struct CipherFile {
    sqlite3_file base;
    sqlite3_file *real;     // the unix VFS's file, allocated right after this struct
    enum kind kind;
    unsigned char *key;     // this file's own copy, in sodium_malloc'd memory
    // The log's last frame header written, so the page that follows is sealed under its number
    // without reading the header back.
    sqlite3_int64 header_offset;
    uint32_t header_page;
    // Opened to salvage what a damaged log still holds (a rescue's copy, `salvage=1` in the URI):
    // a frame that does not open ends the log there, wherever it is.
    int salvage;
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

static sqlite3_vfs *root_vfs(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }

// MARK: - Keys

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

static void associated_data(unsigned char out[8], uint32_t page) {
    memcpy(out, "FLJ1", 4);
    out[4] = (unsigned char)(page >> 24);
    out[5] = (unsigned char)(page >> 16);
    out[6] = (unsigned char)(page >> 8);
    out[7] = (unsigned char)page;
}

static void seal_page(const unsigned char *key, uint32_t page, const unsigned char *plain, unsigned char *out) {
    unsigned char ad[8];
    associated_data(ad, page);
    unsigned char *nonce = out + SEALED;
    randombytes_buf(nonce, NONCE_SIZE);
    crypto_aead_xchacha20poly1305_ietf_encrypt_detached(out, out + SEALED + NONCE_SIZE, NULL, plain, SEALED,
                                                        ad, sizeof ad, NULL, nonce, key);
}

/// 0 when the page opened; its reserved space reads as zeros, as SQLite left it. Not counted.
static int open_page_quietly(const unsigned char *key, uint32_t page, const unsigned char *sealed, unsigned char *out) {
    unsigned char ad[8];
    associated_data(ad, page);
    if (crypto_aead_xchacha20poly1305_ietf_decrypt_detached(out, NULL, sealed, SEALED, sealed + SEALED + NONCE_SIZE,
                                                            ad, sizeof ad, sealed + SEALED, key) != 0) {
        return -1;
    }
    memset(out + SEALED, 0, RESERVE);
    return 0;
}

/// As open_page_quietly, a page that does not open counted as refused.
static int open_page(const unsigned char *key, uint32_t page, const unsigned char *sealed, unsigned char *out) {
    if (open_page_quietly(key, page, sealed, out) == 0) return 0;
    count_refused();
    return -1;
}

static uint32_t big_endian_32(const unsigned char *bytes) {
    return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | bytes[3];
}

// MARK: - The journal's file

static int read_main(CipherFile *file, unsigned char *buffer, int amount, sqlite3_int64 offset) {
    unsigned char raw[PAGE], plain[PAGE];
    if (amount == PAGE && offset % PAGE == 0) {
        // How SQLite reads nearly every page: opened straight into its buffer, no copy between.
        int rc = file->real->pMethods->xRead(file->real, raw, PAGE, offset);
        if (rc == SQLITE_OK) {
            return open_page(file->key, (uint32_t)(offset / PAGE + 1), raw, buffer) == 0 ? SQLITE_OK : SQLITE_IOERR_DATA;
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
        } else if (open_page(file->key, (uint32_t)(index + 1), raw, plain) != 0) {
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
    unsigned char sealed[PAGE];
    seal_page(file->key, (uint32_t)(offset / PAGE + 1), buffer, sealed);
    return file->real->pMethods->xWrite(file->real, sealed, PAGE, offset);
}

// MARK: - The write-ahead log

/// Where in its frame an offset of the log falls (-1 within the log's own header).
static sqlite3_int64 frame_position(sqlite3_int64 offset) {
    return offset < WAL_HEADER ? -1 : (offset - WAL_HEADER) % FRAME;
}

/// The page number in the header of the frame whose page starts at `page_offset`.
static int frame_page(CipherFile *file, sqlite3_int64 page_offset, uint32_t *page) {
    sqlite3_int64 header = page_offset - FRAME_HEADER;
    if (file->header_offset == header) {
        *page = file->header_page;
        return SQLITE_OK;
    }
    unsigned char bytes[FRAME_HEADER];
    int rc = file->real->pMethods->xRead(file->real, bytes, FRAME_HEADER, header);
    if (rc != SQLITE_OK) return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_IOERR_DATA : rc;
    *page = big_endian_32(bytes);
    return SQLITE_OK;
}

/// Whether the frame at `bad` (one that does not open) is in the middle of the log rather than
/// at its torn end: whether, after the commit that ends `bad`'s own transaction, a further
/// transaction of the same log (the salts of its header) ends in a frame that opens. A power cut
/// during a commit may tear any frame of that last transaction, its commit frame reaching the disk
/// whole: that transaction is dropped, as SQLite drops it, and is no damage.
static int later_commit_opens(CipherFile *file, sqlite3_int64 bad) {
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
        found = commit && open_page_quietly(file->key, big_endian_32(frame), frame + FRAME_HEADER, plain) == 0;
    }
    sodium_memzero(plain, sizeof plain);
    return found;
}

static int read_wal(CipherFile *file, unsigned char *buffer, int amount, sqlite3_int64 offset) {
    sqlite3_int64 position = frame_position(offset);
    if (position == FRAME_HEADER && amount == PAGE) {
        // A page the log's index says is there: it must open.
        uint32_t page;
        int rc = frame_page(file, offset, &page);
        if (rc != SQLITE_OK) return rc;
        unsigned char raw[PAGE];
        rc = file->real->pMethods->xRead(file->real, raw, PAGE, offset);
        if (rc != SQLITE_OK) return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_IOERR_DATA : rc;
        return open_page(file->key, page, raw, buffer) == 0 ? SQLITE_OK : SQLITE_IOERR_DATA;
    }
    int rc = file->real->pMethods->xRead(file->real, buffer, amount, offset);
    if (position == 0 && amount == FRAME && rc == SQLITE_OK) {
        // Recovery reads whole frames to find where the log ends. A frame that does not open
        // because a crash tore it (in the log's last transaction) is handed back as it is: its
        // checksum then fails, and SQLite ends the log there, as it does for a torn frame in a
        // plain log. One with a whole transaction after its own is damage: the saves after it are
        // not dropped unsaid.
        unsigned char plain[PAGE];
        int opened = open_page(file->key, big_endian_32(buffer), buffer + FRAME_HEADER, plain) == 0;
        if (opened) memcpy(buffer + FRAME_HEADER, plain, PAGE);
        sodium_memzero(plain, sizeof plain);
        if (!opened && !file->salvage && later_commit_opens(file, offset)) return SQLITE_IOERR_DATA;
        return SQLITE_OK;
    }
    // The log's header, a frame's header, or the end of the log: none holds a page's content.
    if (position >= 0 && position + amount > FRAME_HEADER) {
        if (rc == SQLITE_IOERR_SHORT_READ) return rc; // past the end: zeros, nothing to open
        return SQLITE_IOERR_READ;
    }
    return rc;
}

static int write_wal(CipherFile *file, const unsigned char *buffer, int amount, sqlite3_int64 offset) {
    sqlite3_int64 position = frame_position(offset);
    if (position < 0) {
        // The log's header, which names its page size.
        if (offset != 0 || amount != WAL_HEADER || big_endian_32(buffer + 8) != PAGE) return SQLITE_IOERR_WRITE;
        return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
    }
    if (position == 0 && amount == FRAME_HEADER) {
        file->header_offset = offset;
        file->header_page = big_endian_32(buffer);
        return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
    }
    if (position == FRAME_HEADER && amount == PAGE) {
        uint32_t page;
        int rc = frame_page(file, offset, &page);
        if (rc != SQLITE_OK) return rc;
        unsigned char sealed[PAGE];
        seal_page(file->key, page, buffer, sealed);
        return file->real->pMethods->xWrite(file->real, sealed, PAGE, offset);
    }
    return SQLITE_IOERR_WRITE;
}

// MARK: - I/O methods

static int cipher_close(sqlite3_file *base) {
    CipherFile *file = (CipherFile *)base;
    int rc = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    if (file->key) sodium_free(file->key);
    file->key = NULL;
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
    unsigned char *key = sodium_malloc(KEY_SIZE);
    if (!key) return SQLITE_NOMEM;
    pthread_mutex_lock(&slots_lock);
    int slot = slot_of(id);
    int found = slot >= 0;
    if (found) memcpy(key, slots[slot], KEY_SIZE);
    pthread_mutex_unlock(&slots_lock);
    if (!found) {
        sodium_free(key);
        return SQLITE_CANTOPEN;
    }
    file->real = (sqlite3_file *)&file[1];
    sqlite3_vfs *root = root_vfs(vfs);
    int rc = root->xOpen(root, name, file->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        if (file->real->pMethods) file->real->pMethods->xClose(file->real);
        sodium_free(key);
        return rc;
    }
    file->kind = kind;
    file->key = key;
    file->salvage = sqlite3_uri_boolean(name, "salvage", 0);
    file->header_offset = -1;
    file->base.pMethods = &cipher_methods;
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
