// WebKitGTK 6.0 (the GTK 4 API) for web pages: Debian libwebkitgtk-6.0-dev.
#ifndef POSTCARD_CWEBKIT_SHIM_H
#define POSTCARD_CWEBKIT_SHIM_H
#include <webkit/webkit.h>
#endif
