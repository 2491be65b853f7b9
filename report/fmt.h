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

#endif
