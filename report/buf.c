/* buf.c: growable byte buffers and allocation that cannot fail. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* The empty string every fresh buffer points at, so data is never NULL. */
static char buf_empty[1];

static void die_oom(void)
{
	fputs("callprof: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		die_oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die_oom();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die_oom();
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		die_oom();
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

void buf_init(struct buf *b)
{
	b->data = buf_empty;
	b->len = 0;
	b->alloc = 0;
}

void buf_release(struct buf *b)
{
	if (b->alloc)
		free(b->data);
	buf_init(b);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->alloc)
		b->data[0] = '\0';
}

void buf_grow(struct buf *b, size_t extra)
{
	size_t want;

	if (!b->alloc)
		b->data = NULL;
	if (b->len + extra + 1 <= b->alloc)
		return;
	if (extra > SIZE_MAX / 2 - b->len)
		die_oom();
	want = b->alloc ? b->alloc : 64;
	while (want < b->len + extra + 1)
		want *= 2;
	b->data = xrealloc(b->data, want);
	if (!b->alloc)
		b->data[0] = '\0';
	b->alloc = want;
}

void buf_add(struct buf *b, const void *data, size_t n)
{
	buf_grow(b, n);
	if (!n)
		return;
	memcpy(b->data + b->len, data, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_putc(struct buf *b, char c)
{
	buf_grow(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	buf_grow(b, 64);
	va_copy(again, ap);
	n = vsnprintf(b->data + b->len, b->alloc - b->len, fmt, ap);
	if (n >= 0 && (size_t)n >= b->alloc - b->len) {
		buf_grow(b, (size_t)n);
		vsnprintf(b->data + b->len, b->alloc - b->len, fmt, again);
	}
	va_end(again);
	if (n >= 0)
		b->len += (size_t)n;
	else
		b->data[b->len] = '\0';
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_put_printable(struct buf *b, const char *s)
{
	for (; *s; s++)
		buf_putc(b, (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

char *buf_detach(struct buf *b, size_t *len)
{
	char *s;

	if (!b->alloc)
		buf_grow(b, 0);
	s = b->data;
	if (len)
		*len = b->len;
	buf_init(b);
	return s;
}
