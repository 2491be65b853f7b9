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

#endif
