// Test-only: real input events for GTK tests under Xvfb, through the X server's XTEST extension, so
// tests press keys and mouse buttons as a user would (GTK 4 has no event-synthesis API).
#ifndef POSTCARD_CXTEST_SHIM_H
#define POSTCARD_CXTEST_SHIM_H
#include <X11/Xlib.h>
#include <X11/keysym.h>
#include <X11/XF86keysym.h>
#include <X11/extensions/XTest.h>
#include <sys/fsuid.h>

// From <gdk/x11/gdkx.h> (libgtk-4): the Xlib display behind a GdkDisplay, or NULL if not X11.
extern Display *gdk_x11_display_get_xdisplay(void *display);
extern void *gdk_display_get_default(void);
extern const char *g_type_name_from_instance(void *instance);

extern unsigned long gdk_x11_surface_get_xid(void *surface);
extern void *gtk_native_get_surface(void *native);

// Moves the pointer to (x, y) in the GtkWindow `window`'s own coordinates (pixels) and presses and
// releases `button` there (1 primary, 8 back).
static inline void postcard_test_click(Display *display, void *window, int x, int y, unsigned int button) {
    unsigned long xid = gdk_x11_surface_get_xid(gtk_native_get_surface(window));
    int root_x = 0, root_y = 0;
    Window child;
    XTranslateCoordinates(display, xid, DefaultRootWindow(display), x, y, &root_x, &root_y, &child);
    XTestFakeMotionEvent(display, -1, root_x, root_y, 0);
    XTestFakeButtonEvent(display, button, True, 0);
    XTestFakeButtonEvent(display, button, False, 0);
    XSync(display, False);
}

// Moves the top-level GtkWindow `window` to (x, y) on the root window (no window manager runs under
// Xvfb, so tests place windows side by side themselves).
static inline void postcard_test_move_window(Display *display, void *window, int x, int y) {
    XMoveWindow(display, gdk_x11_surface_get_xid(gtk_native_get_surface(window)), x, y);
    XSync(display, False);
}

// Presses (down = True) or releases mouse `button` at (x, y) in the GtkWindow `window`'s coordinates;
// with button 0 only moves the pointer there.
static inline void postcard_test_pointer(Display *display, void *window, int x, int y, unsigned int button, Bool down) {
    unsigned long xid = gdk_x11_surface_get_xid(gtk_native_get_surface(window));
    int root_x = 0, root_y = 0;
    Window child;
    XTranslateCoordinates(display, xid, DefaultRootWindow(display), x, y, &root_x, &root_y, &child);
    XTestFakeMotionEvent(display, -1, root_x, root_y, 0);
    if (button) XTestFakeButtonEvent(display, button, down, 0);
    XSync(display, False);
}

static inline Display *postcard_test_xdisplay(void) {
    void *display = gdk_display_get_default();
    if (!display) return NULL;
    const char *type = g_type_name_from_instance(display);
    if (!type || __builtin_strcmp(type, "GdkX11Display") != 0) return NULL;
    return gdk_x11_display_get_xdisplay(display);
}
// Opens files from this thread as user `uid` from now on (setfsuid(2)); from 0 to another id it also drops this
// thread's capabilities that override file permissions, so a test run as root meets an unreadable file as a
// user would. Returns the previous id, to set back.
static inline unsigned int postcard_test_set_file_user(unsigned int uid) { return (unsigned int)setfsuid(uid); }
#endif
