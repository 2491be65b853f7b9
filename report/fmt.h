/* fmt.h: numbers as people read them: times in ns/µs/ms/s, counts with separators, shares. */
#ifndef CALLPROF_FMT_H
#define CALLPROF_FMT_H

#include <stdint.h>

#define FMT_SIZE 40 /* bytes enough for any fmt_* result */

/*
 * fmt_ns: a time in nanoseconds with three significant digits and a unit:
 * "0 ns", "812 ns", "1.23 µs", "45.6 ms", "2.50 s", "1234 s".
 * fmt_ns_f does the same for a fractional figure, with a decimal below 100 ns
 * ("21.5 ns" for a calibrated probe cost).
 * fmt_count: "1,234,567".
 * fmt_pct: part of whole as a percentage: "45.1%", "<0.1%", "0%" ("-" if whole is 0).
 * Each writes into out (FMT_SIZE bytes) and returns it.
 */
char *fmt_ns(char *out, uint64_t ns);
char *fmt_ns_f(char *out, double ns);
char *fmt_count(char *out, uint64_t n);
char *fmt_pct(char *out, uint64_t part, uint64_t whole);

/* fmt_share: part / whole as a fraction in [0, 1] (0 when whole is 0). */
double fmt_share(uint64_t part, uint64_t whole);

/*
 * For diffs.  fmt_ns_delta: after - before as a signed time, "+1.23 ms",
 * "-812 ns", "0 ns"; fmt_ns_f_delta: a fractional signed time, "+0.8 ns",
 * "-0.1 ns".  fmt_change: the relative change from before to after,
 * "+12.3%", "-4.5%", "0%", "from 0" (before 0, after not), "-" (both 0);
 * fmt_change_ratio is that change as a number (after / before - 1; HUGE_VAL
 * from 0, 0 for "-"), which is what tables sort by.
 */
char *fmt_ns_delta(char *out, uint64_t before, uint64_t after);
char *fmt_ns_f_delta(char *out, double ns);
char *fmt_change(char *out, uint64_t before, uint64_t after);
double fmt_change_ratio(uint64_t before, uint64_t after);

/*
 * fmt_parse_ns reads a time as the command line gives it: a number with an
 * optional unit, "ns" (the default), "us" or "µs", "ms", "s": "1ms", "2.5 ms",
 * "250us", "1500".  Returns 0 with *ns set, or -1 if s is not such a time.
 */
int fmt_parse_ns(const char *s, uint64_t *ns);

#endif
