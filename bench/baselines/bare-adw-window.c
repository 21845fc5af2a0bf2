/* Baseline for `make bench`: a bare C window with libadwaita. Prints the monotonic time (µs) of its first
 * painted frame, as `postcard-measure --measure-startup` does, and quits.
 *
 * It is bare-window.c's start-up mode as an AdwApplication (adw_application_new: libadwaita initialized,
 * its style sheet loaded, its style manager following the desktop's dark and high-contrast preference,
 * and the app's GResource style sheets looked up), with the same window: a GtkApplicationWindow with a
 * GtkHeaderBar. That is a minimal libadwaita 1.2 app's window (libadwaita's own hello-world example and
 * its Initialization page make a GtkApplicationWindow under an AdwApplication; AdwApplicationWindow
 * brings no header bar of its own), and it is Postcard's (a GtkApplicationWindow whose title bar is its
 * navigation stack's GtkHeaderBar, under an AdwApplication). So against bare-window.c the only
 * difference is libadwaita, and Postcard's start-up ÷ this is what Postcard adds over libadwaita itself. */
#include <adwaita.h>
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
    AdwApplication *app = adw_application_new("io.github.postcard.BenchBaselineAdwaita", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), 0, NULL);
    g_object_unref(app);
    return status;
}
