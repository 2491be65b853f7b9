/* fmt.c: human-readable times, counts and percentages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

/* fmt_sig3: v (>= 1) with three significant digits, then unit. */
static char *fmt_sig3(char *out, double v, const char *unit)
{
	if (v < 9.995)
		snprintf(out, FMT_SIZE, "%.2f %s", v, unit);
	else if (v < 99.95)
		snprintf(out, FMT_SIZE, "%.1f %s", v, unit);
	else
		snprintf(out, FMT_SIZE, "%.0f %s", v, unit);
	return out;
}

char *fmt_ns_f(char *out, double ns)
{
	if (ns < 0)
		ns = 0;
	if (ns < 99.95)
		snprintf(out, FMT_SIZE, "%.1f ns", ns);
	else if (ns < 999.5)
		snprintf(out, FMT_SIZE, "%.0f ns", ns);
	else if (ns < 999.5e3)
		fmt_sig3(out, ns / 1e3, "\xc2\xb5s");
	else if (ns < 999.5e6)
		fmt_sig3(out, ns / 1e6, "ms");
	else
		fmt_sig3(out, ns / 1e9, "s");
	return out;
}

char *fmt_ns(char *out, uint64_t ns)
{
	if (ns < 1000) {
		snprintf(out, FMT_SIZE, "%u ns", (unsigned)ns);
		return out;
	}
	return fmt_ns_f(out, (double)ns);
}

char *fmt_count(char *out, uint64_t n)
{
	char digits[24];
	int len = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)n);
	int i, o = 0;

	for (i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	return out;
}

double fmt_share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

char *fmt_pct(char *out, uint64_t part, uint64_t whole)
{
	double pct = 100.0 * fmt_share(part, whole);

	if (!whole)
		snprintf(out, FMT_SIZE, "-");
	else if (part == 0)
		snprintf(out, FMT_SIZE, "0%%");
	else if (pct < 0.1)
		snprintf(out, FMT_SIZE, "<0.1%%");
	else
		snprintf(out, FMT_SIZE, "%.1f%%", pct);
	return out;
}

char *fmt_ns_delta(char *out, uint64_t before, uint64_t after)
{
	char abs[FMT_SIZE];

	if (before == after)
		return fmt_ns(out, 0);
	fmt_ns(abs, after > before ? after - before : before - after);
	snprintf(out, FMT_SIZE, "%c%.*s", after > before ? '+' : '-', FMT_SIZE - 2, abs);
	return out;
}

char *fmt_ns_f_delta(char *out, double ns)
{
	char abs[FMT_SIZE];

	fmt_ns_f(abs, ns < 0 ? -ns : ns);
	snprintf(out, FMT_SIZE, "%c%.*s", ns < 0 ? '-' : '+', FMT_SIZE - 2, abs);
	return out;
}

double fmt_change_ratio(uint64_t before, uint64_t after)
{
	if (!before)
		return after ? HUGE_VAL : 0.0;
	return (double)after / (double)before - 1.0;
}

char *fmt_change(char *out, uint64_t before, uint64_t after)
{
	double pct = 100.0 * fmt_change_ratio(before, after);

	if (!before)
		snprintf(out, FMT_SIZE, after ? "from 0" : "-");
	else if (before == after)
		snprintf(out, FMT_SIZE, "0%%");
	else if (fabs(pct) < 0.05)
		snprintf(out, FMT_SIZE, "%s<0.1%%", after > before ? "+" : "-");
	else
		snprintf(out, FMT_SIZE, "%+.1f%%", pct);
	return out;
}

int fmt_parse_ns(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "", 1 },     { "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 },
		      { "ms", 1e6 }, { "s", 1e9 } };
	char *end;
	double v;

	if (!*s || !strchr("0123456789.", *s))
		return -1;
	v = strtod(s, &end);
	while (*end == ' ')
		end++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		v *= units[i].ns;
		if (!(v >= 0 && v < 1.8e19))
			return -1;
		*ns = (uint64_t)(v + 0.5);
		return 0;
	}
	return -1;
}
