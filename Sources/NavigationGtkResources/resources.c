#include <gio/gio.h>

#if defined (__ELF__) && ( __GNUC__ > 2 || (__GNUC__ == 2 && __GNUC_MINOR__ >= 6))
# define SECTION __attribute__ ((section (".gresource.navigation"), aligned (8)))
#else
# define SECTION
#endif

static const SECTION union { const guint8 data[1961]; const double alignment; void * const ptr;}  navigation_resource_data = {
  "\107\126\141\162\151\141\156\164\000\000\000\000\000\000\000\000"
  "\030\000\000\000\344\000\000\000\000\000\000\050\007\000\000\000"
  "\000\000\000\000\000\000\000\000\002\000\000\000\003\000\000\000"
  "\005\000\000\000\005\000\000\000\006\000\000\000\242\123\127\264"
  "\004\000\000\000\344\000\000\000\016\000\166\000\370\000\000\000"
  "\232\006\000\000\173\242\170\174\002\000\000\000\232\006\000\000"
  "\003\000\114\000\240\006\000\000\244\006\000\000\324\265\002\000"
  "\377\377\377\377\244\006\000\000\001\000\114\000\250\006\000\000"
  "\254\006\000\000\034\067\153\021\006\000\000\000\254\006\000\000"
  "\011\000\114\000\270\006\000\000\274\006\000\000\033\027\067\302"
  "\003\000\000\000\274\006\000\000\013\000\114\000\310\006\000\000"
  "\320\006\000\000\121\012\112\054\004\000\000\000\320\006\000\000"
  "\023\000\166\000\350\006\000\000\233\007\000\000\055\346\331\347"
  "\001\000\000\000\233\007\000\000\007\000\114\000\244\007\000\000"
  "\250\007\000\000\156\141\166\151\147\141\164\151\157\156\056\143"
  "\163\163\000\000\000\000\000\000\222\005\000\000\000\000\000\000"
  "\057\052\040\124\150\145\040\156\141\166\151\147\141\164\151\157"
  "\156\040\164\157\157\154\153\151\164\047\163\040\157\167\156\040"
  "\163\164\171\154\145\040\050\116\141\166\151\147\141\164\151\157"
  "\156\107\164\153\054\040\116\141\166\151\147\141\164\151\157\156"
  "\127\145\142\051\056\040\103\157\155\160\151\154\145\144\040\151"
  "\156\164\157\040\164\150\145\040\154\151\142\162\141\162\171\040"
  "\141\163\040\141\012\040\040\040\107\122\145\163\157\165\162\143"
  "\145\040\050\162\145\163\157\165\162\143\145\163\056\143\054\040"
  "\140\155\141\153\145\040\162\145\163\157\165\162\143\145\163\140"
  "\051\040\141\156\144\040\154\157\141\144\145\144\040\157\156\040"
  "\146\151\162\163\164\040\165\163\145\040\152\165\163\164\040\142"
  "\145\154\157\167\040\164\150\145\040\141\160\160\047\163\040\157"
  "\167\156\040\163\164\171\154\145\012\040\040\040\163\150\145\145"
  "\164\163\054\040\163\157\040\141\156\040\141\160\160\040\164\150"
  "\141\164\040\165\163\145\163\040\164\150\145\040\164\157\157\154"
  "\153\151\164\040\147\145\164\163\040\164\150\145\040\163\141\155"
  "\145\040\142\141\162\054\040\141\156\144\040\143\141\156\040\163"
  "\164\151\154\154\040\162\145\163\164\171\154\145\040\151\164\056"
  "\040\052\057\012\012\057\052\040\116\141\155\145\144\054\040\163"
  "\157\040\156\141\166\151\147\141\164\151\157\156\055\144\141\162"
  "\153\056\143\163\163\040\143\141\156\040\162\145\160\154\141\143"
  "\145\040\151\164\040\167\150\151\154\145\040\164\150\145\040\144"
  "\141\162\153\040\163\164\171\154\145\040\151\163\040\157\156\056"
  "\040\052\057\012\100\144\145\146\151\156\145\055\143\157\154\157"
  "\162\040\156\141\166\151\147\141\164\151\157\156\137\142\141\162"
  "\137\163\150\141\144\145\137\143\157\154\157\162\040\141\154\160"
  "\150\141\050\142\154\141\143\153\054\040\060\056\061\062\051\073"
  "\012\012\057\052\040\101\040\156\141\166\151\147\141\164\151\157"
  "\156\040\167\151\156\144\157\167\047\163\040\142\141\162\040\146"
  "\154\157\141\164\163\040\157\166\145\162\040\164\150\145\040\160"
  "\141\147\145\163\040\050\163\145\145\040\116\141\166\151\147\141"
  "\164\151\157\156\127\151\156\144\157\167\051\072\040\164\162\141"
  "\156\163\154\165\143\145\156\164\054\040\163\157\040\143\157\156"
  "\164\145\156\164\040\164\150\141\164\012\040\040\040\163\143\162"
  "\157\154\154\163\040\165\156\144\145\162\040\151\164\040\163\150"
  "\157\167\163\040\164\150\162\157\165\147\150\056\040\052\057\012"
  "\150\145\141\144\145\162\142\141\162\056\164\162\141\156\163\154"
  "\165\143\145\156\164\055\142\141\162\040\173\012\040\040\142\141"
  "\143\153\147\162\157\165\156\144\055\143\157\154\157\162\072\040"
  "\141\154\160\150\141\050\100\164\150\145\155\145\137\142\147\137"
  "\143\157\154\157\162\054\040\060\056\070\062\051\073\012\040\040"
  "\142\141\143\153\147\162\157\165\156\144\055\151\155\141\147\145"
  "\072\040\156\157\156\145\073\012\040\040\142\157\170\055\163\150"
  "\141\144\157\167\072\040\060\040\061\160\170\040\100\156\141\166"
  "\151\147\141\164\151\157\156\137\142\141\162\137\163\150\141\144"
  "\145\137\143\157\154\157\162\073\012\175\012\012\057\052\040\101"
  "\040\160\141\147\145\040\142\145\151\156\147\040\163\167\151\160"
  "\145\144\040\142\141\143\153\072\040\144\162\141\167\156\040\141"
  "\163\040\141\040\160\151\143\164\165\162\145\040\157\146\040\151"
  "\164\163\145\154\146\040\157\166\145\162\040\164\150\145\040\160"
  "\141\147\145\040\142\145\154\157\167\054\040\157\156\040\164\150"
  "\145\040\167\151\156\144\157\167\047\163\012\040\040\040\142\141"
  "\143\153\147\162\157\165\156\144\054\040\167\151\164\150\040\141"
  "\040\163\157\146\164\040\145\144\147\145\040\164\157\167\141\162"
  "\144\040\164\150\145\040\160\141\147\145\040\151\164\040\165\156"
  "\143\157\166\145\162\163\056\040\052\057\012\160\151\143\164\165"
  "\162\145\056\163\167\151\160\145\055\160\141\147\145\040\173\012"
  "\040\040\142\141\143\153\147\162\157\165\156\144\055\143\157\154"
  "\157\162\072\040\100\164\150\145\155\145\137\142\147\137\143\157"
  "\154\157\162\073\012\040\040\142\157\170\055\163\150\141\144\157"
  "\167\072\040\060\040\060\040\066\160\170\040\100\156\141\166\151"
  "\147\141\164\151\157\156\137\142\141\162\137\163\150\141\144\145"
  "\137\143\157\154\157\162\073\012\175\012\012\057\052\040\127\145"
  "\142\040\160\141\147\145\163\072\040\141\040\164\150\151\156\040"
  "\154\157\141\144\151\156\147\040\142\141\162\040\152\165\163\164"
  "\040\142\145\154\157\167\040\164\150\145\040\142\141\162\073\040"
  "\155\145\163\163\141\147\145\163\040\141\156\144\040\164\150\145"
  "\040\145\162\162\157\162\040\163\164\141\164\145\040\157\156\040"
  "\164\150\145\040\167\151\156\144\157\167\047\163\012\040\040\040"
  "\142\141\143\153\147\162\157\165\156\144\040\050\164\150\145\040"
  "\167\145\142\040\166\151\145\167\040\165\156\144\145\162\156\145"
  "\141\164\150\040\155\141\171\040\142\145\040\142\154\141\156\153"
  "\051\056\040\052\057\012\160\162\157\147\162\145\163\163\142\141"
  "\162\056\167\145\142\055\160\162\157\147\162\145\163\163\040\164"
  "\162\157\165\147\150\054\012\160\162\157\147\162\145\163\163\142"
  "\141\162\056\167\145\142\055\160\162\157\147\162\145\163\163\040"
  "\160\162\157\147\162\145\163\163\040\173\040\155\151\156\055\150"
  "\145\151\147\150\164\072\040\063\160\170\073\040\175\012\056\167"
  "\145\142\055\155\145\163\163\141\147\145\040\173\012\040\040\155"
  "\141\162\147\151\156\072\040\070\160\170\040\061\062\160\170\073"
  "\012\040\040\160\141\144\144\151\156\147\072\040\066\160\170\040"
  "\061\060\160\170\073\012\040\040\142\157\162\144\145\162\055\162"
  "\141\144\151\165\163\072\040\066\160\170\073\012\040\040\142\141"
  "\143\153\147\162\157\165\156\144\055\143\157\154\157\162\072\040"
  "\141\154\160\150\141\050\100\164\150\145\155\145\137\146\147\137"
  "\143\157\154\157\162\054\040\060\056\060\070\051\073\012\175\012"
  "\056\167\145\142\055\145\162\162\157\162\040\173\040\142\141\143"
  "\153\147\162\157\165\156\144\055\143\157\154\157\162\072\040\100"
  "\164\150\145\155\145\137\142\147\137\143\157\154\157\162\073\040"
  "\175\012\000\000\050\165\165\141\171\051\151\157\057\000\000\000"
  "\006\000\000\000\057\000\000\000\001\000\000\000\160\157\163\164"
  "\143\141\162\144\057\000\000\000\004\000\000\000\116\141\166\151"
  "\147\141\164\151\157\156\057\000\005\000\000\000\000\000\000\000"
  "\156\141\166\151\147\141\164\151\157\156\055\144\141\162\153\056"
  "\143\163\163\000\000\000\000\000\243\000\000\000\000\000\000\000"
  "\057\052\040\124\150\145\040\164\157\157\154\153\151\164\047\163"
  "\040\143\157\154\157\165\162\163\040\151\156\040\164\150\145\040"
  "\144\141\162\153\040\163\164\171\154\145\054\040\154\157\141\144"
  "\145\144\040\157\166\145\162\040\156\141\166\151\147\141\164\151"
  "\157\156\056\143\163\163\040\167\150\151\154\145\040\164\150\145"
  "\040\144\141\162\153\040\163\164\171\154\145\040\151\163\040\157"
  "\156\056\040\052\057\012\100\144\145\146\151\156\145\055\143\157"
  "\154\157\162\040\156\141\166\151\147\141\164\151\157\156\137\142"
  "\141\162\137\163\150\141\144\145\137\143\157\154\157\162\040\141"
  "\154\160\150\141\050\142\154\141\143\153\054\040\060\056\063\066"
  "\051\073\012\000\000\050\165\165\141\171\051\147\151\164\150\165"
  "\142\057\000\000\003\000\000\000" };

