/* Baseline for `make bench`: a bare C GTK 4 window with a header bar. Prints the monotonic time (µs) of
 * its first painted frame, as `postcard --measure-startup` does, and quits.
 *
 * With `--idle SECONDS` (the navigation bench's baseline for wake-ups) it stays open instead: after
 * 8 s of settling it counts every thread's context switches (/proc/self/task/N/status) over SECONDS of
 * idling, as `postcard --measure-navigation` does, prints `idle-wakeups N` (minus the main thread's one
 * sleep until the timeout that ends the window) and `idle-thread NAME[ID] N` per thread that woke, and quits. */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static guint idle_seconds = 0;
static GHashTable *before = NULL;  /* thread id → context switches */

static GHashTable *thread_switches(GHashTable *names) {
    GHashTable *counts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GDir *dir = g_dir_open("/proc/self/task", 0, NULL);
    const char *id;
    while (dir && (id = g_dir_read_name(dir))) {
        char *path = g_strdup_printf("/proc/self/task/%s/status", id), *status = NULL;
        if (g_file_get_contents(path, &status, NULL, NULL)) {
            long switches = 0;
            char **lines = g_strsplit(status, "\n", -1);
            for (char **line = lines; *line; line++) {
                if (g_str_has_prefix(*line, "voluntary_ctxt_switches:") || g_str_has_prefix(*line, "nonvoluntary_ctxt_switches:"))
                    switches += atol(strchr(*line, ':') + 1);
                else if (names && g_str_has_prefix(*line, "Name:"))
                    g_hash_table_insert(names, g_strdup(id), g_strstrip(g_strdup(*line + 5)));
            }
            g_strfreev(lines);
            g_hash_table_insert(counts, g_strdup(id), GSIZE_TO_POINTER(switches));
        }
        g_free(status);
        g_free(path);
    }
    if (dir) g_dir_close(dir);
    return counts;
}

static gboolean end_idle(gpointer window) {
    GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    GHashTable *after = thread_switches(names);
    char *main_id = g_strdup_printf("%d", (int)getpid());
    long total = 0;
    GHashTableIter iter;
    gpointer key, value;
    g_hash_table_iter_init(&iter, after);
    while (g_hash_table_iter_next(&iter, &key, &value)) {
        long count = (long)GPOINTER_TO_SIZE(value) - (long)GPOINTER_TO_SIZE(g_hash_table_lookup(before, key));
        if (strcmp(key, main_id) == 0) count -= 1;
        if (count > 0) {
            printf("idle-thread %s[%s] %ld\n", (char *)g_hash_table_lookup(names, key), (char *)key, count);
            total += count;
        }
    }
    printf("idle-wakeups %ld\n", total);
    fflush(stdout);
    g_free(main_id);
    g_hash_table_unref(after);
    g_hash_table_unref(names);
    gtk_window_destroy(GTK_WINDOW(window));
    return G_SOURCE_REMOVE;
}

static gboolean start_idle(gpointer window) {
    before = thread_switches(NULL);
    g_timeout_add_seconds(idle_seconds, end_idle, window);
    return G_SOURCE_REMOVE;
}

static void after_paint(GdkFrameClock *clock, GtkWindow *window) {
    static gboolean done = FALSE;
    if (done) return;
    done = TRUE;
    printf("first-frame-monotonic-us %" G_GINT64_FORMAT "\n", g_get_monotonic_time());
    fflush(stdout);
    if (idle_seconds > 0)
        g_timeout_add(8000, start_idle, window);
    else
        gtk_window_destroy(window);
}

static void on_realize(GtkWidget *window, gpointer data) {
    g_signal_connect(gtk_widget_get_frame_clock(window), "after-paint", G_CALLBACK(after_paint), window);
}

static void activate(GtkApplication *app, gpointer data) {
    GtkWidget *window = gtk_application_window_new(app);
    GtkWidget *bar = gtk_header_bar_new();
    gtk_header_bar_pack_end(GTK_HEADER_BAR(bar), gtk_button_new_with_label("Messages"));
    gtk_window_set_titlebar(GTK_WINDOW(window), bar);
    gtk_window_set_title(GTK_WINDOW(window), "Baseline");
    gtk_window_set_default_size(GTK_WINDOW(window), 720, 680);
    g_signal_connect(window, "realize", G_CALLBACK(on_realize), NULL);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--idle") == 0) idle_seconds = (guint)atoi(argv[2]);
    GtkApplication *app = gtk_application_new("io.github.postcard.BenchBaseline", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), 0, NULL);
    g_object_unref(app);
    if (before) g_hash_table_unref(before);
    return status;
}
