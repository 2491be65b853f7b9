/* fnid.h: when functions of several dumps are the same function: the one rule that merging
 * dumps (report, top, export, merge: analyze.c and dump_merge.c) and matching two builds (diff)
 * share. */
#ifndef CALLPROF_FNID_H
#define CALLPROF_FNID_H

#include <stddef.h>
#include <stdint.h>

struct dump;

/*
 * A function is known by what its source says -- its module's base name, its
 * name, its source file -- and, where that is not enough, by where its code
 * is: its module's build-id (or path) and its offset there.
 *
 * fnid_keys gives each function of a dump the key under which dumps merge:
 *
 *   "MODULE \x1f NAME \x1f FILE"                 the usual case;
 *   ... "\x1f L<line>"                           when its module has several
 *                                                functions of that name and file
 *                                                (static functions of one file);
 *   ... "\x1f @<build-id or path>+<offset>"      when even the line is shared (a
 *                                                static inline helper of a header:
 *                                                one copy per translation unit).
 *
 * Whether a function has such twins is counted over its module's whole
 * function list (the functions called and modules[].uncalled, an uncalled
 * entry at the offset of a listed function being that function, as in a
 * merged dump), which every dump of one build shares, so all dumps of one
 * build give a copy the same key whatever order the copies were first called
 * in.  A function whose name or file held a NUL (dump_function.name_nul,
 * file_nul) adds "\x1f\\0<1|2|3>": it is not the function whose name
 * reads as its escaped one.  Only a dump without
 * offsets falls back to that order: its twins get "\x1f #<k>", the k-th of
 * that key in functions[] (first-call order).  Keys are unique within a dump.
 *
 * Example: two runs of one program whose header helper() was inlined into
 * a.c and b.c as two copies at offsets 0x1230 and 0x1460: both copies are
 * "prog\x1fhelper\x1fdup.h\x1fL3\x1f@<id>+0x1230" (and +0x1460) in each run,
 * so merging the runs adds each copy's calls to its own.
 *
 * Across builds offsets move, so a diff matches the copies of one function
 * (same module, name and file) by fnid_cmp_copies: same code first (the same
 * build on both sides), then in order of line and offset.
 *
 * fnid_keys returns d->nfunctions strings (fnid_keys_free frees them).
 */
char **fnid_keys(const struct dump *d);
void fnid_keys_free(char **keys, size_t n);

/* fnid_code: where a function's code is known to live: its module's build-id, else its path, else NULL. */
const char *fnid_code(const struct dump *d, size_t fn);

/*
 * Telling functions of one name apart on the pages.  fnid_same_levels sets
 * level[i] for n functions by what they share with others: 0 (a name of its
 * own), FNID_SHOW_FILE (others have its name: its file's base name tells it
 * apart), FNID_SHOW_PATH (others have a file of that base name too, in
 * another folder: the file's path), FNID_SHOW_LINE (others have its name and
 * file: file:line), FNID_SHOW_CODE (even the line: a copy of a header's
 * static inline function; its offset).  fnid_tell appends that as plain
 * text: "util.c", "src/x/util.c", "dup.h:3", "dup.h:3 @0x1230"; without a
 * source file, its module, and its offset past the first level
 * ("libx.so @0x1230").
 */
enum { FNID_SHOW_NONE, FNID_SHOW_FILE, FNID_SHOW_PATH, FNID_SHOW_LINE, FNID_SHOW_CODE };
struct fnid_show {
	const char *name, *file; /* file NULL when unknown */
	uint64_t line;
};
struct buf;
void fnid_same_levels(const struct fnid_show *v, size_t n, int *level);
void fnid_tell(struct buf *out, int level, const char *module, const char *file, uint64_t line,
	       int has_offset, uint64_t offset);

/* fnid_put_tell appends " (TELL)", TELL fnid_tell's text passed through put (buf_puts, buf_put_printable, md_text), or nothing at level FNID_SHOW_NONE. */
void fnid_put_tell(struct buf *out, void (*put)(struct buf *, const char *), int level,
		   const char *module, const char *file, uint64_t line, int has_offset,
		   uint64_t offset);

/* fnid_cmp_copies orders copies of one function for pairing across builds: by line, then offset. */
int fnid_cmp_copies(uint64_t line_a, uint64_t offset_a, uint64_t line_b, uint64_t offset_b);

#endif
