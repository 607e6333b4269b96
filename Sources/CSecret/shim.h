// libsecret (Debian's libsecret-1-dev): the desktop's Secret Service (GNOME Keyring, KDE Wallet),
// where sync keeps the journal key and the WebDAV password of each synced journal. libsecret's
// attribute calls are variadic, which Swift cannot call, and its schema is a C struct: both are
// wrapped here, so GtkKit sees three plain functions.
#ifndef FLOURISH_CSECRET_SHIM_H
#define FLOURISH_CSECRET_SHIM_H
#include <libsecret/secret.h>

/// Flourish's sync secrets, told apart by the journal file and what the secret is ("key",
/// "password").
static inline const SecretSchema *flourish_secret_schema(void) {
    static const SecretSchema schema = {
        "org.flourishjournal.Flourish.Sync", SECRET_SCHEMA_NONE,
        {
            { "journal", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        }
    };
    return &schema;
}

static inline GHashTable *flourish_secret_attributes(const char *journal, const char *kind) {
    GHashTable *attributes = g_hash_table_new(g_str_hash, g_str_equal);
    g_hash_table_insert(attributes, (gpointer) "journal", (gpointer) journal);
    g_hash_table_insert(attributes, (gpointer) "kind", (gpointer) kind);
    return attributes;
}

static inline gboolean flourish_secret_store(const char *journal, const char *kind, const char *label,
                                             const char *secret, GError **error) {
    GHashTable *attributes = flourish_secret_attributes(journal, kind);
    gboolean stored = secret_password_storev_sync(flourish_secret_schema(), attributes, SECRET_COLLECTION_DEFAULT,
                                                  label, secret, NULL, error);
    g_hash_table_unref(attributes);
    return stored;
}

/// The secret, or NULL (with `error` set when the Secret Service could not be asked). Free it
/// with secret_password_free, which wipes it first.
static inline gchar *flourish_secret_lookup(const char *journal, const char *kind, GError **error) {
    GHashTable *attributes = flourish_secret_attributes(journal, kind);
    gchar *secret = secret_password_lookupv_sync(flourish_secret_schema(), attributes, NULL, error);
    g_hash_table_unref(attributes);
    return secret;
}

/// The same, but never unlocking anything: a secret in a locked collection is NULL with no error,
/// where secret_password_lookup would ask the Secret Service to unlock it, which puts a password
/// prompt on screen (GNOME Keyring's gcr-prompter) and waits for it.
static inline gchar *flourish_secret_lookup_if_open(const char *journal, const char *kind, GError **error) {
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, NULL, error);
    if (!service) return NULL;
    GHashTable *attributes = flourish_secret_attributes(journal, kind);
    GList *items = secret_service_search_sync(service, flourish_secret_schema(), attributes, SECRET_SEARCH_LOAD_SECRETS,
                                              NULL, error);
    g_hash_table_unref(attributes);
    gchar *secret = NULL;
    for (GList *item = items; item && !secret; item = item->next) {
        if (secret_item_get_locked(item->data)) continue;
        SecretValue *value = secret_item_get_secret(item->data);
        // Handed over in memory secret_password_free wipes, as a lookup's is.
        if (value) secret = secret_value_unref_to_password(value, NULL);
    }
    g_list_free_full(items, g_object_unref);
    g_object_unref(service);
    return secret;
}

static inline gboolean flourish_secret_clear(const char *journal, const char *kind, GError **error) {
    GHashTable *attributes = flourish_secret_attributes(journal, kind);
    gboolean cleared = secret_password_clearv_sync(flourish_secret_schema(), attributes, NULL, error);
    g_hash_table_unref(attributes);
    return cleared;
}
#endif
