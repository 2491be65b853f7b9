/* flame_svg.c: a flame graph as a static SVG picture (callers above callees), every box a link
 * to its function's page: what readers without JavaScript see, and what flame.js replaces. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "fmt.h"
#include "html.h"
#include "link.h"

#define FLAME_ROW 18   /* units per level */
#define FLAME_CHAR 6.6 /* average glyph width of the 11px monospace labels */

/* Differential colours: grey for no change, deepening to red (grew) or blue (shrank). */
static const unsigned flame_grey[3] = { 224, 224, 224 };
static const unsigned flame_red[3] = { 214, 39, 40 };
static const unsigned flame_blue[3] = { 31, 95, 191 };
#define FLAME_DIFF_MIN_LEVEL 0.15 /* the faintest colour a change past the floor gets */

/* One frame to lay out: a node, where it starts, and the next of its children. */
struct flame_frame {
	uint32_t node;
	double x;   /* left edge of the next child */
	double end; /* right edge of the frame: children never reach past it */
	size_t next;
};

/* name_colour: a warm colour that depends only on the function's name, so it is stable. */
static void name_colour(char out[8], const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	snprintf(out, 8, "#%02x%02x%02x", 205 + (h & 0x1f) + ((h >> 5) & 0x1f) / 2,
		 (unsigned)(80 + ((h >> 10) % 150)), (unsigned)(20 + ((h >> 18) % 50)));
}

void flame_change_colour(char out[8], uint64_t was, uint64_t now, uint64_t floor)
{
	uint64_t change = now > was ? now - was : was - now;
	const unsigned *to = now > was ? flame_red : flame_blue;
	double level;
	unsigned c[3];

	if (!change || change < floor) {
		snprintf(out, 8, "#%02x%02x%02x", flame_grey[0], flame_grey[1], flame_grey[2]);
		return;
	}
	level = FLAME_DIFF_MIN_LEVEL +
		(1 - FLAME_DIFF_MIN_LEVEL) * sqrt((double)change / (double)(now > was ? now : was));
	for (int k = 0; k < 3; k++)
		c[k] = (unsigned)((double)flame_grey[k] +
				  ((double)to[k] - (double)flame_grey[k]) * level + 0.5);
	snprintf(out, 8, "#%02x%02x%02x", c[0] & 0xff, c[1] & 0xff, c[2] & 0xff);
}

void flame_colour(char out[8], const struct flame_view *v, uint32_t i)
{
	const char *name = v->p->funcs[v->t->nodes[i].fn].name;

	if (v->base)
		flame_change_colour(out, v->base[i] == FLAME_NO_BASE ? 0 : v->base[i],
				    ptree_weight(v->t, i), v->floor);
	else
		name_colour(out, name[0] ? name : "(anonymous)");
}

/* frame_title: the box's tooltip text after its name, escaped. */
static void frame_title(struct buf *out, const struct flame_view *v, uint32_t i)
{
	const struct pnode *n = &v->t->nodes[i];
	uint64_t w = ptree_weight(v->t, i);
	int64_t se = v->t->by_calls ? -1 : pnode_se(n);
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], d[FMT_SIZE];

	if (v->base && v->t->by_calls) {
		uint64_t was = v->base[i] == FLAME_NO_BASE ? 0 : v->base[i];

		buf_printf(out, " \xe2\x80\x94 %s \xe2\x86\x92 %s calls in the path (%s)",
			   fmt_count(a, was), fmt_count(b, w), fmt_change(c, was, w));
		return;
	}
	if (v->base) {
		uint64_t was = v->base[i] == FLAME_NO_BASE ? 0 : v->base[i];

		buf_printf(out, " \xe2\x80\x94 %s \xe2\x86\x92 %s inclusive (%s, %s), %s call%s",
			   fmt_ns(a, was), fmt_ns(b, w), fmt_ns_delta(c, was, w),
			   fmt_change(d, was, w), fmt_count(a, n->calls), n->calls == 1 ? "" : "s");
		return;
	}
	buf_printf(out, " \xe2\x80\x94 %s%s inclusive", se >= 0 ? "\xe2\x89\x88 " : "",
		   fmt_ns(a, n->incl_ns));
	if (se >= 0) /* an estimate (sampled timing), marked as cell_estimate marks it */
		buf_printf(out, " (an estimate: standard error %s, %s)", fmt_ns(a, (uint64_t)se),
			   fmt_pct(b, (uint64_t)se, n->incl_ns));
	buf_printf(out, ", %s, %s call%s", fmt_pct(b, w, v->whole), fmt_count(c, n->calls),
		   n->calls == 1 ? "" : "s");
}

static void flame_rect(struct buf *out, const struct flame_view *v, uint32_t i, double x, double w,
		       size_t depth)
{
	const struct pnode *n = &v->t->nodes[i];
	const char *name = v->p->funcs[n->fn].name[0] ? v->p->funcs[n->fn].name : "(anonymous)";
	char colour[8], href[40];
	size_t fit = w > 8 ? (size_t)((w - 6) / FLAME_CHAR) : 0, len = strlen(name);

	flame_colour(colour, v, i);
	link_fn_path(href, sizeof(href), flame_link(v, n->fn));
	buf_printf(out, "<a href=\"../%s\"><title>", href);
	link_name_plain(out, name);
	frame_title(out, v, i);
	buf_printf(out,
		   "</title><rect x=\"%.2f\" y=\"%zu\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>",
		   x, depth * FLAME_ROW, w, FLAME_ROW - 1, colour);
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
static size_t flame_frames(struct buf *out, const struct flame_view *v, size_t *rows)
{
	const struct ptree *t = v->t;
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
		flame_rect(out, v, root, x0, w, 0);
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
					flame_rect(out, v, kid, f->x, kw, depth + 1);
					drawn++;
					stack[depth + 1] =
						(struct flame_frame){ kid, f->x, f->x + kw, 0 };
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
	free(stack);
	return drawn;
}

size_t flame_svg(struct buf *out, const struct flame_view *v)
{
	struct buf frames = BUF_INIT;
	size_t rows, drawn = flame_frames(&frames, v, &rows);

	buf_printf(out,
		   "<svg class=\"flame\" id=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "viewBox=\"0 0 %.0f %zu\" width=\"%.0f\" height=\"%zu\" role=\"group\" "
		   "aria-label=\"Flame graph\">\n",
		   FLAME_WIDTH, rows * FLAME_ROW, FLAME_WIDTH, rows * FLAME_ROW);
	buf_add(out, frames.data, frames.len);
	buf_puts(out, "</svg>\n");
	buf_release(&frames);
	return v->t->n - drawn;
}
