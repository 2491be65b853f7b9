/* flame_data.c: a flame graph's data file (flame/all.data.js): a script beside the page that
 * sets window.callprofData, because a page opened from file:// may not fetch() a JSON file. */
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "json_out.h"
#include "link.h"

#define FLAME_DATA_VERSION 1

/* put_u64: n in decimal, without printf (a million-node tree writes five million numbers). */
static void put_u64(struct buf *out, uint64_t n)
{
	char digits[24];
	size_t k = sizeof(digits);

	do {
		digits[--k] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	buf_add(out, digits + k, sizeof(digits) - k);
}

/* put_name: a function's name as a string, cut like render_name's (its page shows it whole). */
static void put_name(struct buf *out, const char *name)
{
	size_t len = strlen(name), cut = LINK_NAME_MAX;
	struct buf cutname = BUF_INIT;

	if (!len) {
		json_out_str(out, "(anonymous)", 11);
		return;
	}
	if (len <= LINK_NAME_MAX) {
		json_out_str(out, name, len);
		return;
	}
	while (cut && ((unsigned char)name[cut] & 0xc0) == 0x80)
		cut--;
	buf_add(&cutname, name, cut);
	buf_puts(&cutname, "\xe2\x80\xa6");
	json_out_str(out, cutname.data, cutname.len);
	buf_release(&cutname);
}

/* local_names: the functions the tree uses, numbered in the order of first use; fills
 * local[fn] and returns the functions (free() both). */
static uint32_t *local_names(const struct flame_view *v, const uint32_t *order,
			     uint32_t **local_out, size_t *nused)
{
	const struct profile *p = v->p;
	uint32_t *local = xmalloc((p->nfuncs + 1) * sizeof(*local));
	uint32_t *used = xmalloc((p->nfuncs + 1) * sizeof(*used));

	*nused = 0;
	memset(local, 0xff, (p->nfuncs + 1) * sizeof(*local));
	for (size_t k = 0; k < v->t->n; k++) {
		uint32_t fn = v->t->nodes[order[k]].fn;

		if (local[fn] == UINT32_MAX) {
			local[fn] = (uint32_t)*nused;
			used[(*nused)++] = fn;
		}
	}
	*local_out = local;
	return used;
}

/* put_functions: "names", "files" (what tells a function from others of its name, pfunc_tell:
 * its file, file:line or offset, else "") and "links" (page numbers), one entry per function
 * used. */
static void put_functions(struct buf *out, const struct flame_view *v, const uint32_t *used,
			  size_t nused)
{
	const struct profile *p = v->p;

	buf_puts(out, "\"names\":[");
	for (size_t k = 0; k < nused; k++) {
		buf_puts(out, k ? ",\n" : "\n");
		put_name(out, p->funcs[used[k]].name);
	}
	buf_puts(out, "],\n\"files\":[");
	for (size_t k = 0; k < nused; k++) {
		struct buf tell = BUF_INIT;

		pfunc_tell(&tell, &p->funcs[used[k]]);
		buf_puts(out, k ? "," : "");
		json_out_str(out, tell.len ? tell.data : "", tell.len);
		buf_release(&tell);
	}
	buf_puts(out, "],\n\"links\":[");
	for (size_t k = 0; k < nused; k++) {
		buf_puts(out, k ? "," : "");
		put_u64(out, flame_link(v, used[k]));
	}
	buf_puts(out, "],\n");
}

/* Which figure of a node an array holds. */
enum node_field { NF_DEPTH, NF_FN, NF_WEIGHT, NF_SELF, NF_CALLS, NF_CPU, NF_SE, NF_BASE };

/* put_array: "key":[...] of one figure of every node, in order. */
static void put_array(struct buf *out, const struct flame_view *v, const uint32_t *order,
		      const uint32_t *local, const uint32_t *depth, const char *key,
		      enum node_field f)
{
	const struct ptree *t = v->t;

	buf_printf(out, "\"%s\":[", key);
	for (size_t k = 0; k < t->n; k++) {
		uint32_t i = order[k];

		if (k)
			buf_putc(out, ',');
		if (k % 4096 == 4095)
			buf_putc(out, '\n');
		switch (f) {
		case NF_DEPTH: put_u64(out, depth[k]); break;
		case NF_FN: put_u64(out, local[t->nodes[i].fn]); break;
		case NF_WEIGHT: put_u64(out, ptree_weight(t, i)); break;
		case NF_SELF: put_u64(out, t->nodes[i].self_ns); break;
		case NF_CALLS: put_u64(out, t->nodes[i].calls); break;
		case NF_CPU: put_u64(out, t->nodes[i].cpu_ns); break;
		case NF_SE: buf_printf(out, "%lld", (long long)pnode_se(&t->nodes[i])); break;
		case NF_BASE:
			if (v->base[i] == FLAME_NO_BASE)
				buf_puts(out, "-1");
			else
				put_u64(out, v->base[i]);
			break;
		}
	}
	buf_puts(out, "]");
}

/* has_estimates: some node's times are estimates (sampled timing: not every call timed). */
static int has_estimates(const struct ptree *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (pnode_se(&t->nodes[i]) >= 0)
			return 1;
	return 0;
}

/* node_depths: the depth of each node, in order (roots 0). */
static uint32_t *node_depths(const struct ptree *t, const uint32_t *order, const uint32_t *pos)
{
	uint32_t *depth = xmalloc((t->n + 1) * sizeof(*depth));

	for (size_t k = 0; k < t->n; k++) {
		int32_t parent = t->nodes[order[k]].parent;

		depth[k] = parent < 0 ? 0 : depth[pos[parent]] + 1; /* a parent comes first */
	}
	return depth;
}

uint32_t *flame_order(const struct ptree *t, uint32_t **order_out)
{
	uint32_t *pos = xmalloc((t->n + 1) * sizeof(*pos));
	uint32_t *order = xmalloc((t->n + 1) * sizeof(*order));
	uint32_t *stack = xmalloc((t->n + 1) * sizeof(*stack));
	size_t top = 0, k = 0;

	/* Push roots and children lightest first, so the heaviest comes off the stack first. */
	for (size_t r = t->nroots; r-- > 0;)
		stack[top++] = t->roots[r];
	while (top) {
		uint32_t i = stack[--top];

		pos[i] = (uint32_t)k;
		order[k++] = i;
		for (size_t c = t->kid_off[i + 1]; c-- > t->kid_off[i];)
			stack[top++] = t->kids[c];
	}
	free(stack);
	if (order_out)
		*order_out = order;
	else
		free(order);
	return pos;
}

void flame_data(struct buf *out, const struct flame_view *v)
{
	const struct ptree *t = v->t;
	uint32_t *order, *pos = flame_order(t, &order), *local, *depth = node_depths(t, order, pos);
	size_t nused;
	uint32_t *used = local_names(v, order, &local, &nused);

	buf_puts(out, "/* callprof: the data of one flame graph, read by static/flame.js and "
		      "static/tree.js. */\n"
		      "window.callprofData = {");
	buf_printf(out, "\"version\":%d,\"byCalls\":%d,\"whole\":", FLAME_DATA_VERSION,
		   t->by_calls ? 1 : 0);
	put_u64(out, v->whole);
	buf_puts(out, ",\"total\":");
	put_u64(out, t->total);
	if (v->base) {
		buf_puts(out, ",\"baseWhole\":");
		put_u64(out, v->base_whole);
		buf_puts(out, ",\"floor\":");
		put_u64(out, v->floor);
	}
	buf_puts(out, ",\n");
	put_functions(out, v, used, nused);
	put_array(out, v, order, local, depth, "depth", NF_DEPTH);
	buf_puts(out, ",\n");
	put_array(out, v, order, local, depth, "fn", NF_FN);
	buf_puts(out, ",\n");
	put_array(out, v, order, local, depth, "weight", NF_WEIGHT);
	buf_puts(out, ",\n");
	put_array(out, v, order, local, depth, "self", NF_SELF);
	buf_puts(out, ",\n");
	put_array(out, v, order, local, depth, "calls", NF_CALLS);
	if (v->tree_page && v->p->has_cpu && !t->by_calls) {
		buf_puts(out, ",\n");
		put_array(out, v, order, local, depth, "cpu", NF_CPU);
	}
	if (has_estimates(t)) {
		buf_puts(out, ",\n");
		put_array(out, v, order, local, depth, "se", NF_SE);
	}
	if (v->base) {
		buf_puts(out, ",\n");
		put_array(out, v, order, local, depth, "base", NF_BASE);
	}
	buf_puts(out, "};\n");
	free(used);
	free(local);
	free(depth);
	free(order);
	free(pos);
}
