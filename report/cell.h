/* cell.h: table cells of the pages: numbers right-aligned, the exact value in data-v for sorting and tests. */
#ifndef CALLPROF_CELL_H
#define CALLPROF_CELL_H

#include <stdint.h>

#include "buf.h"
#include "profile.h"

/* cell_count: "<td class="num" data-v="1234">1,234</td>". */
void cell_count(struct buf *out, uint64_t n);

/* cell_time: a time, "<td class="num" data-v="1500">1.50 µs</td>". */
void cell_time(struct buf *out, uint64_t ns);

/*
 * cell_time_doubtful: a time cell, marked (class "doubtful", the raw figure
 * on hover) when compensated and compensation took more than half of raw_ns.
 * Returns 1 when it marked the cell, else 0.
 */
int cell_time_doubtful(struct buf *out, uint64_t ns, uint64_t raw_ns, int compensated);

/* cell_pct: part of whole as a percentage, with a bar (cell_bar). */
void cell_pct(struct buf *out, uint64_t part, uint64_t whole);

/* cell_file: a source location, "file.c:42" (the full path on hover), or a dash when file is NULL. */
void cell_file(struct buf *out, const char *file, uint64_t line);

/*
 * cell_site: a call site, "file.c:42" (the full path on hover), or, when file
 * is NULL, why not: "inlined", "other code" (enum psite, profile.h), a dash on
 * a root call or where no line is known, the reason on hover.  Returns the
 * bit (1 << CELL_SITE_*) of the reason shown, 0 for a line; cell_site_legend
 * explains the reasons whose bits are set in kinds, in a paragraph under the
 * table.
 */
enum { CELL_SITE_INLINED, CELL_SITE_OUTSIDE, CELL_SITE_ROOT, CELL_SITE_NO_LINE, CELL_SITES };
unsigned cell_site(struct buf *out, const char *file, uint64_t line, enum psite site, int root);
void cell_site_legend(struct buf *out, unsigned kinds);

/*
 * cell_estimate: the text of a time inside a cell or tile, into out (CELL_ESTIMATE_SIZE
 * bytes): when `estimated` (sampled timing) marked as an estimate, its standard error on
 * hover: "<span class="est" title="an estimate: standard error 250 µs (5.0%)">&asymp;
 * 5.00 ms</span>"; else the time alone.
 */
#define CELL_ESTIMATE_SIZE 256
const char *cell_estimate(char *out, uint64_t ns, uint64_t se_ns, int estimated);

/* cell_bar: a horizontal bar of part / whole (CSS classes w0..w100, no inline style: the CSP forbids it). */
void cell_bar(struct buf *out, uint64_t part, uint64_t whole);

#endif
