/* jsonw.c: the streaming JSON writer. */
#include "jsonw.h"

#include <inttypes.h>
#include <math.h>

void jsonw_init(struct jsonw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->first[0] = true;
	w->after_key = false;
	w->pretty = true;
}

/* The separator before a value or key at the current level. */
static void value_sep(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->first[w->depth])
		putc_unlocked(',', w->f);
	if (w->pretty && w->depth == 1)
		putc_unlocked('\n', w->f);
	w->first[w->depth] = false;
}

static void open_level(struct jsonw *w, int c)
{
	value_sep(w);
	putc_unlocked(c, w->f);
	if (w->depth < JSONW_MAX_DEPTH - 1)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_level(struct jsonw *w, int c)
{
	if (w->depth > 0)
		w->depth--;
	if (w->pretty && w->depth == 0)
		putc_unlocked('\n', w->f);
	putc_unlocked(c, w->f);
}

void jsonw_object_begin(struct jsonw *w)
{
	open_level(w, '{');
}
void jsonw_object_end(struct jsonw *w)
{
	close_level(w, '}');
}
void jsonw_array_begin(struct jsonw *w)
{
	open_level(w, '[');
}
void jsonw_array_end(struct jsonw *w)
{
	close_level(w, ']');
}

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4;
	else
		return 0;
	cp = s[0] & (0x7Fu >> n);
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

static void write_escaped(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putc_unlocked('"', f);
	while (*s) {
		int n = utf8_len(s);
		if (n == 0) {
			fputs("\\ufffd", f);
			s++;
		} else if (*s == '"' || *s == '\\') {
			putc_unlocked('\\', f);
			putc_unlocked(*s++, f);
		} else if (*s < 0x20 || *s == 0x7F) {
			fprintf(f, "\\u%04x", *s++);
		} else {
			fwrite_unlocked(s, 1, (size_t)n, f);
			s += n;
		}
	}
	putc_unlocked('"', f);
}

void jsonw_key(struct jsonw *w, const char *key)
{
	value_sep(w);
	write_escaped(w->f, key);
	putc_unlocked(':', w->f);
	w->after_key = true;
}

void jsonw_string(struct jsonw *w, const char *s)
{
	if (!s) {
		jsonw_null(w);
		return;
	}
	value_sep(w);
	write_escaped(w->f, s);
}

/* Decimal digits by hand: a million-node tree writes ten million numbers. */
static void put_u64(FILE *f, uint64_t v)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite_unlocked(buf + i, 1, sizeof(buf) - i, f);
}

void jsonw_uint(struct jsonw *w, uint64_t v)
{
	value_sep(w);
	put_u64(w->f, v);
}

void jsonw_int(struct jsonw *w, int64_t v)
{
	value_sep(w);
	fprintf(w->f, "%" PRId64, v);
}

void jsonw_double(struct jsonw *w, double v)
{
	if (!isfinite(v)) {
		jsonw_null(w);
		return;
	}
	value_sep(w);
	fprintf(w->f, "%.4f", v);
}

void jsonw_bool(struct jsonw *w, bool v)
{
	value_sep(w);
	fputs(v ? "true" : "false", w->f);
}

void jsonw_null(struct jsonw *w)
{
	value_sep(w);
	fputs("null", w->f);
}
