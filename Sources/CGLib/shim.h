// C helpers for the Swift `GLib` layer (files, paths, dates, logging, translations: GLib and GIO without
// GTK): things Swift cannot import directly from GLib's headers (variadic functions). Nothing else
// belongs here.
#ifndef NAVGTK_CGLIB_SHIM_H
#define NAVGTK_CGLIB_SHIM_H

#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <libintl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/prctl.h>

// Whether the calling thread is the process's main thread (on Linux its thread id is the process id),
// where GTK and every main-actor handler run. Asked on every signal emission and every isolation check
// (a wrapper's isolated deinit), so each thread finds out once (two system calls) and then reads its
// own thread-local answer.
static inline gboolean navgtk_is_main_thread(void) {
    static __thread int known = 0;  // 1: the main thread, 2: another
    if (known == 0) known = syscall(SYS_gettid) == getpid() ? 1 : 2;
    return known == 1;
}

// prctl is variadic: names the calling thread (Linux keeps 15 bytes), as `top -H` and /proc show it.
static inline void navgtk_name_current_thread(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

// g_critical is a variadic macro: log one preformatted critical in `domain` through the classic g_log,
// which GLib's g_test_expect_message sees (the structured API bypasses it).
static inline void navgtk_log_critical(const char *domain, const char *message) {
    g_log(domain, G_LOG_LEVEL_CRITICAL, "%s", message);
}

#endif
