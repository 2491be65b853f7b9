/* note.h: the phrases and paragraphs several pages share. */
#ifndef CALLPROF_NOTE_H
#define CALLPROF_NOTE_H

#include <stdint.h>

#include "buf.h"
#include "profile.h"

/*
 * note_location: where a function is declared, "file.c:42 in module", or a
 * note that there is no debug information; every part escaped.
 */
void note_location(struct buf *out, const char *file, uint64_t line, const char *module);

/*
 * note_fold: for a tree or flame graph page of thread (-1 for all threads),
 * a paragraph saying what the runtime folded or dropped there, so the page is
 * missing those paths; nothing when it did neither.
 */
void note_fold(struct buf *out, const struct profile *p, int64_t thread);

/*
 * note_dumps: the dumps of p, a line each (pid, file, date); past
 * NOTE_DUMPS_SHOWN of them, folded under a <details> whose summary counts
 * them, so a report of hundreds of dumps keeps its hot lists at the top.
 */
#define NOTE_DUMPS_SHOWN 3
void note_dumps(struct buf *out, const struct profile *p);

/*
 * note_programs: the programs p's dumps ran, "<code>jq</code> (470 dumps),
 * <code>test</code> (2 dumps)", the most frequent first, at most
 * NOTE_PROGRAMS of them then "and N more".
 */
#define NOTE_PROGRAMS 5
void note_programs(struct buf *out, const struct profile *p);

/*
 * note_args: the arguments argv[1..] of a dump as a <code> span, cut after
 * RUN_ARGS_MAX bytes (run_args), or a muted note when no_argv left them out.
 */
void note_args(struct buf *out, const struct run *r, int no_argv);

#endif
