// Helpers for the parts of GTK 4 / GLib that Swift cannot import: macros, casts and variadic functions.
// Everything here is `static inline` so the module needs no compiled C target.
#ifndef FLOURISH_CGTK_SHIM_H
#define FLOURISH_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#include <unistd.h>
#include <stdint.h>

// libdispatch's main-queue hooks (exported by libdispatch on Linux, declared in no public header).
// GLib watches the eventfd so that DispatchQueue.main, and with it the main actor, runs under the GTK loop.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static inline gboolean flourish_drain_main_queue(gint fd, GIOCondition condition, gpointer user_data) {
    uint64_t counter = 0;
    // Reading the eventfd resets it; an unread eventfd keeps GLib polling at 100 % CPU.
    ssize_t unused = read(fd, &counter, sizeof counter);
    (void)unused;
    _dispatch_main_queue_callback_4CF(NULL);
    return G_SOURCE_CONTINUE;
}

static inline guint flourish_watch_main_queue(void) {
    int fd = _dispatch_get_main_queue_handle_4CF();
    return g_unix_fd_add(fd, G_IO_IN, flourish_drain_main_queue, NULL);
}

// MARK: - Type checks (GTK's type macros are not importable)

static inline gboolean flourish_is_editable(GtkWidget *w) {
    return GTK_IS_EDITABLE(w) || GTK_IS_TEXT_VIEW(w);
}

// MARK: - Variadic functions, given fixed arities

static inline GtkWidget *flourish_message_dialog_new(GtkWindow *parent, const char *title, const char *message) {
    GtkWidget *dialog = gtk_message_dialog_new(parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                               GTK_MESSAGE_OTHER, GTK_BUTTONS_NONE, "%s", title);
    gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(dialog), "%s", message);
    return dialog;
}

static inline void flourish_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void flourish_accessible_set_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

static inline void flourish_accessible_set_invalid(GtkWidget *widget, gboolean invalid) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_INVALID,
                                invalid ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
}

static inline gboolean flourish_animations_enabled(GtkWidget *widget) {
    gboolean enabled = TRUE;
    g_object_get(gtk_widget_get_settings(widget), "gtk-enable-animations", &enabled, NULL);
    return enabled;
}

static inline void flourish_emit_clicked(GtkWidget *button) {
    g_signal_emit_by_name(button, "clicked");
}

#endif
