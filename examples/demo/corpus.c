/* corpus.c: a deterministic text from a small vocabulary, with a skewed word frequency. */
#include <stdlib.h>
#include <string.h>

#include "demo.h"

static const char *const vocabulary[] = {
	"the", "profile", "shows", "where", "time", "goes", "call", "by", "tree", "function",
	"stack", "frame", "cache", "miss", "branch", "loop", "hot", "path", "child", "parent",
	"inclusive", "self", "edge", "node", "thread", "sample", "exact", "count", "probe", "cost",
};

static uint32_t next_random(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/* Skewed: low indices much more often, like real text. */
static const char *pick_word(uint32_t *state)
{
	uint32_t r = next_random(state) % 1000;
	size_t n = sizeof(vocabulary) / sizeof(vocabulary[0]);
	return vocabulary[(r * r / 1000) % n];
}

char *corpus_generate(size_t words, uint32_t seed)
{
	char *text = malloc(words * 12 + 1);
	size_t len = 0;
	uint32_t state = seed ? seed : 1;

	if (!text)
		return NULL;
	for (size_t i = 0; i < words; i++) {
		const char *w = pick_word(&state);
		size_t n = strlen(w);
		memcpy(text + len, w, n);
		len += n;
		text[len++] = (i % 17 == 16) ? '\n' : ' ';
	}
	text[len] = '\0';
	return text;
}
