// The app's compiled-in resources (Resources/postcard.gresource.xml, generated into resources.c by
// `make resources` with glib-compile-resources). Registered when the program loads.
#ifndef POSTCARD_RESOURCES_H
#define POSTCARD_RESOURCES_H
#include <gio/gio.h>
GResource *postcard_get_resource(void);
#endif
