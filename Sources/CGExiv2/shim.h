// EXIF metadata through gexiv2 (the GObject wrapper of exiv2 that Shotwell uses).
#ifndef POSTCARD_CGEXIV2_SHIM_H
#define POSTCARD_CGEXIV2_SHIM_H
#include <gexiv2/gexiv2.h>
#endif
