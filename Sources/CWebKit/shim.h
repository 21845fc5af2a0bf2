// WebKitGTK 6.0 (the GTK 4 API; Debian libwebkitgtk-6.0-dev) for NavigationWeb, opened on first use.
//
// WebKitGTK and JavaScriptCore take longer to load than GTK itself (about 80 ms on the machines the toolkit
// is measured on), so linking them would slow every start of an app that may never show a web page.
// This header declares the few types, values and functions NavigationWeb uses (as WebKitGTK 6.0's
// headers define them) and navgtk_webkit_open() loads the library with dlopen and fills a table of
// its functions. Nothing here links WebKitGTK.
#ifndef NAVGTK_CWEBKIT_SHIM_H
#define NAVGTK_CWEBKIT_SHIM_H
#include <dlfcn.h>
#include <gio/gio.h>
#include <gtk/gtk.h>

typedef struct _WebKitWebView WebKitWebView;
typedef struct _WebKitPolicyDecision WebKitPolicyDecision;
typedef struct _WebKitNavigationPolicyDecision WebKitNavigationPolicyDecision;
typedef struct _WebKitNavigationAction WebKitNavigationAction;
typedef struct _WebKitURIRequest WebKitURIRequest;
typedef struct _WebKitUserContentManager WebKitUserContentManager;
typedef struct _WebKitUserStyleSheet WebKitUserStyleSheet;
typedef struct _JSCValue JSCValue;
typedef struct _WebKitWebContext WebKitWebContext;
typedef struct _WebKitMemoryPressureSettings WebKitMemoryPressureSettings;
typedef struct _WebKitResponsePolicyDecision WebKitResponsePolicyDecision;
typedef struct _WebKitURIResponse WebKitURIResponse;
typedef struct _WebKitNetworkSession WebKitNetworkSession;
typedef struct _WebKitDownload WebKitDownload;
typedef struct _SoupMessageHeaders SoupMessageHeaders;  // libsoup 3, which WebKitGTK 6.0 links

// Values of WebKitGTK 6.0's enums (WebKitWebView.h, WebKitError.h, WebKitUserContent.h).
enum {
    NAVGTK_WEBKIT_LOAD_STARTED = 0,
    NAVGTK_WEBKIT_LOAD_REDIRECTED = 1,
    NAVGTK_WEBKIT_LOAD_COMMITTED = 2,
    NAVGTK_WEBKIT_LOAD_FINISHED = 3,
    NAVGTK_WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION = 0,
    NAVGTK_WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION = 1,
    NAVGTK_WEBKIT_POLICY_DECISION_TYPE_RESPONSE = 2,
    NAVGTK_WEBKIT_WEB_PROCESS_CRASHED = 0,
    NAVGTK_WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT = 1,
    NAVGTK_WEBKIT_WEB_PROCESS_TERMINATED_BY_API = 2,
    NAVGTK_WEBKIT_NETWORK_ERROR_CANCELLED = 302,
    NAVGTK_WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE = 102,
    NAVGTK_WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES = 0,
    NAVGTK_WEBKIT_USER_STYLE_LEVEL_USER = 0,
};

