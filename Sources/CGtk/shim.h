// Helpers for the parts of GTK 4 / GLib that Swift cannot import: macros, casts and variadic functions.
// Everything here is `static inline` so the module needs no compiled C target.
#ifndef FLOURISH_CGTK_SHIM_H
#define FLOURISH_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <cairo-pdf.h>
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

static inline gboolean flourish_is_viewport(GtkWidget *w) {
    return GTK_IS_VIEWPORT(w);
}

// MARK: - Variadic functions, given fixed arities

static inline GtkWidget *flourish_message_dialog_new(GtkWindow *parent, const char *title, const char *message) {
    GtkWidget *dialog = gtk_message_dialog_new(parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                               GTK_MESSAGE_OTHER, GTK_BUTTONS_NONE, "%s", title);
    gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(dialog), "%s", message);
    return dialog;
}

// g_signal_emit_by_name is variadic: a signal with no arguments and no return value.
static inline void flourish_emit(gpointer instance, const char *signal) {
    g_signal_emit_by_name(instance, signal);
}

// g_object_set is variadic.
static inline void flourish_password_entry_set_placeholder(GtkWidget *entry, const char *text) {
    g_object_set(entry, "placeholder-text", text, NULL);
}

static inline void flourish_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void flourish_accessible_set_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

static inline void flourish_accessible_set_hidden(GtkWidget *widget, gboolean hidden) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}

