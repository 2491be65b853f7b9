/* handoff.c: packed copies of finished threads' profiles, in a process-wide arena (handoff.h). */
#include "handoff.h"

#include <string.h>
#include <sys/mman.h>

#define ARENA_CHUNK_BYTES \
	((size_t)1 << 20) /* the usual chunk; a bigger copy gets one of its size */

/* Every arena chunk starts with this header, so a fork child can unmap the chain. */
struct arena_chunk {
	struct arena_chunk *prev;
	size_t bytes;
};

/* The arena: its newest chunk and that chunk's free space.  Used under the
 * thread registry's lock only. */
static struct arena_chunk *chunks;
static char *arena_next, *arena_end;

static void *arena_alloc(size_t bytes)
{
	void *p;

	bytes = (bytes + 15) & ~(size_t)15;
	if ((size_t)(arena_end - arena_next) < bytes) {
		size_t size = bytes + sizeof(struct arena_chunk) + 16;
		struct arena_chunk *c;
		if (size < ARENA_CHUNK_BYTES)
			size = ARENA_CHUNK_BYTES;
		c = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (c == MAP_FAILED)
			return NULL;
		c->prev = chunks;
		c->bytes = size;
		chunks = c;
		arena_next = (char *)c + ((sizeof(*c) + 15) & ~(size_t)15);
		arena_end = (char *)c + size;
	}
	p = arena_next;
	arena_next += bytes;
	return p;
}

/* The copy of the node `n` of `from`, whose nodes are numbered by dump_id,
 * in `to` (whose nodes are `nodes`). */
static struct cct_node *moved(const struct cct *from, struct cct *to, struct cct_node *nodes,
			      const struct cct_node *n)
{
	if (!n)
		return NULL;
	if (n == &from->root)
		return &to->root;
	if (n == &from->fold_root)
		return &to->fold_root;
	return &nodes[n->dump_id];
}

/* Points the links of `n`, a copy, at the copies; its lookup tables are emptied. */
static void relink(const struct cct *from, struct cct *to, struct cct_node *nodes,
		   struct cct_node *n)
{
	n->parent = moved(from, to, nodes, n->parent);
	n->first_child = moved(from, to, nodes, n->first_child);
	n->next_sibling = moved(from, to, nodes, n->next_sibling);
	memset(n->slot_fn, 0, sizeof(n->slot_fn));
	memset(n->slot_child, 0, sizeof(n->slot_child));
	n->many = 0;
}

/* Packs the tree `from` into `to` (a copy of its struct).  0, or -1 without memory. */
static int copy_tree(const struct cct *from, struct cct *to)
{
	size_t n = 0, k = 0;
	struct cct_node *nodes;

	for (struct cct_node *c = cct_first(from); c; c = cct_next(from, c))
		c->dump_id = (uint32_t)n++;
	if (!(nodes = arena_alloc((n ? n : 1) * sizeof(*nodes))))
		return -1;
	for (const struct cct_node *c = cct_first(from); c; c = cct_next(from, c))
		nodes[k++] = *c;
	for (size_t i = 0; i < n; i++)
		relink(from, to, nodes, &nodes[i]);
	relink(from, to, nodes, &to->root);
	relink(from, to, nodes, &to->fold_root);
	to->chunks = NULL;
	to->chunk_next = to->chunk_end = NULL;
	to->ovf = NULL;
	to->ovf_mask = to->ovf_used = 0;
	to->ovf_shift = 0;
	return 0;
}

/* A copy of `t` and of its signal levels (tstate.h), the thread's own state's being `thread` (NULL: this one). */
static struct tstate *copy_state(const struct tstate *t, struct tstate *thread)
{
	struct tstate *copy = arena_alloc(sizeof(*copy));

	if (!copy)
		return NULL;
	*copy = *t;
	memset(&copy->stack, 0, sizeof(copy->stack));
	copy->stack.depth = 1;
	memset(&copy->ret, 0,
	       sizeof(copy->ret)); /* the thread's, given back with it (its args stay) */
	copy->busy = 1;
	copy->off = true;
	copy->thread = thread ? thread : copy;
	copy->sig = NULL;
	copy->contexts = NULL;
	if (copy_tree(&t->tree, &copy->tree) < 0)
		return NULL; /* what it took of the arena stays: the arena is never given back */
	if (t->sig && !(copy->sig = copy_state(t->sig, copy->thread)))
		return NULL;
	return copy;
}

struct tstate *handoff_copy(const struct tstate *t)
{
	return copy_state(t, NULL);
}

void handoff_forget_all(void)
{
	while (chunks) {
		struct arena_chunk *prev = chunks->prev;
		munmap(chunks, chunks->bytes);
		chunks = prev;
	}
	arena_next = arena_end = NULL;
}
