/* test_buf.c: the byte buffer every piece of text is built in (report/buf.c). */
#include <stdlib.h>

#include "buf.h"
#include "check.h"

void test_buf_starts_empty(void)
{
	struct buf a = BUF_INIT, b;

	buf_init(&b);
	CHECK_STR(b.data, "");
	CHECK_EQ_U64(b.len, 0);
	buf_putc(&a, 'x'); /* BUF_INIT works without buf_init */
	CHECK_STR(a.data, "x");
	buf_release(&a);
	CHECK_STR(a.data, ""); /* released: empty again, not NULL */
	buf_release(&b);
}

void test_buf_appends(void)
{
	struct buf b = BUF_INIT;

	buf_puts(&b, "ab");
	buf_putc(&b, 'c');
	buf_add(&b, "def", 2);
	buf_add(&b, "", 0);
	buf_printf(&b, "-%d-%s", 42, "x");
	CHECK_STR(b.data, "abcde-42-x");
	CHECK_EQ_U64(b.len, 10);
	buf_release(&b);
}

void test_buf_printf_grows(void)
{
	struct buf b = BUF_INIT;
	char big[5000];

	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	buf_puts(&b, "<");
	buf_printf(&b, "%s>%zu", big, sizeof(big));
	CHECK_EQ_U64(b.len, 1 + 4999 + 1 + 4);
	CHECK(b.data[0] == '<' && b.data[1] == 'q' && b.data[4999] == 'q' && b.data[5000] == '>');
	CHECK_STR(b.data + 5001, "5000");
	CHECK(b.alloc > b.len);
	buf_release(&b);
}

void test_buf_keeps_nul_bytes(void)
{
	struct buf b = BUF_INIT;

	buf_add(&b, "a\0b", 3);
	CHECK_EQ_U64(b.len, 3);
	CHECK(!memcmp(b.data, "a\0b", 4)); /* and still terminated */
	buf_release(&b);
}

void test_buf_reset_keeps_memory(void)
{
	struct buf b = BUF_INIT;
	char *before;

	buf_puts(&b, "something long enough");
	before = b.data;
	buf_reset(&b);
	CHECK_STR(b.data, "");
	CHECK_EQ_U64(b.len, 0);
	CHECK_EQ_PTR(b.data, before);
	buf_puts(&b, "again");
	CHECK_STR(b.data, "again");
	buf_release(&b);
}

void test_buf_detach_hands_over(void)
{
	struct buf b = BUF_INIT, empty = BUF_INIT;
	size_t len = 99;
	char *s;

	buf_puts(&b, "mine");
	s = buf_detach(&b, &len);
	CHECK_STR(s, "mine");
	CHECK_EQ_U64(len, 4);
	CHECK_STR(b.data, "");
	CHECK_EQ_U64(b.len, 0);
	free(s);
	s = buf_detach(&empty, NULL); /* an empty buffer still hands over a string to free */
	CHECK_STR(s, "");
	free(s);
	buf_release(&b);
}

void test_buf_put_printable(void)
{
	struct buf b = BUF_INIT;

	buf_put_printable(&b, "a\nb\033[31m\x7f\xc3\xa9");
	CHECK_STR(b.data, "a?b?[31m?\xc3\xa9"); /* control characters only: UTF-8 stays */
	buf_reset(&b);
	/* Bidirectional overrides, isolates and marks, and C1 controls (CSI), shown escaped. */
	buf_put_printable(&b, "x\xe2\x80\xaey\xe2\x81\xa6z\xe2\x81\xa9\xe2\x80\x8f\xc2\x9b"
			      "1m\xd8\x9c\xe2\x80\x94");
	CHECK_STR(b.data, "x<U+202E>y<U+2066>z<U+2069><U+200F><U+009B>1m<U+061C>\xe2\x80\x94");
	buf_reset(&b);
	buf_put_printable(
		&b, "\xe2\x80\xaa\xe2\x80\xad\xe2\x81\xa7\xe2"); /* and a sequence cut short */
	CHECK_STR(b.data, "<U+202A><U+202D><U+2067>\xe2");
	buf_release(&b);
}

void test_str_number_repeats(void)
{
	char *s[4] = { xstrdup("f"), xstrdup("g"), xstrdup("f"), xstrdup("f") };
	uint32_t *idx = str_order(s, 4);

	CHECK(idx[0] == 0 && idx[1] == 2 && idx[2] == 3 &&
	      idx[3] == 1); /* by string, equal ones in index order */
	free(idx);
	str_number_repeats(s, 4, " #", 1, 1); /* the labels of callprof export */
	CHECK_STR(s[0], "f");
	CHECK_STR(s[1], "g");
	CHECK_STR(s[2], "f #2");
	CHECK_STR(s[3], "f #3");
	str_number_repeats(s, 4, "#", 0, 0); /* unique already: unchanged */
	CHECK_STR(s[2], "f #2");
	free(s[1]);
	s[1] = xstrdup("f");
	str_number_repeats(s, 2, "\x1f#", 0,
			   0); /* fnid.c's keys: every one of equal keys numbered */
	CHECK_STR(s[0], "f\x1f#0");
	CHECK_STR(s[1], "f\x1f#1");
	for (int i = 0; i < 4; i++)
		free(s[i]);
}
