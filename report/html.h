/* html.h: the one HTML escaper; every string that came from a dump goes through it. */
#ifndef CALLPROF_HTML_H
#define CALLPROF_HTML_H

#include "buf.h"

/*
 * html_escape appends s to out with & < > " ' replaced by entities, so the
 * result is safe both as element text and inside a double- or single-quoted
 * attribute value (C++ names are full of <, > and &).  Bytes that are not
 * valid UTF-8 become U+FFFD, so a garbled symbol cannot break the page's
 * encoding.  html_escape_n does the same for n bytes.
 */
void html_escape(struct buf *out, const char *s);
void html_escape_n(struct buf *out, const char *s, size_t n);

/* utf8_valid_len: the length of the valid UTF-8 sequence at s (n > 0 bytes left), 0 if invalid. */
size_t utf8_valid_len(const unsigned char *s, size_t n);

#endif
