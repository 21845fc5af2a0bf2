// The navigation toolkit's compiled-in style (navigation.gresource.xml, generated into resources.c by
// `make resources` with glib-compile-resources). Registered when the library loads.
#ifndef NAVIGATION_GTK_RESOURCES_H
#define NAVIGATION_GTK_RESOURCES_H
#include <gio/gio.h>
GResource *navigation_get_resource(void);
#endif