static GStaticResource static_resource = { navigation_resource_data.data, sizeof (navigation_resource_data.data) - 1 /* nul terminator */, NULL, NULL, NULL };

G_MODULE_EXPORT
GResource *navigation_get_resource (void);
GResource *navigation_get_resource (void)
{
  return g_static_resource_get_resource (&static_resource);
}
/* GLIB - Library of useful routines for C programming
 * Copyright (C) 1995-1997  Peter Mattis, Spencer Kimball and Josh MacDonald
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.	 See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with this library; if not, see <http://www.gnu.org/licenses/>.
 */

/*
 * Modified by the GLib Team and others 1997-2000.  See the AUTHORS
 * file for a list of people on the GLib Team.  See the ChangeLog
 * files for a list of changes.  These files are distributed with
 * GLib at ftp://ftp.gtk.org/pub/gtk/.
 */

#ifndef __G_CONSTRUCTOR_H__
#define __G_CONSTRUCTOR_H__

/*
  If G_HAS_CONSTRUCTORS is true then the compiler support *both* constructors and
  destructors, in a usable way, including e.g. on library unload. If not you're on
  your own.

  Some compilers need #pragma to handle this, which does not work with macros,
  so the way you need to use this is (for constructors):

  #ifdef G_DEFINE_CONSTRUCTOR_NEEDS_PRAGMA
  #pragma G_DEFINE_CONSTRUCTOR_PRAGMA_ARGS(my_constructor)
  #endif
  G_DEFINE_CONSTRUCTOR(my_constructor)
  static void my_constructor(void) {
   ...
  }

*/

