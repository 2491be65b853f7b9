/* test_flame_diff.c: a differential flame graph's base weights, path by path (report/flame_diff.c). */
#include <stdlib.h>

#include "check.h"
#include "flame.h"

/* tree: a ptree over n nodes {parent, fn, incl_ns} (only what flame_diff_base reads). */
static struct ptree tree(struct pnode *nodes, size_t n)
{
	struct ptree t;

	memset(&t, 0, sizeof(t));
	t.n = n;
	t.nodes = nodes;
	return t;
}

void test_flame_diff_follows_paths(void)
{
	/* base: main -> parse -> lex, main -> gone; new: main -> parse -> lex, main -> parse -> added,
	 * main -> lex (lex elsewhere: another path).  Functions: base 0 main, 1 parse, 2 lex, 3 gone;
	 * new 0 lex, 1 main, 2 parse, 3 added (the diff numbers them main 0, parse 1, lex 2, gone 3,
	 * added 4). */
	struct pnode b[] = { { -1, 0, 1, 100, 0, 0, 0, 1, 0 },
			     { 0, 1, 1, 60, 0, 0, 0, 1, 0 },
			     { 1, 2, 1, 30, 0, 0, 0, 1, 0 },
			     { 0, 3, 1, 20, 0, 0, 0, 1, 0 } };
	struct pnode n[] = { { -1, 1, 1, 150, 0, 0, 0, 1, 0 },
			     { 0, 2, 1, 90, 0, 0, 0, 1, 0 },
			     { 1, 0, 1, 45, 0, 0, 0, 1, 0 },
			     { 1, 3, 1, 10, 0, 0, 0, 1, 0 },
			     { 0, 0, 1, 5, 0, 0, 0, 1, 0 } };
	uint32_t base_map[] = { 0, 1, 2, 3 }, new_map[] = { 2, 0, 1, 4 };
	uint32_t *const fmap[2] = { base_map, new_map };
	struct ptree bt = tree(b, 4), nt = tree(n, 5);
	struct flame_gone gone;
	uint64_t *w = flame_diff_base(&bt, &nt, fmap, &gone);

	CHECK_EQ_U64(w[0], 100);           /* main */
	CHECK_EQ_U64(w[1], 60);            /* main -> parse */
	CHECK_EQ_U64(w[2], 30);            /* main -> parse -> lex */
	CHECK_EQ_U64(w[3], FLAME_NO_BASE); /* main -> parse -> added: new */
	CHECK_EQ_U64(w[4], FLAME_NO_BASE); /* main -> lex: a path the base never took */
	CHECK_EQ_U64(gone.paths, 1);       /* main -> gone */
	CHECK_EQ_U64(gone.weight, 20);
	free(w);
}

void test_flame_diff_unmatched_parent(void)
{
	/* Below a path the base lacks, nothing matches, even a function the base has. */
	struct pnode b[] = { { -1, 0, 1, 10, 0, 0, 0, 1, 0 }, { 0, 1, 1, 4, 0, 0, 0, 1, 0 } };
	struct pnode n[] = { { -1, 0, 1, 10, 0, 0, 0, 1, 0 },
			     { 0, 2, 1, 6, 0, 0, 0, 1, 0 },
			     { 1, 1, 1, 3, 0, 0, 0, 1, 0 } };
	uint32_t base_map[] = { 0, 1 }, new_map[] = { 0, 1, 2 };
	uint32_t *const fmap[2] = { base_map, new_map };
	struct ptree bt = tree(b, 2), nt = tree(n, 3);
	struct flame_gone gone;
	uint64_t *w = flame_diff_base(&bt, &nt, fmap, &gone);

	CHECK_EQ_U64(w[0], 10);
	CHECK_EQ_U64(w[1], FLAME_NO_BASE);
	CHECK_EQ_U64(w[2], FLAME_NO_BASE);
	CHECK_EQ_U64(gone.paths, 1);
	CHECK_EQ_U64(gone.weight, 4);
	free(w);
}
