// C helpers for the Swift `Gtk` layer: things Swift cannot import directly from GTK's headers
// (macros, variadic functions, type-checked casts). Nothing else belongs here.
#ifndef NAVGTK_CGTK_SHIM_H
#define NAVGTK_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <libintl.h>
#include <malloc.h>
#include <glib-unix.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <unistd.h>
#include <sys/prctl.h>

// gtk_accessible_update_property is variadic: set the accessible label (what a screen reader reads).
static inline void navgtk_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

// Drops the accessible label (the widget is named by its content again).
static inline void navgtk_accessible_reset_label(GtkWidget *widget) {
    gtk_accessible_reset_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL);
}

// Says that the widget opens a menu (ARIA aria-haspopup), as GtkMenuButton does for itself.
static inline void navgtk_accessible_set_has_popup(GtkWidget *widget, gboolean has_popup) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_HAS_POPUP, has_popup, -1);
}

// A GSettings of `schema` kept in memory only (nothing is written to the user's settings): tests.
static inline GSettings *navgtk_settings_in_memory(const char *schema) {
    GSettingsBackend *backend = g_memory_settings_backend_new();
    GSettings *settings = g_settings_new_with_backend(schema, backend);
    g_object_unref(backend);
    return settings;
}

// A new GtkLabel with the accessible role "alert" (AT-SPI's too, which screen readers speak when it is
// shown); the role is construct-only.
static inline GtkWidget *navgtk_alert_label_new(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_LABEL, "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT, NULL));
}

// A new GtkDrawingArea that screen readers read as an image (the role is construct-only).
static inline GtkWidget *navgtk_image_drawing_area_new(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL));
}

// A new GtkWindow with an accessible role (construct-only; g_object_new is variadic).
static inline GtkWidget *navgtk_box_new_with_role(GtkOrientation orientation, GtkAccessibleRole role) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_BOX, "orientation", orientation, "accessible-role", role, NULL));
}

static inline GtkWidget *navgtk_window_new_with_role(GtkAccessibleRole role) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_WINDOW, "accessible-role", role, NULL));
}

// Hides a decorative widget (an illustration icon) from screen readers (gtk_accessible_update_state is
// variadic).
static inline void navgtk_accessible_set_hidden(GtkWidget *widget, gboolean hidden) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}

// Drops the accessible description (GTK 4.8 copies a widget's tooltip into it).
static inline void navgtk_accessible_reset_description(GtkWidget *widget) {
    gtk_accessible_reset_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

// Sets the accessible description (what a screen reader says after the name and role).
static inline void navgtk_accessible_set_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

// Drops the labelled-by relation (GTK 4.8 would read a mnemonic button's label child as well as its
// accessible label).
static inline void navgtk_accessible_reset_labelled_by(GtkWidget *widget) {
    gtk_accessible_reset_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
}

// Whether an accessible label is set on `widget`.
static inline gboolean navgtk_accessible_has_label(GtkWidget *widget) {
    return gtk_test_accessible_has_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL);
}

// Checks the accessible label against `expected` (GTK 4.8 has no getter). Returns NULL when it
// matches, else a message the caller frees with g_free. gtk_test_accessible_check_property is variadic.
static inline char *navgtk_accessible_check_label(GtkWidget *widget, const char *expected) {
    return gtk_test_accessible_check_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, expected);
}

// Whether the accessible description is set and is `expected` (GTK 4.8 has no getter; for tests).
static inline gboolean navgtk_accessible_description_is(GtkWidget *widget, const char *expected) {
    if (!gtk_test_accessible_has_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION)) return FALSE;
    char *differs = gtk_test_accessible_check_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected);
    gboolean same = differs == NULL;
    g_free(differs);
    return same;
}

static inline gboolean navgtk_is_floating(gpointer object) {
    return g_object_is_floating(object);
}

static inline GType navgtk_type_of(gpointer object) {
    return G_OBJECT_TYPE(object);
}

static inline const char *navgtk_type_name_of(gpointer object) {
    return G_OBJECT_TYPE_NAME(object);
}

