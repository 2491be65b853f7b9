/* demo.h: a small word-statistics and expression program that callprof's demo profiles. */
#ifndef DEMO_H
#define DEMO_H

#include <stddef.h>
#include <stdint.h>

/* corpus.c: a deterministic pseudo-random text. */
char *corpus_generate(size_t words, uint32_t seed);

/* words.c: a word-count hash table. */
struct word_table;
struct word_table *words_new(size_t slots);
void words_add(struct word_table *t, const char *word, size_t len);
void words_count_text(struct word_table *t, const char *text);
size_t words_distinct(const struct word_table *t);
/* Calls visit(word, count, arg) for each word. */
void words_each(const struct word_table *t, void (*visit)(const char *, unsigned, void *), void *arg);
void words_free(struct word_table *t);

/* rank.c: the most frequent words, sorted with qsort. */
struct ranked {
	const char *word;
	unsigned count;
};
size_t rank_top(const struct word_table *t, struct ranked *out, size_t max);

/* expr.c: a recursive-descent evaluator of arithmetic expressions. */
long expr_eval(const char *text);

#endif
