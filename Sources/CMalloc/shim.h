// glibc's malloc tuning (malloc.h: mallopt, malloc_trim), which Swift's Glibc module does not
// export. Reached only through GtkKit's ProcessMemory.
#ifndef FLOURISH_CMALLOC_SHIM_H
#define FLOURISH_CMALLOC_SHIM_H
#include <malloc.h>
#endif
