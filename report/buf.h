/* buf.h: a growable byte buffer, the one way the report tool builds text. */
#ifndef CALLPROF_BUF_H
#define CALLPROF_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A buffer always holds a NUL-terminated string (data may also hold NULs of
 * its own; len is authoritative).  Initialise with BUF_INIT or buf_init().
 * Out of memory is fatal: the tool prints one line and exits 2 (there is no
 * sensible way to render half a page).
 */
struct buf {
	char *data;   /* NUL-terminated contents, never NULL after buf_init */
	size_t len;   /* bytes used, excluding the terminating NUL */
	size_t alloc; /* bytes allocated for data */
};

#define BUF_INIT           \
	{                  \
		NULL, 0, 0 \
	}

/* buf_init sets up an empty buffer; buf_release frees what it holds. */
void buf_init(struct buf *b);
void buf_release(struct buf *b);

/* buf_reset empties the buffer, keeping its memory. */
void buf_reset(struct buf *b);

/* buf_grow makes room for extra more bytes. */
void buf_grow(struct buf *b, size_t extra);

/* Appending: n bytes, a C string, one byte, a printf format. */
void buf_add(struct buf *b, const void *data, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/*
 * buf_put_printable appends s for a terminal: control characters become '?',
 * and what a terminal would act on or what would reorder the line (C1
 * controls, bidirectional overrides, embeddings, isolates and marks) is
 * shown escaped, "<U+202E>".
 */
void buf_put_printable(struct buf *b, const char *s);

/* buf_detach hands the string to the caller (free() it) and empties the buffer. */
char *buf_detach(struct buf *b, size_t *len);

/* str_order returns the indices 0..n-1 of strs sorted by string, equal ones in index order (free() it). */
uint32_t *str_order(char *const *strs, size_t n);

/*
 * str_number_repeats makes strs (each from malloc) unique where they repeat:
 * the k-th of equal strings (k from 0, in index order) gets sep and k + base
 * appended, the first left as it is when keep_first.  Example: "f", "g", "f"
 * with " #", 1, keep_first: "f", "g", "f #2".
 */
void str_number_repeats(char **strs, size_t n, const char *sep, size_t base, int keep_first);

/* xmalloc and friends: allocation that cannot fail (see above). */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);

#endif
