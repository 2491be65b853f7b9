/* export_folded.c: folded stacks ("main;parse;lex 1234"), as FlameGraph's flamegraph.pl and inferno
 * read them: one line per call path of the profile (all threads merged) with its self time. */
#include <stdlib.h>
#include <string.h>

#include "export.h"

/*
 * put_frame appends a frame's name as the folded format allows: ';' separates
 * frames, so a ';' in a name becomes ':' (as FlameGraph's stackcollapse-perf.pl
 * does); a line holds one stack, so control characters become '?'.  The number
 * ending the line is found after the last blank, and a second number before it
 * means a differential line to flamegraph.pl: a name that ends in a blank and
 * digits ("f 2") has that blank replaced with '_'.
 */
static void put_frame(struct buf *out, const char *name)
{
	size_t start = out->len, end, k;

	for (const char *s = name; *s; s++) {
		unsigned char c = (unsigned char)*s;

		buf_putc(out, c == ';' ? ':' : c < 0x20 || c == 0x7f ? '?' : (char)c);
	}
	end = out->len;
	k = end;
	while (k > start &&
	       ((out->data[k - 1] >= '0' && out->data[k - 1] <= '9') || out->data[k - 1] == '.'))
		k--;
	if (k < end && k > start && (out->data[k - 1] == ' ' || out->data[k - 1] == '\t'))
		out->data[k - 1] = '_';
}

/* One node on the walk's stack, with the length of the line before its frame. */
struct fold_step {
	uint32_t node;
	size_t prefix;
};

static int write_folded(const struct export_ctx *x, struct buf *out)
{
	const struct ptree *t = &x->prof->tree;
	struct fold_step *stack = xmalloc((t->n + 1) * sizeof(*stack));
	struct buf line = BUF_INIT;
	size_t depth = 0;

	for (size_t r = t->nroots; r-- > 0;)
		stack[depth++] = (struct fold_step){ t->roots[r], 0 };
	while (depth) {
		struct fold_step s = stack[--depth];
		const struct pnode *n = &t->nodes[s.node];
		uint64_t weight = t->by_calls ? n->calls : n->self_ns;

		line.len = s.prefix;
		if (s.prefix)
			buf_putc(&line, ';');
		put_frame(&line, x->labels[n->fn]);
		if (weight) {
			buf_add(out, line.data, line.len);
			buf_printf(out, " %llu\n", (unsigned long long)weight);
		}
		for (size_t k = t->kid_off[s.node + 1]; k-- > t->kid_off[s.node];)
			stack[depth++] = (struct fold_step){ t->kids[k], line.len };
	}
	buf_release(&line);
	free(stack);
	return 0;
}

const struct export_format export_folded = { "folded", "folded stacks", write_folded };