// The functions NavigationWeb calls, with WebKitGTK 6.0's signatures.
typedef struct {
    GtkWidget *(*web_view_new)(void);
    void (*web_view_load_uri)(WebKitWebView *, const char *);
    const char *(*web_view_get_uri)(WebKitWebView *);
    const char *(*web_view_get_title)(WebKitWebView *);
    double (*web_view_get_estimated_load_progress)(WebKitWebView *);
    WebKitUserContentManager *(*web_view_get_user_content_manager)(WebKitWebView *);
    void (*web_view_terminate_web_process)(WebKitWebView *);
    void (*web_view_evaluate_javascript)(WebKitWebView *, const char *, gssize, const char *, const char *,
                                         GCancellable *, GAsyncReadyCallback, gpointer);
    JSCValue *(*web_view_evaluate_javascript_finish)(WebKitWebView *, GAsyncResult *, GError **);
    WebKitNavigationAction *(*navigation_policy_decision_get_navigation_action)(WebKitNavigationPolicyDecision *);
    WebKitURIRequest *(*navigation_action_get_request)(WebKitNavigationAction *);
    gboolean (*navigation_action_is_user_gesture)(WebKitNavigationAction *);
    const char *(*uri_request_get_uri)(WebKitURIRequest *);
    void (*policy_decision_use)(WebKitPolicyDecision *);
    void (*policy_decision_ignore)(WebKitPolicyDecision *);
    GQuark (*network_error_quark)(void);
    GQuark (*policy_error_quark)(void);
    WebKitUserStyleSheet *(*user_style_sheet_new)(const char *, int, int, const char *const *, const char *const *);
    void (*user_style_sheet_unref)(WebKitUserStyleSheet *);
    void (*user_content_manager_add_style_sheet)(WebKitUserContentManager *, WebKitUserStyleSheet *);
    void (*user_content_manager_remove_all_style_sheets)(WebKitUserContentManager *);
    char *(*jsc_value_to_json)(JSCValue *, unsigned);
    GType (*web_view_get_type)(void);
    GType (*web_context_get_type)(void);
    WebKitMemoryPressureSettings *(*memory_pressure_settings_new)(void);
    void (*memory_pressure_settings_free)(WebKitMemoryPressureSettings *);
    void (*memory_pressure_settings_set_memory_limit)(WebKitMemoryPressureSettings *, guint);
    void (*memory_pressure_settings_set_kill_threshold)(WebKitMemoryPressureSettings *, gdouble);
    void (*memory_pressure_settings_set_poll_interval)(WebKitMemoryPressureSettings *, gdouble);
    gboolean (*response_policy_decision_is_mime_type_supported)(WebKitResponsePolicyDecision *);
    WebKitURIResponse *(*response_policy_decision_get_response)(WebKitResponsePolicyDecision *);
    WebKitURIRequest *(*response_policy_decision_get_request)(WebKitResponsePolicyDecision *);
    SoupMessageHeaders *(*uri_response_get_http_headers)(WebKitURIResponse *);
    gboolean (*soup_message_headers_get_content_disposition)(SoupMessageHeaders *, char **, GHashTable **);
    WebKitNetworkSession *(*network_session_get_default)(void);
    void (*download_cancel)(WebKitDownload *);
    WebKitURIRequest *(*download_get_request)(WebKitDownload *);
} WebKitFunctions;

// Opens WebKitGTK 6.0 (the shared library `name`, "libwebkitgtk-6.0.so.4") and fills `table`. Returns
// NULL, or what went wrong (the library or a function missing). From the main thread.
static inline const char *navgtk_webkit_open(const char *name, WebKitFunctions *table) {
    void *library = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (library == NULL) return dlerror();
#define NAVGTK_LOAD(field, symbol) \
    if ((*(void **)&table->field = dlsym(library, symbol)) == NULL) return "WebKitGTK lacks " symbol;
    NAVGTK_LOAD(web_view_new, "webkit_web_view_new")
    NAVGTK_LOAD(web_view_load_uri, "webkit_web_view_load_uri")
    NAVGTK_LOAD(web_view_get_uri, "webkit_web_view_get_uri")
    NAVGTK_LOAD(web_view_get_title, "webkit_web_view_get_title")
    NAVGTK_LOAD(web_view_get_estimated_load_progress, "webkit_web_view_get_estimated_load_progress")
    NAVGTK_LOAD(web_view_get_user_content_manager, "webkit_web_view_get_user_content_manager")
    NAVGTK_LOAD(web_view_terminate_web_process, "webkit_web_view_terminate_web_process")
    NAVGTK_LOAD(web_view_evaluate_javascript, "webkit_web_view_evaluate_javascript")
    NAVGTK_LOAD(web_view_evaluate_javascript_finish, "webkit_web_view_evaluate_javascript_finish")
    NAVGTK_LOAD(navigation_policy_decision_get_navigation_action, "webkit_navigation_policy_decision_get_navigation_action")
    NAVGTK_LOAD(navigation_action_get_request, "webkit_navigation_action_get_request")
    NAVGTK_LOAD(navigation_action_is_user_gesture, "webkit_navigation_action_is_user_gesture")
    NAVGTK_LOAD(uri_request_get_uri, "webkit_uri_request_get_uri")
    NAVGTK_LOAD(policy_decision_use, "webkit_policy_decision_use")
    NAVGTK_LOAD(policy_decision_ignore, "webkit_policy_decision_ignore")
    NAVGTK_LOAD(network_error_quark, "webkit_network_error_quark")
    NAVGTK_LOAD(policy_error_quark, "webkit_policy_error_quark")
    NAVGTK_LOAD(user_style_sheet_new, "webkit_user_style_sheet_new")
    NAVGTK_LOAD(user_style_sheet_unref, "webkit_user_style_sheet_unref")
    NAVGTK_LOAD(user_content_manager_add_style_sheet, "webkit_user_content_manager_add_style_sheet")
    NAVGTK_LOAD(user_content_manager_remove_all_style_sheets, "webkit_user_content_manager_remove_all_style_sheets")
    NAVGTK_LOAD(jsc_value_to_json, "jsc_value_to_json")
    NAVGTK_LOAD(web_view_get_type, "webkit_web_view_get_type")
    NAVGTK_LOAD(web_context_get_type, "webkit_web_context_get_type")
    NAVGTK_LOAD(memory_pressure_settings_new, "webkit_memory_pressure_settings_new")
    NAVGTK_LOAD(memory_pressure_settings_free, "webkit_memory_pressure_settings_free")
    NAVGTK_LOAD(memory_pressure_settings_set_memory_limit, "webkit_memory_pressure_settings_set_memory_limit")
    NAVGTK_LOAD(memory_pressure_settings_set_kill_threshold, "webkit_memory_pressure_settings_set_kill_threshold")
    NAVGTK_LOAD(memory_pressure_settings_set_poll_interval, "webkit_memory_pressure_settings_set_poll_interval")
    NAVGTK_LOAD(response_policy_decision_is_mime_type_supported, "webkit_response_policy_decision_is_mime_type_supported")
    NAVGTK_LOAD(response_policy_decision_get_response, "webkit_response_policy_decision_get_response")
    NAVGTK_LOAD(response_policy_decision_get_request, "webkit_response_policy_decision_get_request")
    NAVGTK_LOAD(uri_response_get_http_headers, "webkit_uri_response_get_http_headers")
    NAVGTK_LOAD(soup_message_headers_get_content_disposition, "soup_message_headers_get_content_disposition")
    NAVGTK_LOAD(network_session_get_default, "webkit_network_session_get_default")
    NAVGTK_LOAD(download_cancel, "webkit_download_cancel")
    NAVGTK_LOAD(download_get_request, "webkit_download_get_request")
#undef NAVGTK_LOAD
    return NULL;
}

