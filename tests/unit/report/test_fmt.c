/* test_fmt.c: numbers as people read them (report/fmt.c). */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "fmt.h"

void test_fmt_ns_units(void)
{
	char s[FMT_SIZE];

	CHECK_STR(fmt_ns(s, 0), "0 ns");
	CHECK_STR(fmt_ns(s, 812), "812 ns");
	CHECK_STR(fmt_ns(s, 1234), "1.23 \xc2\xb5s");
	CHECK_STR(fmt_ns(s, 45600000), "45.6 ms");
	CHECK_STR(fmt_ns(s, 2500000000u), "2.50 s");
	CHECK_STR(fmt_ns(s, UINT64_C(1234000000000)), "1234 s");
	CHECK_STR(fmt_ns(s, UINT64_MAX), "18446744074 s");
}

void test_fmt_ns_boundaries(void)
{
	char s[FMT_SIZE];

	/* Three significant digits, and a unit change where rounding would print "1000". */
	CHECK_STR(fmt_ns(s, 999), "999 ns");
	CHECK_STR(fmt_ns(s, 1000), "1.00 \xc2\xb5s");
	CHECK_STR(fmt_ns(s, 9994), "9.99 \xc2\xb5s");
	CHECK_STR(fmt_ns(s, 9995), "10.0 \xc2\xb5s");
	CHECK_STR(fmt_ns(s, 99949), "99.9 \xc2\xb5s");
	CHECK_STR(fmt_ns(s, 99950), "100 \xc2\xb5s");
	CHECK_STR(fmt_ns(s, 999499), "999 \xc2\xb5s");
	CHECK_STR(fmt_ns(s, 999500), "1.00 ms");
	CHECK_STR(fmt_ns(s, 999500000), "1.00 s");
}

void test_fmt_ns_f_fractions(void)
{
	char s[FMT_SIZE];

	CHECK_STR(fmt_ns_f(s, 7.9), "7.9 ns");
	CHECK_STR(fmt_ns_f(s, 21.54), "21.5 ns");
	CHECK_STR(fmt_ns_f(s, 99.96), "100 ns");
	CHECK_STR(fmt_ns_f(s, 1500.0), "1.50 \xc2\xb5s");
	CHECK_STR(fmt_ns_f(s, -3.0), "0.0 ns"); /* never negative */
}

void test_fmt_count_separators(void)
{
	char s[FMT_SIZE];

	CHECK_STR(fmt_count(s, 0), "0");
	CHECK_STR(fmt_count(s, 999), "999");
	CHECK_STR(fmt_count(s, 1000), "1,000");
	CHECK_STR(fmt_count(s, 1234567), "1,234,567");
	CHECK_STR(fmt_count(s, UINT64_MAX), "18,446,744,073,709,551,615");
}

void test_fmt_pct_shares(void)
{
	char s[FMT_SIZE];

	CHECK_STR(fmt_pct(s, 1, 0), "-");
	CHECK_STR(fmt_pct(s, 0, 10), "0%");
	CHECK_STR(fmt_pct(s, 1, 10000), "<0.1%");
	CHECK_STR(fmt_pct(s, 451, 1000), "45.1%");
	CHECK_STR(fmt_pct(s, 7, 7), "100.0%");
	CHECK_STR(fmt_pct(s, 3, 2), "150.0%"); /* a broken dump's part may exceed its whole */
	CHECK_NEAR(fmt_share(1, 4), 0.25, 1e-12);
	CHECK_NEAR(fmt_share(5, 0), 0.0, 0);
}

void test_fmt_ns_delta_signs(void)
{
	char s[FMT_SIZE];

	CHECK_STR(fmt_ns_delta(s, 1000, 2000), "+1.00 \xc2\xb5s");
	CHECK_STR(fmt_ns_delta(s, 2000, 1188), "-812 ns");
	CHECK_STR(fmt_ns_delta(s, 5, 5), "0 ns");
	CHECK_STR(fmt_ns_delta(s, 0, UINT64_MAX), "+18446744074 s");
}

/* A fractional signed time, as the index's metered calibration gives it. */
void test_fmt_ns_f_delta_signs(void)
{
	char s[FMT_SIZE];

	CHECK_STR(fmt_ns_f_delta(s, 0.84), "+0.8 ns");
	CHECK_STR(fmt_ns_f_delta(s, -0.13), "-0.1 ns");
	CHECK_STR(fmt_ns_f_delta(s, 0), "+0.0 ns");
	CHECK_STR(fmt_ns_f_delta(s, -1500), "-1.50 \xc2\xb5s");
}

void test_fmt_change_relative(void)
{
	char s[FMT_SIZE];

	CHECK_STR(fmt_change(s, 0, 0), "-");
	CHECK_STR(fmt_change(s, 0, 5), "from 0");
	CHECK_STR(fmt_change(s, 100, 100), "0%");
	CHECK_STR(fmt_change(s, 200, 100), "-50.0%");
	CHECK_STR(fmt_change(s, 1000, 1001), "+0.1%");
	CHECK_STR(fmt_change(s, 100000, 100001), "+<0.1%");
	CHECK_STR(fmt_change(s, 100001, 100000), "-<0.1%");
	CHECK(isinf(fmt_change_ratio(0, 5)));
	CHECK_NEAR(fmt_change_ratio(0, 0), 0.0, 0);
	CHECK_NEAR(fmt_change_ratio(4, 5), 0.25, 1e-12);
}

void test_fmt_parse_ns_units(void)
{
	uint64_t ns = 0;

	CHECK(fmt_parse_ns("1500", &ns) == 0);
	CHECK_EQ_U64(ns, 1500);
	CHECK(fmt_parse_ns("7ns", &ns) == 0);
	CHECK_EQ_U64(ns, 7);
	CHECK(fmt_parse_ns("250us", &ns) == 0);
	CHECK_EQ_U64(ns, 250000);
	CHECK(fmt_parse_ns("3\xc2\xb5s", &ns) == 0);
	CHECK_EQ_U64(ns, 3000);
	CHECK(fmt_parse_ns("2.5 ms", &ns) == 0);
	CHECK_EQ_U64(ns, 2500000);
	CHECK(fmt_parse_ns("1s", &ns) == 0);
	CHECK_EQ_U64(ns, 1000000000);
	CHECK(fmt_parse_ns(".5ms", &ns) == 0);
	CHECK_EQ_U64(ns, 500000);
}

void test_fmt_parse_ns_refuses(void)
{
	static const char *const bad[] = { "",    "ms",    "-1",   "+1",  "5parsecs",
					   "1 m", "1e30s", "1ms ", " 1ms" };
	uint64_t ns = 42;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (fmt_parse_ns(bad[i], &ns) == 0)
			unit_fail(__FILE__, __LINE__, "fmt_parse_ns accepted \"%s\"", bad[i]);
	CHECK_EQ_U64(ns, 42); /* untouched on refusal */
}