static inline gboolean navgtk_value_holds_flags(const GValue *value) {
    return G_VALUE_HOLDS_FLAGS(value);
}

// Builds a modifier mask for GtkShortcutTrigger / key events.
static inline GdkModifierType navgtk_control_mask(void) { return GDK_CONTROL_MASK; }
static inline GdkModifierType navgtk_alt_mask(void) { return GDK_ALT_MASK; }
static inline GdkModifierType navgtk_shift_mask(void) { return GDK_SHIFT_MASK; }

static inline GtkFileFilter *navgtk_image_filter(void) {
    GtkFileFilter *filter = gtk_file_filter_new();
    gtk_file_filter_set_name(filter, "Images");
    gtk_file_filter_add_pixbuf_formats(filter);
    return filter;
}

// gdk_pixbuf_save is variadic: save as JPEG with a quality ("1"…"100").
static inline gboolean navgtk_pixbuf_save_jpeg(GdkPixbuf *pixbuf, const char *path, const char *quality, GError **error) {
    return gdk_pixbuf_save(pixbuf, path, "jpeg", error, "quality", quality, NULL);
}

// Keeps a GtkStack's pages out of what Orca 43 says. GTK 4.8 gives every nameless accessible that is not a
// plain box its type name over AT-SPI, and Orca says a GtkStackPage as context ("GtkStackPage panel")
// before the control focused in it. Each page is named as the application, which Orca 43 takes for a
// layout panel and says nothing of (script_utilities.isLayoutOnly: a panel named as its application).
static inline void navgtk_stack_pages_quiet_for_screen_readers(GtkWidget *stack) {
    const char *application = g_get_prgname();
    if (!GTK_IS_STACK(stack) || application == NULL) return;
    for (GtkWidget *child = gtk_widget_get_first_child(stack); child; child = gtk_widget_get_next_sibling(child)) {
        GtkStackPage *page = gtk_stack_get_page(GTK_STACK(stack), child);
        if (page != NULL)
            gtk_accessible_update_property(GTK_ACCESSIBLE(page), GTK_ACCESSIBLE_PROPERTY_LABEL, application, -1);
    }
}

// Names a GtkPopoverMenu for screen readers ("Main Menu menu"; GTK 4.8 would give its type name), and
// quiets the stack pages inside it (above).
static inline void navgtk_popover_menu_name_for_screen_readers(GtkWidget *popover, const char *name) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(popover), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
    GPtrArray *pending = g_ptr_array_new();
    g_ptr_array_add(pending, popover);
    while (pending->len > 0) {
        GtkWidget *widget = g_ptr_array_steal_index(pending, pending->len - 1);
        navgtk_stack_pages_quiet_for_screen_readers(widget);
        for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child))
            g_ptr_array_add(pending, child);
    }
    g_ptr_array_free(pending, TRUE);
}

// A GtkMenuButton that a screen reader reads once: GTK 4.8 exposes the menu button and the button inside
// it (labelled by the outer one) as two push buttons with the same name; as a group, the outer one is
// not read as a button.
static inline GtkWidget *navgtk_menu_button_new_read_once(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_MENU_BUTTON, "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP, NULL));
}

// g_signal_emit_by_name is variadic: emit a signal with no arguments and no return value ("clicked").
static inline void navgtk_emit(gpointer instance, const char *signal) {
    g_signal_emit_by_name(instance, signal);
}

// g_signal_emit_by_name is variadic: emit a signal taking one string and returning a boolean
// (GtkLabel's activate-link).
static inline void g_signal_emit_by_name_bool_string(gpointer instance, const char *signal, const char *text, gboolean *result) {
    g_signal_emit_by_name(instance, signal, text, result);
}

// g_application_command_line_print/printerr are variadic (a format): print one line as given.
static inline void navgtk_command_line_print(GApplicationCommandLine *line, const char *message) {
    g_application_command_line_print(line, "%s\n", message);
}
static inline void navgtk_command_line_printerr(GApplicationCommandLine *line, const char *message) {
    g_application_command_line_printerr(line, "%s\n", message);
}