#ifndef __GTK_DOC_IGNORE__

#if  __GNUC__ > 2 || (__GNUC__ == 2 && __GNUC_MINOR__ >= 7)

#define G_HAS_CONSTRUCTORS 1

#define G_DEFINE_CONSTRUCTOR(_func) static void __attribute__((constructor)) _func (void);
#define G_DEFINE_DESTRUCTOR(_func) static void __attribute__((destructor)) _func (void);

#elif defined (_MSC_VER) && (_MSC_VER >= 1500)
/* Visual studio 2008 and later has _Pragma */

/*
 * Only try to include gslist.h if not already included via glib.h,
 * so that items using gconstructor.h outside of GLib (such as
 * GResources) continue to build properly.
 */
#ifndef __G_LIB_H__
#include "gslist.h"
#endif

#include <stdlib.h>

#define G_HAS_CONSTRUCTORS 1

/* We do some weird things to avoid the constructors being optimized
 * away on VS2015 if WholeProgramOptimization is enabled. First we
 * make a reference to the array from the wrapper to make sure its
 * references. Then we use a pragma to make sure the wrapper function
 * symbol is always included at the link stage. Also, the symbols
 * need to be extern (but not dllexport), even though they are not
 * really used from another object file.
 */

/* We need to account for differences between the mangling of symbols
 * for x86 and x64/ARM/ARM64 programs, as symbols on x86 are prefixed
 * with an underscore but symbols on x64/ARM/ARM64 are not.
 */
