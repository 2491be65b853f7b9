/* json_out.h: strings written into JSON and JavaScript files the site loads as scripts. */
#ifndef CALLPROF_JSON_OUT_H
#define CALLPROF_JSON_OUT_H

#include <stddef.h>

#include "buf.h"

/*
 * json_out_str appends the n bytes of s to out as a double-quoted JSON string
 * that is also a safe JavaScript string literal anywhere a script may hold
 * it: quote, backslash and control characters escaped, < > & as \u003c
 * \u003e \u0026 (so "</script>" or "<!--" never ends or opens anything),
 * U+2028 and U+2029 as \u2028 \u2029 (line terminators in older JavaScript),
 * and bytes that are not valid UTF-8 as \ufffd.  A NUL byte becomes \u0000.
 */
void json_out_str(struct buf *out, const char *s, size_t n);

#endif