// A WebKitWebContext whose web processes WebKit ends once they use more than `limit_mb` megabytes
// (memory-pressure settings: that limit, a kill threshold of 1, measured every `poll_seconds`). WebKit
// applies the settings only while its memory-pressure handler runs (WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR
// unset). Transfer full.
static inline WebKitWebContext *navgtk_webkit_context_new(const WebKitFunctions *table, guint limit_mb, double poll_seconds) {
    WebKitMemoryPressureSettings *settings = table->memory_pressure_settings_new();
    table->memory_pressure_settings_set_memory_limit(settings, limit_mb);
    table->memory_pressure_settings_set_kill_threshold(settings, 1.0);  // above the strict threshold (0.5)
    table->memory_pressure_settings_set_poll_interval(settings, poll_seconds);
    WebKitWebContext *context = (WebKitWebContext *)g_object_new(table->web_context_get_type(),
                                                                 "memory-pressure-settings", settings, NULL);
    table->memory_pressure_settings_free(settings);  // copied by the context
    return context;
}

// A WebKitWebView of `context` (and the default network session), floating as webkit_web_view_new's.
static inline GtkWidget *navgtk_webkit_view_new(const WebKitFunctions *table, WebKitWebContext *context) {
    return (GtkWidget *)g_object_new(table->web_view_get_type(), "web-context", context, NULL);
}

// The default network session's handler of download-started: a page never starts a download (a web
// page in an app is not a browser). Cancelled before a destination is chosen, so nothing is written.
static inline void navgtk_webkit_cancel_download(gpointer session, WebKitDownload *download, gpointer data) {
    const WebKitFunctions *table = (const WebKitFunctions *)data;
    WebKitURIRequest *request = table->download_get_request(download);
    const char *uri = request != NULL ? table->uri_request_get_uri(request) : NULL;
    g_log("NavigationGtk", G_LOG_LEVEL_INFO, "A download was refused: %s", uri != NULL ? uri : "(unknown)");
    table->download_cancel(download);
    (void)session;
}

// Cancels every download of the default network session from now on; `table` must live as long as the
// process. Once per process, from the main thread.
static inline void navgtk_webkit_refuse_downloads(const WebKitFunctions *table) {
    g_signal_connect(table->network_session_get_default(), "download-started",
                     G_CALLBACK(navgtk_webkit_cancel_download), (gpointer)table);
}
#endif