#ifdef _M_IX86
#define G_MSVC_SYMBOL_PREFIX "_"
#else
#define G_MSVC_SYMBOL_PREFIX ""
#endif

#define G_DEFINE_CONSTRUCTOR(_func) G_MSVC_CTOR (_func, G_MSVC_SYMBOL_PREFIX)
#define G_DEFINE_DESTRUCTOR(_func) G_MSVC_DTOR (_func, G_MSVC_SYMBOL_PREFIX)

#define G_MSVC_CTOR(_func,_sym_prefix) \
  static void _func(void); \
  extern int (* _array ## _func)(void);              \
  int _func ## _wrapper(void) { _func(); g_slist_find (NULL,  _array ## _func); return 0; } \
  __pragma(comment(linker,"/include:" _sym_prefix # _func "_wrapper")) \
  __pragma(section(".CRT$XCU",read)) \
  __declspec(allocate(".CRT$XCU")) int (* _array ## _func)(void) = _func ## _wrapper;

#define G_MSVC_DTOR(_func,_sym_prefix) \
  static void _func(void); \
  extern int (* _array ## _func)(void);              \
  int _func ## _constructor(void) { atexit (_func); g_slist_find (NULL,  _array ## _func); return 0; } \
   __pragma(comment(linker,"/include:" _sym_prefix # _func "_constructor")) \
  __pragma(section(".CRT$XCU",read)) \
  __declspec(allocate(".CRT$XCU")) int (* _array ## _func)(void) = _func ## _constructor;

#elif defined (_MSC_VER)

#define G_HAS_CONSTRUCTORS 1

/* Pre Visual studio 2008 must use #pragma section */
#define G_DEFINE_CONSTRUCTOR_NEEDS_PRAGMA 1
#define G_DEFINE_DESTRUCTOR_NEEDS_PRAGMA 1

#define G_DEFINE_CONSTRUCTOR_PRAGMA_ARGS(_func) \
  section(".CRT$XCU",read)
#define G_DEFINE_CONSTRUCTOR(_func) \
  static void _func(void); \
  static int _func ## _wrapper(void) { _func(); return 0; } \
  __declspec(allocate(".CRT$XCU")) static int (*p)(void) = _func ## _wrapper;

#define G_DEFINE_DESTRUCTOR_PRAGMA_ARGS(_func) \
  section(".CRT$XCU",read)
#define G_DEFINE_DESTRUCTOR(_func) \
  static void _func(void); \
  static int _func ## _constructor(void) { atexit (_func); return 0; } \
  __declspec(allocate(".CRT$XCU")) static int (* _array ## _func)(void) = _func ## _constructor;

#elif defined(__SUNPRO_C)

/* This is not tested, but i believe it should work, based on:
 * http://opensource.apple.com/source/OpenSSL098/OpenSSL098-35/src/fips/fips_premain.c
 */

#define G_HAS_CONSTRUCTORS 1

#define G_DEFINE_CONSTRUCTOR_NEEDS_PRAGMA 1
#define G_DEFINE_DESTRUCTOR_NEEDS_PRAGMA 1

#define G_DEFINE_CONSTRUCTOR_PRAGMA_ARGS(_func) \
  init(_func)
#define G_DEFINE_CONSTRUCTOR(_func) \
  static void _func(void);

#define G_DEFINE_DESTRUCTOR_PRAGMA_ARGS(_func) \
  fini(_func)
#define G_DEFINE_DESTRUCTOR(_func) \
  static void _func(void);

#else

/* constructors not supported for this compiler */

#endif

#endif /* __GTK_DOC_IGNORE__ */
#endif /* __G_CONSTRUCTOR_H__ */

#ifdef G_HAS_CONSTRUCTORS

#ifdef G_DEFINE_CONSTRUCTOR_NEEDS_PRAGMA
#pragma G_DEFINE_CONSTRUCTOR_PRAGMA_ARGS(navigationresource_constructor)
#endif
G_DEFINE_CONSTRUCTOR(navigationresource_constructor)
#ifdef G_DEFINE_DESTRUCTOR_NEEDS_PRAGMA
#pragma G_DEFINE_DESTRUCTOR_PRAGMA_ARGS(navigationresource_destructor)
#endif
G_DEFINE_DESTRUCTOR(navigationresource_destructor)

#else
#warning "Constructor not supported on this compiler, linking in resources will not work"
#endif

static void navigationresource_constructor (void)
{
  g_static_resource_init (&static_resource);
}

static void navigationresource_destructor (void)
{
  g_static_resource_fini (&static_resource);
}
