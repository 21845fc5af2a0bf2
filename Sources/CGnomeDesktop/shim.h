// The freedesktop thumbnail cache through libgnome-desktop-4's GnomeDesktopThumbnailFactory (the one
// Files and Image Viewer use). Its API is marked unstable; this define is how GNOME apps opt in.
#ifndef POSTCARD_CGNOMEDESKTOP_SHIM_H
#define POSTCARD_CGNOMEDESKTOP_SHIM_H
#define GNOME_DESKTOP_USE_UNSTABLE_API
#include <libgnome-desktop/gnome-desktop-thumbnail.h>
#endif
