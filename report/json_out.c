/* json_out.c: JSON string literals that are safe inside scripts (see json_out.h). */
#include "json_out.h"

/* utf8_seq: the code point of the valid UTF-8 sequence at s (n bytes left) in *cp and its
 * length, or 0 when the bytes there are not valid UTF-8. */
static size_t utf8_seq(const unsigned char *s, size_t n, unsigned *cp)
{
	size_t len;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, *cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, *cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, *cp = s[0] & 0x07u;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3fu);
	}
	/* Overlong forms, surrogates and code points past U+10FFFF. */
	if ((len == 3 && *cp < 0x800) || (len == 4 && *cp < 0x10000) || *cp > 0x10ffff ||
	    (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

/* escape: the escape sequence for code point cp, or NULL when it goes out as it is. */
static const char *escape(unsigned cp, char tmp[8])
{
	static const char hex[] = "0123456789abcdef";

	switch (cp) {
	case '"': return "\\\"";
	case '\\': return "\\\\";
	case '\n': return "\\n";
	case '\t': return "\\t";
	case '\r': return "\\r";
	default: break;
	}
	if (cp >= 0x20 && cp != '<' && cp != '>' && cp != '&' && cp != 0x2028 && cp != 0x2029)
		return NULL;
	tmp[0] = '\\', tmp[1] = 'u';
	tmp[2] = hex[(cp >> 12) & 0xf], tmp[3] = hex[(cp >> 8) & 0xf];
	tmp[4] = hex[(cp >> 4) & 0xf], tmp[5] = hex[cp & 0xf], tmp[6] = '\0';
	return tmp;
}

void json_out_str(struct buf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;
	char tmp[8];

	buf_grow(out, n + 2);
	buf_putc(out, '"');
	while (i < n) {
		unsigned cp;
		size_t k = utf8_seq(p + i, n - i, &cp);
		const char *esc = k ? escape(cp, tmp) : "\\ufffd";

		if (!esc) {
			i += k;
			continue;
		}
		buf_add(out, s + run, i - run);
		buf_puts(out, esc);
		i += k ? k : 1;
		run = i;
	}
	buf_add(out, s + run, i - run);
	buf_putc(out, '"');
}