/// A label a screen reader hears as a heading of `level` (1 to 6): the role is fixed when the
/// widget is made, and g_object_new is variadic.
static inline GtkWidget *flourish_heading_label_new(int level) {
    GtkWidget *label = g_object_new(GTK_TYPE_LABEL, "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING, NULL);
    gtk_accessible_update_property(GTK_ACCESSIBLE(label), GTK_ACCESSIBLE_PROPERTY_LEVEL, level, -1);
    return label;
}

/// A check button a screen reader hears as a radio button (one choice of several): GTK 4.8
/// gives a grouped check button the check box role, and the role is fixed when it is made.
static inline GtkWidget *flourish_radio_button_new(const char *label) {
    return g_object_new(GTK_TYPE_CHECK_BUTTON, "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO, "label", label, NULL);
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

// MARK: - A list model that only counts

// GtkGridView needs a GListModel. Flourish's rows are keyed by position into a Swift array, so the
// model only says how many items there are; an item (a bare GObject) is made when GTK asks for it,
// which it does for the rows it builds. A journal of 100,000 entries costs no 100,000 objects, and
// listing it is one "items-changed".
typedef struct { GObject parent_instance; guint n_items; } FlourishCountModel;
typedef struct { GObjectClass parent_class; } FlourishCountModelClass;

static inline GType flourish_count_model_item_type(GListModel *model) {
    (void)model;
    return G_TYPE_OBJECT;
}

static inline guint flourish_count_model_n_items(GListModel *model) {
    return ((FlourishCountModel *)model)->n_items;
}

static inline gpointer flourish_count_model_get_item(GListModel *model, guint position) {
    if (position >= ((FlourishCountModel *)model)->n_items) return NULL;
    return g_object_new(G_TYPE_OBJECT, NULL);
}

static inline void flourish_count_model_init_interface(gpointer interface, gpointer data) {
    (void)data;
    GListModelInterface *list = interface;
    list->get_item_type = flourish_count_model_item_type;
    list->get_n_items = flourish_count_model_n_items;
    list->get_item = flourish_count_model_get_item;
}

static inline GType flourish_count_model_get_type(void) {
    static gsize type = 0;
    if (g_once_init_enter(&type)) {
        GTypeInfo info = { 0 };
        info.class_size = sizeof(FlourishCountModelClass);
        info.instance_size = sizeof(FlourishCountModel);
        // These statics exist once per object file that calls this: another must find the type.
        GType registered = g_type_from_name("FlourishCountModel");
        if (registered == 0) {
            registered = g_type_register_static(G_TYPE_OBJECT, "FlourishCountModel", &info, 0);
            GInterfaceInfo list = { flourish_count_model_init_interface, NULL, NULL };
            g_type_add_interface_static(registered, G_TYPE_LIST_MODEL, &list);
        }
        g_once_init_leave(&type, registered);
    }
    return type;
}

static inline GListModel *flourish_count_model_new(void) {
    return G_LIST_MODEL(g_object_new(flourish_count_model_get_type(), NULL));
}

/// Replaces `removed` items at `position` with `added` new ones, and tells the view.
static inline void flourish_count_model_splice(GListModel *model, guint position, guint removed, guint added) {
    FlourishCountModel *self = (FlourishCountModel *)model;
    self->n_items = self->n_items - removed + added;
    g_list_model_items_changed(model, position, removed, added);
}

// MARK: - A few lines of text, for list rows

// GtkLabel measures a wrapping label's width by laying its text out twice more (as one line, and
// at its narrowest), and GTK measures the width before every height. In a list, where the view
// gives each row its width, that is most of the cost of a row scrolling in. This widget has no
// width of its own (it takes the width it is given) and lays its text out once per width: at most
// `lines` lines a paragraph, wrapped at words, the last ending in "…". Screen readers meet it as a label
// named by its text, as GtkLabel is; themes style it as "label".
typedef struct {
    GtkWidget parent_instance;
    char *text;
    int lines;
    PangoLayout *layout; // made at the first measure, with the widget's font
    int width;           // the width (px) the layout was last broken at; -1 for none
    PangoAttrList *highlights; // the words a search matched; NULL for none
} FlourishPreview;
typedef struct { GtkWidgetClass parent_class; } FlourishPreviewClass;

static gpointer flourish_preview_parent_class = NULL;

static inline void flourish_preview_break_at(FlourishPreview *self, int width) {
    if (self->layout == NULL) {
        // In the widget's font as CSS gives it now (see flourish_preview_css_changed).
        self->layout = gtk_widget_create_pango_layout(GTK_WIDGET(self), self->text ? self->text : "");
        pango_layout_set_wrap(self->layout, PANGO_WRAP_WORD_CHAR);
        pango_layout_set_ellipsize(self->layout, PANGO_ELLIPSIZE_END);
        pango_layout_set_height(self->layout, -self->lines);
        pango_layout_set_attributes(self->layout, self->highlights);
        self->width = -1;
        pango_layout_set_width(self->layout, -1);
    }
    if (width != self->width) {
        pango_layout_set_width(self->layout, width >= 0 ? width * PANGO_SCALE : -1);
        self->width = width;
    }
    // As GtkLabel does: Pango's LEFT means the start only for the context's own direction.
    gboolean rtl = gtk_widget_get_direction(GTK_WIDGET(self)) == GTK_TEXT_DIR_RTL;
    pango_layout_set_alignment(self->layout, rtl ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
}

static inline GtkSizeRequestMode flourish_preview_request_mode(GtkWidget *widget) {
    (void)widget;
    return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static inline void flourish_preview_measure(GtkWidget *widget, GtkOrientation orientation, int for_size,
                                            int *minimum, int *natural, int *minimum_baseline, int *natural_baseline) {
    (void)minimum_baseline;
    (void)natural_baseline;
    if (orientation == GTK_ORIENTATION_HORIZONTAL) {
        *minimum = *natural = 0; // the row decides
        return;
    }
    FlourishPreview *self = (FlourishPreview *)widget;
    // Asked without a width (a guess, from a parent measuring itself), the width the text is
    // shown at is the best answer, and keeps the layout from being broken again for nothing.
    flourish_preview_break_at(self, for_size > 0 ? for_size : self->width);
    int height = 0;
    pango_layout_get_pixel_size(self->layout, NULL, &height);
    *minimum = *natural = height;
}

static inline void flourish_preview_size_allocate(GtkWidget *widget, int width, int height, int baseline) {
    (void)height;
    (void)baseline;
    flourish_preview_break_at((FlourishPreview *)widget, width);
}

static inline void flourish_preview_snapshot(GtkWidget *widget, GtkSnapshot *snapshot) {
    FlourishPreview *self = (FlourishPreview *)widget;
    flourish_preview_break_at(self, gtk_widget_get_width(widget));
    GdkRGBA color;
    gtk_style_context_get_color(gtk_widget_get_style_context(widget), &color);
    gtk_snapshot_append_layout(snapshot, self->layout, &color);
}

// A new class, theme or text size can change the font: the layout is then made again. Other
// style changes (hover, focus, the window's backdrop) keep it, and so cost no new layout.
static inline void flourish_preview_css_changed(GtkWidget *widget, GtkCssStyleChange *change) {
    GTK_WIDGET_CLASS(flourish_preview_parent_class)->css_changed(widget, change);
    FlourishPreview *self = (FlourishPreview *)widget;
    if (self->layout == NULL) return;
    PangoContext *now = gtk_widget_create_pango_context(widget);
    gboolean same = pango_font_description_equal(pango_context_get_font_description(now),
                                                 pango_context_get_font_description(pango_layout_get_context(self->layout)));
    g_object_unref(now);
    if (same) return;
    g_clear_object(&self->layout);
    self->width = -1;
    gtk_widget_queue_resize(widget);
}

static inline void flourish_preview_finalize(GObject *object) {
    FlourishPreview *self = (FlourishPreview *)object;
    g_clear_object(&self->layout);
    g_clear_pointer(&self->highlights, pango_attr_list_unref);
    g_free(self->text);
    G_OBJECT_CLASS(flourish_preview_parent_class)->finalize(object);
}

static inline void flourish_preview_class_init(gpointer klass, gpointer data) {
    (void)data;
    flourish_preview_parent_class = g_type_class_peek_parent(klass);
    G_OBJECT_CLASS(klass)->finalize = flourish_preview_finalize;
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    widget_class->get_request_mode = flourish_preview_request_mode;
    widget_class->measure = flourish_preview_measure;
    widget_class->size_allocate = flourish_preview_size_allocate;
    widget_class->snapshot = flourish_preview_snapshot;
    widget_class->css_changed = flourish_preview_css_changed;
    gtk_widget_class_set_css_name(widget_class, "label");
    gtk_widget_class_set_accessible_role(widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static inline void flourish_preview_init(GTypeInstance *instance, gpointer klass) {
    (void)klass;
    FlourishPreview *self = (FlourishPreview *)instance;
    self->lines = 1;
    self->width = -1;
}

static inline GType flourish_preview_get_type(void) {
    static gsize type = 0;
    if (g_once_init_enter(&type)) {
        GTypeInfo info = { 0 };
        info.class_size = sizeof(FlourishPreviewClass);
        info.class_init = flourish_preview_class_init;
        info.instance_size = sizeof(FlourishPreview);
        info.instance_init = flourish_preview_init;
        // These statics exist once per object file that calls this: another must find the type
        // (its class, and so flourish_preview_parent_class, was set up by the first).
        GType registered = g_type_from_name("FlourishPreview");
        if (registered == 0) registered = g_type_register_static(GTK_TYPE_WIDGET, "FlourishPreview", &info, 0);
        g_once_init_leave(&type, registered);
    }
    return type;
}

static inline GtkWidget *flourish_preview_new(int lines) {
    FlourishPreview *self = g_object_new(flourish_preview_get_type(), NULL);
    self->lines = lines > 0 ? lines : 1;
    return GTK_WIDGET(self);
}

static inline const char *flourish_preview_get_text(GtkWidget *widget) {
    const char *text = ((FlourishPreview *)widget)->text;
    return text ? text : "";
}

static inline void flourish_preview_set_text(GtkWidget *widget, const char *text) {
    FlourishPreview *self = (FlourishPreview *)widget;
    if (text == NULL) text = "";
    if (g_strcmp0(self->text, text) == 0) return;
    g_free(self->text);
    self->text = g_strdup(text);
    g_clear_pointer(&self->highlights, pango_attr_list_unref);
    if (self->layout) {
        pango_layout_set_attributes(self->layout, NULL);
        pango_layout_set_text(self->layout, text, -1);
    }
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
    gtk_widget_queue_resize(widget);
}

/// Highlights `count` byte ranges of the text (pairs of start and end in `ranges`): bold, on a
/// translucent yellow that reads on light and dark themes alike. Cleared by new text.
static inline void flourish_preview_set_highlights(GtkWidget *widget, const int *ranges, int count) {
    FlourishPreview *self = (FlourishPreview *)widget;
    if (count == 0 && self->highlights == NULL) return;
    g_clear_pointer(&self->highlights, pango_attr_list_unref);
    if (count > 0) {
        self->highlights = pango_attr_list_new();
        for (int i = 0; i < count; i++) {
            guint start = (guint)ranges[2 * i], end = (guint)ranges[2 * i + 1];
            PangoAttribute *attributes[] = {
                pango_attr_weight_new(PANGO_WEIGHT_BOLD),
                pango_attr_background_new(0xf5f5, 0xc2c2, 0x1111),
                pango_attr_background_alpha_new(0x6666),
            };
            for (unsigned k = 0; k < G_N_ELEMENTS(attributes); k++) {
                attributes[k]->start_index = start;
                attributes[k]->end_index = end;
                pango_attr_list_insert(self->highlights, attributes[k]);
            }
        }
    }
    if (self->layout) {
        pango_layout_set_attributes(self->layout, self->highlights);
        self->width = -1; // bold words may break the lines elsewhere
        pango_layout_set_width(self->layout, -1);
    }
    gtk_widget_queue_resize(widget);
}

/// The highlighted byte ranges, as pairs, for tests: how many ranges were written into `ranges`.
static inline int flourish_preview_get_highlights(GtkWidget *widget, int *ranges, int capacity) {
    FlourishPreview *self = (FlourishPreview *)widget;
    if (self->highlights == NULL) return 0;
    int count = 0;
    GSList *attributes = pango_attr_list_get_attributes(self->highlights);
    for (GSList *item = attributes; item; item = item->next) {
        PangoAttribute *attribute = item->data;
        if (attribute->klass->type == PANGO_ATTR_WEIGHT && count < capacity) {
            ranges[2 * count] = (int)attribute->start_index;
            ranges[2 * count + 1] = (int)attribute->end_index;
            count++;
        }
    }
    g_slist_free_full(attributes, (GDestroyNotify)pango_attribute_destroy);
    return count;
}

// MARK: - A stand-in window, always the last toplevel

// GTK 4.8's AT-SPI application root answers GetChildAtIndex (gtk/a11y/gtkatspiroot.c,
// handle_accessible_method) by walking gtk_window_get_toplevels() for the visible window at that
// index. When there is none, as when a screen reader counted the windows just before a dialog
// closed and then asks for the one that is gone, the walk ends on the last toplevel, hidden or
// not, and GTK reads that window's object path without realizing its accessible context. A
// hidden window has no path (GTK drops it as the window is unmapped, gtk_window_unmap, and makes
// one only as a window is mapped), so the answer is built as g_variant_new("((so))", name, NULL):
// GLib's object-path assertion fails and the process dies of SIGSEGV in
// g_variant_builder_add_value. Flourish keeps windows hidden (closed preferences, the import
// window while its file chooser is up), so the last toplevel is a hidden one as soon as a dialog
// after it goes. A window cannot be given back its path at the moment it hides: realizing its
// context then makes GTK 4.8 announce the hide (gtk_at_spi_root_child_changed) with the
// application root itself as the child removed, and AT-SPI clients drop the whole application.
//
// So the last toplevel is always a window of Flourish's own that is never shown and has an
// accessible context, realized as it is made (a context's role is fixed when it is realized, so
// the role is set first): a stale index is answered with that hidden, nameless window instead of
// a crash. GTK lists a window as it is constructed, at the end, so each new toplevel gets a new
// stand-in after it, and the one before is destroyed. The stand-in is never realized as a
// widget, so its context sends no state changes, and being hidden it is in no count or list of
// the windows a screen reader is given.

// GTK realizes a widget's accessible context on a change of its platform state
// (gtk_accessible_platform_changed, gtk_at_context_platform_changed): flipping the focusable flag
// and back is such a change.
static inline void flourish_realize_accessible(GtkWidget *widget) {
    gboolean focusable = gtk_widget_get_focusable(widget);
    gtk_widget_set_focusable(widget, !focusable);
    gtk_widget_set_focusable(widget, focusable);
}

static inline void flourish_keep_stand_in_last(GListModel *toplevels) {
    GObject *list = G_OBJECT(toplevels);
    guint count = g_list_model_get_n_items(toplevels);
    // While the new stand-in is being constructed (GTK lists it from its constructor).
    if (count == 0 || g_object_get_data(list, "flourish-making-stand-in") != NULL) return;
    GtkWidget *stand_in = g_object_get_data(list, "flourish-stand-in");
    GtkWidget *last = g_list_model_get_item(toplevels, count - 1);
    g_object_unref(last); // the list holds it
    if (last == stand_in) return;

    // Until the new one is kept: making it, and destroying the old one, change the list again,
    // and a call then would make yet another stand-in that nothing would ever destroy.
    g_object_set_data(list, "flourish-making-stand-in", GINT_TO_POINTER(1));
    GtkWidget *made = g_object_new(GTK_TYPE_WINDOW, "accessible-role", GTK_ACCESSIBLE_ROLE_WINDOW, NULL);
    flourish_realize_accessible(made);

    // Held here as well as by GTK's list, so the old one is still there to destroy (a no-op if
    // it was destroyed already) and is freed as it is replaced.
    if (stand_in != NULL) gtk_window_destroy(GTK_WINDOW(stand_in));
    g_object_set_data_full(list, "flourish-stand-in", g_object_ref(made), g_object_unref);
    g_object_set_data(list, "flourish-making-stand-in", NULL);
}

static inline void flourish_toplevels_changed(GListModel *toplevels, guint position, guint removed, guint added,
                                              gpointer data) {
    (void)position;
    (void)removed;
    (void)added;
    (void)data;
    flourish_keep_stand_in_last(toplevels);
}

/// Keeps a stand-in window last among the toplevels from now on. Once per process, after gtk_init.
static inline void flourish_keep_stand_in_window_last(void) {
    GListModel *toplevels = gtk_window_get_toplevels();
    g_signal_connect(toplevels, "items-changed", G_CALLBACK(flourish_toplevels_changed), NULL);
    flourish_keep_stand_in_last(toplevels);
}

#endif
