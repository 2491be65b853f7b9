/* cell.h: table cells of the pages: numbers right-aligned, the exact value in data-v for sorting and tests. */
#ifndef CALLPROF_CELL_H
#define CALLPROF_CELL_H

#include <stdint.h>

#include "buf.h"

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

/* cell_site: a call site, "file.c:42" (the full path on hover), or a dash when file is NULL. */
void cell_site(struct buf *out, const char *file, uint64_t line);

/* cell_bar: a horizontal bar of part / whole (CSS classes w0..w100, no inline style: the CSP forbids it). */
void cell_bar(struct buf *out, uint64_t part, uint64_t whole);

#endif
