/* render_diff_flame.c: flame/all.html of a diff: the new profile's flame graph, each box coloured
 * by how much its call path's time grew (red) or shrank (blue) against the base (flame.h). */
#include <stdio.h>
#include <stdlib.h>

#include "diff.h"
#include "flame.h"
#include "fmt.h"
#include "html.h"
#include "layout.h"
#include "render.h"

#define DIFF_FLAME_FLOOR_SHARE 200 /* changes under 1/200 of the run (or --min-time) stay grey */

/* side_map: for each function of side s, its diff function (free() it). */
static uint32_t *side_map(const struct diff *d, int s)
{
	uint32_t *map = xcalloc(d->side[s].nfuncs + 1, sizeof(*map));

	for (size_t i = 0; i < d->nfuncs; i++)
		if (d->funcs[i].fn[s] >= 0)
			map[d->funcs[i].fn[s]] = (uint32_t)i;
	return map;
}

/* swatch: one entry of the legend, a box of the colour for was -> now and its words. */
static void swatch(struct buf *out, uint64_t was, uint64_t now, uint64_t floor, const char *words)
{
	char colour[8];

	flame_change_colour(colour, was, now, floor);
	buf_printf(out,
		   "<span><svg class=\"swatch\" width=\"26\" height=\"14\" "
		   "aria-hidden=\"true\"><rect width=\"26\" "
		   "height=\"14\" rx=\"3\" fill=\"%s\"/></svg>%s</span>\n",
		   colour, words);
}

/* legend: what the colours mean, drawn with the colours themselves. */
static void legend(struct buf *out, const struct flame_view *v)
{
	char a[FMT_SIZE], grey[FMT_SIZE + 32];

	snprintf(grey, sizeof(grey), "less than %s%s",
		 v->t->by_calls ? fmt_count(a, v->floor) : fmt_ns(a, v->floor),
		 v->t->by_calls ? " calls" : "");
	buf_puts(out, "<p class=\"flame-legend\" id=\"flame-legend\"><span>Each path's change, new "
		      "against base:</span>\n");
	swatch(out, 100, 10, 0,
	       "\xe2\x88\x92"
	       "90%");
	swatch(out, 100, 50, 0,
	       "\xe2\x88\x92"
	       "50%");
	swatch(out, 100, 90, 0,
	       "\xe2\x88\x92"
	       "10%");
	swatch(out, 100, 100, 0, grey);
	swatch(out, 100, 110, 0, "+10%");
	swatch(out, 100, 150, 0, "+50%");
	swatch(out, 100, 300, 0, "+200%");
	swatch(out, 0, 100, 0, "new path");
	buf_puts(out, "</p>\n");
}

/* lede: what the page shows, and what it cannot (the paths only the base had). */
static void lede(struct buf *out, const struct flame_view *v, const struct flame_gone *gone,
		 int comparable)
{
	char a[FMT_SIZE], b[FMT_SIZE];

	buf_printf(out,
		   "<p class=\"lede\">The new profile's call paths: each box is as wide as its "
		   "share of %s "
		   "in the new run and coloured by how much its inclusive %s changed against the "
		   "base, on the same "
		   "path: red grew, blue shrank, the deeper the colour the larger the change "
		   "relative to the "
		   "path's larger figure; grey changed by less than %s. <span "
		   "id=\"flame-static-hint\">Hover for "
		   "figures, click for the function's page.</span></p>\n",
		   v->t->by_calls ? "all calls" : "the time",
		   v->t->by_calls ? "call count" : "time",
		   v->t->by_calls ? fmt_count(a, v->floor) : fmt_ns(a, v->floor));
	if (!comparable)
		buf_puts(out, "<p class=\"pruned\" id=\"incomparable\">One side was profiled "
			      "without a clock and "
			      "the other with one, so the boxes cannot be compared: they are drawn "
			      "in grey.</p>\n");
	if (gone->paths)
		buf_printf(out,
			   "<p class=\"pruned\" id=\"gone\">%s call path%s of the base (%s) %s no "
			   "counterpart in the "
			   "new profile, so %s not drawn: see the functions that vanished on "
			   "<a href=\"../index.html#changes\">the overview</a>.</p>\n",
			   fmt_count(a, gone->paths), gone->paths == 1 ? "" : "s",
			   v->t->by_calls ? fmt_count(b, gone->weight) : fmt_ns(b, gone->weight),
			   gone->paths == 1 ? "has" : "have",
			   gone->paths == 1 ? "it is" : "they are");
}

int render_diff_flame(struct render_ctx *ctx)
{
	const struct diff *d = ctx->diff;
	const struct profile *bp = &d->side[DIFF_BASE], *np = &d->side[DIFF_NEW];
	const struct ptree *bt = &bp->tree, *nt = &np->tree;
	uint32_t *fmap[2] = { side_map(d, DIFF_BASE), side_map(d, DIFF_NEW) };
	struct flame_gone gone = { 0, 0 };
	struct flame_view v = { np,
				nt,
				nt->by_calls || !np->run_ns ? nt->total : np->run_ns,
				fmap[DIFF_NEW],
				NULL,
				bt->by_calls || !bp->run_ns ? bt->total : bp->run_ns,
				0,
				0 };
	struct buf text = BUF_INIT, leg = BUF_INIT, svg = BUF_INIT, data = BUF_INIT;
	int comparable = bt->by_calls == nt->by_calls, rc;
	uint64_t *base = flame_diff_base(bt, nt, fmap, &gone);

	if (!comparable)
		for (size_t i = 0; i < nt->n; i++)
			base[i] = ptree_weight(nt, i); /* no change anywhere: all grey */
	v.base = base;
	v.floor = v.whole / DIFF_FLAME_FLOOR_SHARE;
	if (!nt->by_calls && d->min_ns < v.floor)
		v.floor = d->min_ns;
	lede(&text, &v, &gone, comparable);
	legend(&leg, &v);
	flame_svg(&svg, &v);
	flame_data(&data, &v);

	struct tmpl_var vars[] = {
		{ "heading", "Flame graph \xe2\x80\x94 what changed" },
		{ "lede", text.data },
		{ "legend", leg.data },
		{ "data", "all.data.js" },
		{ "svg", svg.data },
	};
	rc = site_write(ctx->site, "flame/all.data.js", data.data, data.len);
	if (rc == 0)
		rc = layout_page(ctx, "flame/all.html", "../", "flame",
				 "Flame graph of the changes", "flame.html", vars,
				 sizeof(vars) / sizeof(vars[0]));
	buf_release(&text);
	buf_release(&leg);
	buf_release(&svg);
	buf_release(&data);
	free(base);
	free(fmap[0]);
	free(fmap[1]);
	return rc;
}
