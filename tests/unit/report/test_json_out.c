/* test_json_out.c: strings written into the site's script files (report/json_out.c). */
#include "check.h"
#include "json_out.h"

/* js: s (n bytes) as a script string, in a fresh buffer returned for a CHECK_STR. */
static const char *js(const char *s, size_t n)
{
	static struct buf b;

	buf_release(&b);
	json_out_str(&b, s, n);
	return b.data;
}

#define JS(lit) js(lit, sizeof(lit) - 1)

void test_json_out_quotes_and_controls(void)
{
	CHECK_STR(JS("plain"), "\"plain\"");
	CHECK_STR(JS(""), "\"\"");
	CHECK_STR(JS("a\"b\\c"), "\"a\\\"b\\\\c\"");
	CHECK_STR(JS("l1\nl2\tx\r"), "\"l1\\nl2\\tx\\r\"");
	CHECK_STR(JS("\x01\x1f"), "\"\\u0001\\u001f\"");
	CHECK_STR(JS("a\0b"), "\"a\\u0000b\"");
}

void test_json_out_never_closes_a_script(void)
{
	CHECK_STR(JS("</script><!--"), "\"\\u003c/script\\u003e\\u003c!--\"");
	CHECK_STR(JS("operator<<(std::ostream&, T const&)"),
		  "\"operator\\u003c\\u003c(std::ostream\\u0026, T const\\u0026)\"");
}

void test_json_out_line_separators(void)
{
	CHECK_STR(JS("a\xe2\x80\xa8"
		     "b\xe2\x80\xa9"),
		  "\"a\\u2028b\\u2029\"");
	CHECK_STR(JS("caf\xc3\xa9 \xf0\x9f\x98\x80"),
		  "\"caf\xc3\xa9 \xf0\x9f\x98\x80\""); /* kept as they are */
}

void test_json_out_invalid_utf8(void)
{
	CHECK_STR(JS("a\xff"
		     "b"),
		  "\"a\\ufffdb\"");
	CHECK_STR(JS("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\""); /* a UTF-16 surrogate */
	CHECK_STR(JS("x\xe2\x82"), "\"x\\ufffd\\ufffd\"");          /* cut short at the end */
	CHECK_STR(JS("\xc0\xbc"), "\"\\ufffd\\ufffd\"");            /* an overlong '<' */
}
