/* flame_diff.c: for a differential flame graph, each node of the new tree's weight in the base
 * tree: the base node reached by the same call path (functions matched as the diff matches them). */
#include <stdlib.h>
#include <string.h>

#include "flame.h"

/* A hash table from (base parent node + 1, diff function) to a base node; key 0 is empty. */
struct path_map {
	uint64_t *keys;
	uint32_t *nodes;
	size_t mask;
};

static uint64_t path_key(int64_t parent, uint32_t dfn)
{
	return ((uint64_t)(parent + 1) << 32 | dfn) + 1; /* never 0 */
}

static size_t path_slot(const struct path_map *m, uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ (h >> 29)) & m->mask;
}

static void path_put(struct path_map *m, uint64_t key, uint32_t node)
{
	size_t s = path_slot(m, key);

	while (m->keys[s] && m->keys[s] != key)
		s = (s + 1) & m->mask;
	if (!m->keys[s]) /* two base nodes on one path (a merged tree never has them): keep the first */
		m->keys[s] = key, m->nodes[s] = node;
}

static int64_t path_get(const struct path_map *m, uint64_t key)
{
	for (size_t s = path_slot(m, key); m->keys[s]; s = (s + 1) & m->mask)
		if (m->keys[s] == key)
			return m->nodes[s];
	return -1;
}

/* count_gone: the base nodes no new node matched whose parent one did (or roots). */
static void count_gone(const struct ptree *bt, const unsigned char *seen, struct flame_gone *gone)
{
	gone->paths = 0;
	gone->weight = 0;
	for (size_t i = 0; i < bt->n; i++) {
		int32_t parent = bt->nodes[i].parent;

		if (seen[i] || (parent >= 0 && !seen[parent]))
			continue;
		gone->paths++;
		gone->weight = u64_add(gone->weight, ptree_weight(bt, i));
	}
}

uint64_t *flame_diff_base(const struct ptree *bt, const struct ptree *nt, uint32_t *const fmap[2],
			  struct flame_gone *gone)
{
	unsigned char *seen = xcalloc(bt->n + 1, 1);
	uint64_t *base = xmalloc((nt->n + 1) * sizeof(*base));
	int64_t *match = xmalloc((nt->n + 1) * sizeof(*match));
	struct path_map m;
	size_t size = 16;

	while (size < 2 * bt->n + 2)
		size *= 2;
	m.keys = xcalloc(size, sizeof(*m.keys));
	m.nodes = xmalloc(size * sizeof(*m.nodes));
	m.mask = size - 1;
	for (size_t i = 0; i < bt->n; i++)
		path_put(&m, path_key(bt->nodes[i].parent, fmap[0][bt->nodes[i].fn]), (uint32_t)i);
	/* Parents come before their children, so a parent's match is known when its child's is looked up. */
	for (size_t i = 0; i < nt->n; i++) {
		int32_t parent = nt->nodes[i].parent;
		int64_t bparent = parent < 0 ? -1 : match[parent];

		match[i] = parent >= 0 && bparent < 0
				   ? -1
				   : path_get(&m, path_key(bparent, fmap[1][nt->nodes[i].fn]));
		base[i] = match[i] < 0 ? FLAME_NO_BASE : ptree_weight(bt, (size_t)match[i]);
		if (match[i] >= 0)
			seen[match[i]] = 1;
	}
	count_gone(bt, seen, gone);
	free(seen);
	free(m.keys);
	free(m.nodes);
	free(match);
	return base;
}
