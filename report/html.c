/* html.c: HTML escaping with UTF-8 validation. */
#include <string.h>

#include "html.h"

size_t utf8_valid_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07u;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3fu);
	}
	/* Overlong forms, surrogates and code points past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void html_escape_n(struct buf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0, k;

	buf_grow(out, n);
	while (i < n) {
		const char *ent = NULL;

		switch (p[i]) {
		case '&': ent = "&amp;"; break;
		case '<': ent = "&lt;"; break;
		case '>': ent = "&gt;"; break;
		case '"': ent = "&quot;"; break;
		case '\'': ent = "&#39;"; break;
		case '\0': ent = "\xef\xbf\xbd"; break;
		default: break;
		}
		if (ent) {
			buf_add(out, s + run, i - run);
			buf_puts(out, ent);
			run = ++i;
			continue;
		}
		k = utf8_valid_len(p + i, n - i);
		if (k == 0) {
			buf_add(out, s + run, i - run);
			buf_puts(out, "\xef\xbf\xbd");
			run = ++i;
			continue;
		}
		i += k;
	}
	buf_add(out, s + run, i - run);
}

void html_escape(struct buf *out, const char *s)
{
	html_escape_n(out, s, strlen(s));
}
