/* rank.c: the most frequent words, collected through a callback and sorted with qsort. */
#include <stdlib.h>
#include <string.h>

#include "demo.h"

struct collector {
	struct ranked *items;
	size_t n, cap;
};

static void collect(const char *word, unsigned count, void *arg)
{
	struct collector *c = arg;
	if (c->n < c->cap) {
		c->items[c->n].word = word;
		c->items[c->n].count = count;
		c->n++;
	}
}

/* qsort's callback: by count descending, then by word. */
static int by_count(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->word, y->word);
}

size_t rank_top(const struct word_table *t, struct ranked *out, size_t max)
{
	struct collector c = { malloc(words_distinct(t) * sizeof(struct ranked)), 0, words_distinct(t) };
	size_t n;

	if (!c.items)
		return 0;
	words_each(t, collect, &c);
	qsort(c.items, c.n, sizeof(c.items[0]), by_count);
	n = c.n < max ? c.n : max;
	memcpy(out, c.items, n * sizeof(*out));
	free(c.items);
	return n;
}
