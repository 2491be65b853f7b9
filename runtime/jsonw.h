/* jsonw.h: a small streaming JSON writer for the dump (no DOM: trees can have millions of nodes). */
#ifndef CALLPROF_JSONW_H
#define CALLPROF_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH 32

struct jsonw {
	FILE *f;
	int depth;
	bool first[JSONW_MAX_DEPTH]; /* nothing written yet at this level: no comma due */
	bool after_key;              /* a key was written: the value needs no comma */
	bool pretty;                 /* newlines between top-level members */
};

/* Starts writing to `f`; the caller closes it and checks ferror(). */
void jsonw_init(struct jsonw *w, FILE *f);

void jsonw_object_begin(struct jsonw *w);
void jsonw_object_end(struct jsonw *w);
void jsonw_array_begin(struct jsonw *w);
void jsonw_array_end(struct jsonw *w);
/* A member name; the next call writes its value. */
void jsonw_key(struct jsonw *w, const char *key);
/* A string, escaped; NULL writes null.  Invalid UTF-8 bytes become U+FFFD. */
void jsonw_string(struct jsonw *w, const char *s);
void jsonw_uint(struct jsonw *w, uint64_t v);
void jsonw_int(struct jsonw *w, int64_t v);
/* A finite number with up to 4 decimals; NaN and infinities become null. */
void jsonw_double(struct jsonw *w, double v);
void jsonw_bool(struct jsonw *w, bool v);
void jsonw_null(struct jsonw *w);

#endif
