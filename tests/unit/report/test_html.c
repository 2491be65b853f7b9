/* test_html.c: the one HTML escaper (report/html.c). */
#include "check.h"
#include "html.h"

/* escaped: s (n bytes) escaped into a fresh buffer, returned for a CHECK_STR (freed at exit). */
static const char *escaped(const char *s, size_t n)
{
	static struct buf b;

	buf_release(&b);
	html_escape_n(&b, s, n);
	return b.data;
}

#define ESC(lit) escaped(lit, sizeof(lit) - 1)
#define FFFD "\xef\xbf\xbd"

void test_html_escapes_markup(void)
{
	CHECK_STR(ESC("<script>alert('x')</script>"),
		  "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	CHECK_STR(ESC("operator<<(std::ostream&, Point const&)"),
		  "operator&lt;&lt;(std::ostream&amp;, Point const&amp;)");
	CHECK_STR(ESC("a=\"b\""), "a=&quot;b&quot;");
	CHECK_STR(ESC("plain_name"), "plain_name");
	CHECK_STR(ESC(""), "");
}

void test_html_keeps_valid_utf8(void)
{
	CHECK_STR(ESC("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	CHECK_STR(ESC("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf"); /* U+10FFFF, the last code point */
}

void test_html_replaces_invalid_utf8(void)
{
	CHECK_STR(ESC("a\xff"
		      "b"),
		  "a" FFFD "b");
	CHECK_STR(ESC("\xc0\xaf"), FFFD FFFD);                   /* overlong '/' */
	CHECK_STR(ESC("\xe0\x80\xaf"), FFFD FFFD FFFD);          /* overlong, three bytes */
	CHECK_STR(ESC("\xed\xa0\x80"), FFFD FFFD FFFD);          /* a UTF-16 surrogate */
	CHECK_STR(ESC("\xf4\x90\x80\x80"), FFFD FFFD FFFD FFFD); /* past U+10FFFF */
	CHECK_STR(ESC("x\xe2\x82"), "x" FFFD FFFD);              /* cut short at the end */
	CHECK_STR(ESC("\x80<"), FFFD "&lt;");                    /* a lone continuation byte */
}

void test_html_replaces_nul(void)
{
	CHECK_STR(ESC("a\0b"), "a" FFFD "b");
}

void test_html_appends(void)
{
	struct buf b = BUF_INIT;

	buf_puts(&b, "<p>");
	html_escape(&b, "1 < 2");
	buf_puts(&b, "</p>");
	CHECK_STR(b.data, "<p>1 &lt; 2</p>");
	buf_release(&b);
}
