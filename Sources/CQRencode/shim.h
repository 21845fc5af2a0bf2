// libqrencode: QR codes for My Code (Debian: libqrencode-dev).
#ifndef POSTCARD_CQRENCODE_SHIM_H
#define POSTCARD_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
