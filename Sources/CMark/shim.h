// cmark-gfm (Debian's libcmark-gfm-dev and libcmark-gfm-extensions-dev): GitHub's CommonMark
// parser, with its task lists, strikethrough and autolinks. The core reads entries' Markdown
// with it (no parser of Flourish's own); no GTK here. Linked statically, from Debian's own
// archives (Package.swift): its library's name changes with each release (Debian 12's
// libcmark-gfm0.29.0.gfm.6, Debian 13's gfm.13), and one package must install on both.
#ifndef FLOURISH_CMARK_SHIM_H
#define FLOURISH_CMARK_SHIM_H
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#endif
