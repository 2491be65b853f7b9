/* render_flame.c: flame/all.html and flame/t<k>.html: the calling-context tree as a
 * static SVG flame graph (callers above callees), frames linking to function pages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "html.h"
#include "layout.h"
#include "link.h"
#include "note.h"
#include "render.h"

#define FLAME_WIDTH 1200.0    /* SVG user units across */
#define FLAME_ROW 18          /* units per level */
#define FLAME_MIN_WIDTH 0.5   /* narrower frames are hidden (and counted) */
#define FLAME_MAX_DEPTH 256   /* levels drawn */
#define FLAME_CHAR 6.6        /* average glyph width of the 11px monospace labels */

/* One frame to lay out: a node, where it starts, and the next of its children. */
struct flame_frame {
	uint32_t node;
	double x;        /* left edge of the next child */
	double end;      /* right edge of the frame: children never reach past it */
	size_t next;
};

/* flame_colour: a warm colour that depends only on the function's name, so it is stable. */
static void flame_colour(char out[8], const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	snprintf(out, 8, "#%02x%02x%02x", 205 + (h & 0x1f) + ((h >> 5) & 0x1f) / 2,
		 (unsigned)(80 + ((h >> 10) % 150)), (unsigned)(20 + ((h >> 18) % 50)));
}

static void flame_rect(struct buf *out, const struct profile *p, const struct ptree *t, uint32_t i,
		       double x, double w, size_t depth, uint64_t whole)
{
	const struct pnode *n = &t->nodes[i];
	const char *name = p->funcs[n->fn].name[0] ? p->funcs[n->fn].name : "(anonymous)";
	char colour[8], a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], href[40];
	size_t fit = w > 8 ? (size_t)((w - 6) / FLAME_CHAR) : 0, len = strlen(name);

	flame_colour(colour, name);
	link_fn_path(href, sizeof(href), n->fn);
	buf_printf(out, "<a href=\"../%s\"><title>", href);
	link_name_plain(out, name);
	buf_printf(out, " \xe2\x80\x94 %s inclusive, %s, %s call%s</title>"
		   "<rect x=\"%.2f\" y=\"%zu\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>",
		   fmt_ns(a, n->incl_ns), fmt_pct(b, ptree_weight(t, i), whole), fmt_count(c, n->calls),
		   n->calls == 1 ? "" : "s", x, depth * FLAME_ROW, w, FLAME_ROW - 1, colour);
	if (fit >= 3) {
		buf_printf(out, "<text x=\"%.2f\" y=\"%zu\">", x + 3, depth * FLAME_ROW + 12);
		if (len <= fit) {
			html_escape(out, name);
		} else {
			/* Cut on a character boundary, never inside a UTF-8 sequence. */
			size_t cut = fit - 2;
			while (cut && ((unsigned char)name[cut] & 0xc0) == 0x80)
				cut--;
			html_escape_n(out, name, cut);
			buf_puts(out, "..");
		}
		buf_puts(out, "</text>");
	}
	buf_puts(out, "</a>\n");
}

/* flame_frames: every frame wide enough, depth first; returns how many; *rows gets the depth used. */
static size_t flame_frames(struct buf *out, const struct profile *p, const struct ptree *t,
			   uint64_t whole, size_t *rows, size_t *hidden)
{
	struct flame_frame *stack = xmalloc((FLAME_MAX_DEPTH + 1) * sizeof(*stack));
	double scale = t->total ? FLAME_WIDTH / (double)t->total : 0;
	double x0 = 0;
	size_t drawn = 0;

	*rows = 0;
	for (size_t r = 0; r < t->nroots; r++) {
		uint32_t root = t->roots[r];
		double w = (double)ptree_weight(t, root) * scale;
		size_t depth = 0;

		if (w > FLAME_WIDTH - x0) /* a broken dump's roots may outweigh their total */
			w = FLAME_WIDTH - x0;
		if (w < FLAME_MIN_WIDTH)
			break;
		flame_rect(out, p, t, root, x0, w, 0, whole);
		drawn++;
		stack[0] = (struct flame_frame){ root, x0, x0 + w, 0 };
		x0 += w;
		if (*rows < 1)
			*rows = 1;
		for (;;) {
			struct flame_frame *f = &stack[depth];
			size_t k = t->kid_off[f->node] + f->next;

			if (depth + 1 < FLAME_MAX_DEPTH && k < t->kid_off[f->node + 1]) {
				uint32_t kid = t->kids[k];
				double kw = (double)ptree_weight(t, kid) * scale;

				if (kw > f->end - f->x) /* nor its children their parent */
					kw = f->end - f->x;
				if (kw >= FLAME_MIN_WIDTH) {
					f->next++;
					flame_rect(out, p, t, kid, f->x, kw, depth + 1, whole);
					drawn++;
					stack[depth + 1] = (struct flame_frame){ kid, f->x, f->x + kw, 0 };
					f->x += kw;
					depth++;
					if (*rows < depth + 1)
						*rows = depth + 1;
					continue;
				}
			}
			if (depth == 0)
				break;
			depth--;
		}
	}
	*hidden = t->n - drawn;
	free(stack);
	return drawn;
}