// For tests: emits a swipe gesture's signals as GTK does on real input (XTEST cannot make touchpad
// scroll sequences or touch points under Xvfb). g_signal_emit_by_name is variadic, so not callable from Swift.
static inline void navgtk_emit_signal(gpointer instance, const char *name) {
    g_signal_emit_by_name(instance, name);
}
static inline gboolean navgtk_emit_scroll(gpointer controller, double dx, double dy) {
    gboolean handled = FALSE;
    g_signal_emit_by_name(controller, "scroll", dx, dy, &handled);
    return handled;
}
static inline void navgtk_emit_drag(gpointer gesture, const char *name, double x, double y) {
    g_signal_emit_by_name(gesture, name, x, y);
}

#endif

// What a GdkPixbufLoader reported in "size-prepared": the image's size as stored, and the size to
// decode at (target_width > 0: set on the loader from the callback; JPEG then scales while decoding).
typedef struct {
    int width, height;
    int target_width, target_height;
    gboolean prepared;
    gboolean header_only;  // decode nothing: size 0 × 0, as gdk_pixbuf_get_file_info does (the loader then stops)
} NavgtkLoaderSize;

static void navgtk_loader_size_prepared(GdkPixbufLoader *loader, int width, int height, gpointer data) {
    NavgtkLoaderSize *size = data;
    size->width = width;
    size->height = height;
    size->prepared = TRUE;
    if (size->header_only) {
        gdk_pixbuf_loader_set_size(loader, 0, 0);
    } else if (size->target_width > 0 && size->target_height > 0) {
        gdk_pixbuf_loader_set_size(loader, size->target_width, size->target_height);
    }
}

// Follows `loader`'s "size-prepared" into `size` (which must outlive the loader's use).
static inline void navgtk_loader_watch_size(GdkPixbufLoader *loader, NavgtkLoaderSize *size) {
    g_signal_connect(loader, "size-prepared", G_CALLBACK(navgtk_loader_size_prepared), size);
}

// A most number of characters (Unicode code points, as GtkTextBuffer counts them) for a text buffer: text
// inserted past it (typed, pasted, set) is cut to what fits, and `cut` is set until read.
typedef struct {
    int maximum;
    gboolean inserting;
    gboolean cut;
} NavgtkTextLimit;

static void navgtk_text_limit_insert(GtkTextBuffer *buffer, GtkTextIter *location, char *text, int length, gpointer data) {
    NavgtkTextLimit *limit = data;
    if (limit->inserting) return;
    int count = gtk_text_buffer_get_char_count(buffer);
    const char *end = text + length;
    // Counting stops where the room ends: a megabyte pasted costs what fits, not its length.
    int room = MAX(0, limit->maximum - count);
    const char *fits = text;
    for (int index = 0; index < room && fits < end; index++) fits = g_utf8_next_char(fits);
    if (fits >= end) return;  // all of it fits: GTK inserts it
    g_signal_stop_emission_by_name(buffer, "insert-text");
    limit->cut = TRUE;
    if (fits == text) {
        // Nothing fits (typed at the limit): nothing changes, but whoever shows the limit is told now.
        g_signal_emit_by_name(buffer, "changed");
        return;
    }
    limit->inserting = TRUE;
    gtk_text_buffer_insert(buffer, location, text, (int)(fits - text));  // revalidates `location`, as GTK's own handler does
    limit->inserting = FALSE;
}

// Limits `buffer` to `maximum` characters; the limit lives as long as the buffer.
static inline NavgtkTextLimit *navgtk_text_buffer_limit(GtkTextBuffer *buffer, int maximum) {
    NavgtkTextLimit *limit = g_new0(NavgtkTextLimit, 1);
    limit->maximum = maximum;
    g_signal_connect_data(buffer, "insert-text", G_CALLBACK(navgtk_text_limit_insert), limit, (GClosureNotify)(void (*)(void))g_free, 0);
    return limit;
}
