/* words.c: counting words in a chained hash table: the demo's hot loop. */
#include <stdlib.h>
#include <string.h>

#include "demo.h"

struct entry {
	struct entry *next;
	unsigned count;
	char word[24];
};

struct word_table {
	struct entry **slots;
	size_t nslots, distinct;
};

static uint32_t hash_word(const char *w, size_t len)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)w[i]) * 16777619u;
	return h;
}

static int is_word_char(char c)
{
	return c >= 'a' && c <= 'z';
}

struct word_table *words_new(size_t slots)
{
	struct word_table *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->slots = calloc(slots, sizeof(*t->slots));
	t->nslots = slots;
	return t;
}

void words_add(struct word_table *t, const char *word, size_t len)
{
	size_t i = hash_word(word, len) % t->nslots;
	struct entry *e;

	if (len >= sizeof(e->word))
		len = sizeof(e->word) - 1;
	for (e = t->slots[i]; e; e = e->next)
		if (strlen(e->word) == len && !memcmp(e->word, word, len)) {
			e->count++;
			return;
		}
	e = calloc(1, sizeof(*e));
	memcpy(e->word, word, len);
	e->count = 1;
	e->next = t->slots[i];
	t->slots[i] = e;
	t->distinct++;
}

void words_count_text(struct word_table *t, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *start;
		while (*p && !is_word_char(*p))
			p++;
		start = p;
		while (is_word_char(*p))
			p++;
		if (p > start)
			words_add(t, start, (size_t)(p - start));
	}
}

size_t words_distinct(const struct word_table *t)
{
	return t->distinct;
}

void words_each(const struct word_table *t, void (*visit)(const char *, unsigned, void *), void *arg)
{
	for (size_t i = 0; i < t->nslots; i++)
		for (struct entry *e = t->slots[i]; e; e = e->next)
			visit(e->word, e->count, arg);
}

void words_free(struct word_table *t)
{
	for (size_t i = 0; i < t->nslots; i++) {
		struct entry *e = t->slots[i];
		while (e) {
			struct entry *next = e->next;
			free(e);
			e = next;
		}
	}
	free(t->slots);
	free(t);
}
