/* Baseline for `make bench`: generates freedesktop thumbnails for the files named on standard input (one
 * path a line) with GnomeDesktopThumbnailFactory, as fast as a plain C loop can, on N threads (argv[1],
 * default 2). Prints `thumbnails N seconds S`. Point XDG_CACHE_HOME at an empty folder for a cold cache. */
#define GNOME_DESKTOP_USE_UNSTABLE_API
#include <libgnome-desktop/gnome-desktop-thumbnail.h>
#include <stdio.h>
#include <string.h>

static GnomeDesktopThumbnailFactory *factory;
static GPtrArray *paths;
static gint next_index;
static gint made;

static gpointer worker(gpointer data) {
    for (;;) {
        gint index = g_atomic_int_add(&next_index, 1);
        if (index >= (gint) paths->len) return NULL;
        GFile *file = g_file_new_for_path(g_ptr_array_index(paths, index));
        char *uri = g_file_get_uri(file);
        GFileInfo *info = g_file_query_info(file, "standard::fast-content-type,time::modified", 0, NULL, NULL);
        if (info) {
            char *mime = g_content_type_get_mime_type(g_file_info_get_attribute_string(info, "standard::fast-content-type"));
            time_t mtime = (time_t) g_file_info_get_attribute_uint64(info, "time::modified");
            GdkPixbuf *pixbuf = gnome_desktop_thumbnail_factory_generate_thumbnail(factory, uri, mime, NULL, NULL);
            if (pixbuf) {
                gnome_desktop_thumbnail_factory_save_thumbnail(factory, pixbuf, uri, mtime, NULL, NULL);
                g_object_unref(pixbuf);
                g_atomic_int_inc(&made);
            }
            g_free(mime);
            g_object_unref(info);
        }
        g_free(uri);
        g_object_unref(file);
    }
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    factory = gnome_desktop_thumbnail_factory_new(GNOME_DESKTOP_THUMBNAIL_SIZE_LARGE);
    paths = g_ptr_array_new_with_free_func(g_free);
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (*line) g_ptr_array_add(paths, g_strdup(line));
    }
    gint64 start = g_get_monotonic_time();
    GThread *pool[16];
    for (int i = 0; i < threads && i < 16; i++) pool[i] = g_thread_new("thumbnailer", worker, NULL);
    for (int i = 0; i < threads && i < 16; i++) g_thread_join(pool[i]);
    printf("thumbnails %d seconds %.3f\n", made, (g_get_monotonic_time() - start) / 1e6);
    return 0;
}
