// glibc's gettext (libintl.h) and setlocale, which Swift's Glibc module does not export.
// Not GTK: the core translates its own words (moods, messages) through this.
#ifndef FLOURISH_CINTL_SHIM_H
#define FLOURISH_CINTL_SHIM_H
#include <libintl.h>
#include <locale.h>
#endif
