// sqlite3 for Swift. SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import; expose it as a function.
#ifndef POSTCARD_CSQLITE_SHIM_H
#define POSTCARD_CSQLITE_SHIM_H
#include <sqlite3.h>
static inline sqlite3_destructor_type postcard_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