static int flame_page(struct render_ctx *ctx, const struct ptree *t, uint64_t run_ns, int64_t thread)
{
	const struct profile *p = ctx->prof;
	uint64_t whole = t->by_calls || !run_ns ? t->total : run_ns;
	struct buf heading = BUF_INIT, title = BUF_INIT, lede = BUF_INIT, tabs = BUF_INIT;
	struct buf frames = BUF_INIT, svg = BUF_INIT;
	char path[48], a[FMT_SIZE], b[FMT_SIZE];
	size_t rows, hidden;
	int rc;

	buf_puts(&heading, "Flame graph \xe2\x80\x94 ");
	if (thread < 0)
		buf_puts(&heading, p->nthreads > 1 ? "all threads" : "the whole run");
	else
		link_thread_label(&heading, p, (size_t)thread);
	link_view_tabs(&tabs, p, thread);
	flame_frames(&frames, p, t, whole, &rows, &hidden);
	buf_printf(&svg, "<svg class=\"flame\" id=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "viewBox=\"0 0 %.0f %zu\" width=\"%.0f\" height=\"%zu\" role=\"group\" aria-label=\"Flame graph\">\n",
		   FLAME_WIDTH, rows * FLAME_ROW, FLAME_WIDTH, rows * FLAME_ROW);
	buf_add(&svg, frames.data, frames.len);
	buf_puts(&svg, "</svg>\n");
	buf_printf(&lede, "<p class=\"lede\">Each box is a call path: its width is its share of %s, "
		   "its callees sit below it, heaviest on the left. Hover for figures, click for the "
		   "function's page.</p>\n", t->by_calls ? "all calls (this dump has no times)" : "the time");
	if (hidden)
		buf_printf(&lede, "<p class=\"pruned\" id=\"pruned\">%s of %s call paths are too narrow to draw "
			   "(under %.2f%% of the width) or nested deeper than %d levels.</p>\n",
			   fmt_count(a, hidden), fmt_count(b, t->n), 100.0 * FLAME_MIN_WIDTH / FLAME_WIDTH,
			   FLAME_MAX_DEPTH);
	note_fold(&lede, p, thread);

	struct tmpl_var vars[] = {
		{ "heading", heading.data },
		{ "lede", lede.data },
		{ "tabs", tabs.data },
		{ "svg", svg.data },
	};
	buf_puts(&title, thread < 0 ? "Flame graph" : "Flame graph, thread ");
	if (thread >= 0)
		buf_printf(&title, "%lld", (long long)thread + 1);
	if (thread < 0)
		snprintf(path, sizeof(path), "flame/all.html");
	else
		snprintf(path, sizeof(path), "flame/t%lld.html", (long long)thread);
	rc = layout_page(ctx, path, "../", "flame", title.data, "flame.html", vars, sizeof(vars) / sizeof(vars[0]));
	buf_release(&heading);
	buf_release(&title);
	buf_release(&lede);
	buf_release(&tabs);
	buf_release(&frames);
	buf_release(&svg);
	return rc;
}

int render_flame(struct render_ctx *ctx)
{
	const struct profile *p = ctx->prof;
	int rc = flame_page(ctx, &p->tree, p->run_ns, -1);

	for (size_t t = 0; t < p->nthreads && render_thread_has_pages(t) && rc == 0; t++)
		rc = flame_page(ctx, &p->threads[t].tree, p->threads[t].run_ns, (int64_t)t);
	return rc;
}
