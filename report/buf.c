/* buf.c: growable byte buffers and allocation that cannot fail. */
#define _GNU_SOURCE
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

/*
 * terminal_control: the code point of the control at p that a terminal would
 * act on or that would reorder the text around it (C1 controls U+0080-U+009F,
 * the bidirectional marks U+061C, U+200E, U+200F, embeddings and overrides
 * U+202A-U+202E, isolates U+2066-U+2069), with its length in *n; else 0.
 */
static unsigned terminal_control(const unsigned char *p, size_t *n)
{
	*n = p[0] == 0xe2 ? 3 : 2;
	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
		return p[1];
	if (p[0] == 0xd8 && p[1] == 0x9c)
		return 0x61c;
	if (p[0] == 0xe2 && p[1] == 0x80 &&
	    (p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xaa && p[2] <= 0xae)))
		return 0x2000 + (unsigned)(p[2] - 0x80);
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)
		return 0x2040 + (unsigned)(p[2] - 0x80);
	return 0;
}

void buf_put_printable(struct buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		size_t n;
		unsigned cp;

		if (*p < 0x20 || *p == 0x7f) {
			buf_putc(b, '?');
		} else if ((cp = terminal_control(p, &n))) {
			buf_printf(b, "<U+%04X>", cp);
			p += n - 1;
		} else {
			buf_putc(b, (char)*p);
		}
	}
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

static int cmp_str_index(const void *a, const void *b, void *ctx)
{
	char *const *strs = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(strs[x], strs[y]);

	return c ? c : x < y ? -1 : x > y;
}

uint32_t *str_order(char *const *strs, size_t n)
{
	uint32_t *idx = xmalloc((n + 1) * sizeof(*idx));

	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	qsort_r(idx, n, sizeof(*idx), cmp_str_index, (void *)strs);
	return idx;
}

void str_number_repeats(char **strs, size_t n, const char *sep, size_t base, int keep_first)
{
	uint32_t *idx = str_order(strs, n);
	struct buf b = BUF_INIT;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(strs[idx[i]], strs[idx[j]]); j++)
			;
		for (size_t k = j - i > 1 ? i + (keep_first != 0) : j; k < j; k++) {
			buf_reset(&b);
			buf_printf(&b, "%s%s%zu", strs[idx[k]], sep, k - i + base);
			free(strs[idx[k]]);
			strs[idx[k]] = buf_detach(&b, NULL);
		}
	}
	buf_release(&b);
	free(idx);
}
