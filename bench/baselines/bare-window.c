/* Baseline for `make bench`: a bare C GTK 4 window with a header bar. Prints the monotonic time (µs) of
 * its first painted frame, as `postcard --measure-startup` does, and quits. */
#include <gtk/gtk.h>
#include <stdio.h>

static void after_paint(GdkFrameClock *clock, GtkWindow *window) {
    static gboolean done = FALSE;
    if (done) return;
    done = TRUE;
    printf("first-frame-monotonic-us %" G_GINT64_FORMAT "\n", g_get_monotonic_time());
    fflush(stdout);
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
    GtkApplication *app = gtk_application_new("io.github.postcard.BenchBaseline", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), 0, NULL);
    g_object_unref(app);
    return status;
}
