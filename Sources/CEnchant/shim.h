// Enchant 2 (Debian's libenchant-2-dev): spelling with the dictionaries installed on the computer
// (hunspell's), through whichever of its providers has the language. GTK 4.8 has no spelling of
// its own, libspelling is not in Debian 12 and gspell is GTK 3 only. GtkKit alone uses it.
#ifndef FLOURISH_CENCHANT_SHIM_H
#define FLOURISH_CENCHANT_SHIM_H
#include <enchant.h>
#endif
