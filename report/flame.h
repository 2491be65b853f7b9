/* flame.h: one flame graph: its static SVG picture (flame_svg.c), the data file its script reads
 * (flame_data.c) and, for callprof diff, each frame's weight in the base profile (flame_diff.c). */
#ifndef CALLPROF_FLAME_H
#define CALLPROF_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "profile.h"

/*
 * A flame graph draws a calling-context tree: each node a box as wide as its
 * weight (ptree_weight: inclusive time, or calls without a clock), its
 * children below it (callers above callees), heaviest first.  The static
 * picture (no JavaScript) hides boxes too narrow to see; the data file holds
 * every node, so static/flame.js can zoom into any of them.
 *
 * A differential graph (callprof diff) has the new profile's shape; base[i]
 * is node i's weight in the base profile, found by following the same call
 * path there (functions matched as the diff matches them).  A box is red
 * when its path got heavier, blue when lighter, grey when it changed by less
 * than floor; the colour deepens with the relative change.
 *
 * Example: base main (10 ms) -> parse (6 ms), new main (12 ms) -> parse
 * (9 ms) and a new lex (1 ms): parse is +50% of 6 ms, lex appeared (full red).
 */

#define FLAME_NO_BASE UINT64_MAX /* base[i] when the base profile lacks node i's path */

struct flame_view {
	const struct profile *p;
	const struct ptree *t;
	uint64_t whole;       /* the 100% of shares: the run's time, or the tree's total weight */
	const uint32_t *link; /* function i's page is fn/<link[i]>.html; NULL for fn/<i>.html */
	const uint64_t *base; /* differential graphs: each node's base weight, else NULL */
	uint64_t base_whole;  /* the base profile's 100% */
	uint64_t floor;       /* changes below this (weight units) stay grey */
	int tree_page;        /* the data file serves the tree pages too (static/tree.js): with each
			* node's time on a CPU ("cpu"), where the profile has it */
};

/* flame_link: the function page number of function fn. */
static inline uint32_t flame_link(const struct flame_view *v, uint32_t fn)
{
	return v->link ? v->link[fn] : fn;
}

/*
 * flame_order: the nodes of t depth first, roots and children heaviest first
 * (the order of the data file and of the tree page).  Returns pos (free() it):
 * pos[i] is node i's place in that order.  *order, when not NULL, gets the
 * inverse (free() it too).
 */
uint32_t *flame_order(const struct ptree *t, uint32_t **order);

/*
 * flame_colour: the fill of node i as "#rrggbb": warm and fixed by the
 * function's name, or for a differential graph red, blue or grey by change.
 */
void flame_colour(char out[8], const struct flame_view *v, uint32_t i);

/*
 * flame_change_colour: the fill for a weight that went from was to now: grey
 * when it changed by less than floor (or not at all), else from a faint to a
 * full red (grew) or blue (shrank) by the square root of the change over the
 * larger of the two, so a path that appeared is full red.
 */
void flame_change_colour(char out[8], uint64_t was, uint64_t now, uint64_t floor);

/*
 * flame_svg appends the static picture, <svg class="flame" id="flame">, every
 * box a link to its function's page with its figures in a <title>.  Returns
 * how many nodes it left out (too narrow or too deep).
 */
#define FLAME_WIDTH 1200.0  /* SVG user units across */
#define FLAME_MIN_WIDTH 0.5 /* narrower boxes are left out of the static picture */
#define FLAME_MAX_DEPTH 256 /* levels in the static picture */
size_t flame_svg(struct buf *out, const struct flame_view *v);

/*
 * flame_data appends the data file (a script that sets window.callprofData;
 * static/flame.js documents its fields): a table of the function names the
 * tree uses, then per node in flame_order its depth, function, weight, self
 * time and calls (and base weight, and the standard error of an estimated
 * inclusive time, -1 where exact), as arrays of numbers.  Every string is
 * escaped for a script (json_out_str).
 */
void flame_data(struct buf *out, const struct flame_view *v);

/*
 * flame_diff_base: base[i] for each node of the new tree nt, the weight of
 * the node of the base tree bt on the same path, or FLAME_NO_BASE.  fmap[s][f]
 * is the diff function of side s's function f (s = 0 for the base, 1 for the
 * new side).  gone gets what the new graph cannot show: the base's paths the
 * new tree lacks (counted where they leave the shared part) and their weight.
 * Returns the array (free() it).
 */
struct flame_gone {
	size_t paths;
	uint64_t weight;
};
uint64_t *flame_diff_base(const struct ptree *bt, const struct ptree *nt, uint32_t *const fmap[2],
			  struct flame_gone *gone);

#endif
