/* main.c: the demo: count the words of a generated text, rank them, evaluate some expressions. */
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"

static const char *const expressions[] = {
	"1 + 2 * 3",
	"(4 + 5) * (6 - 7) / 2",
	"((((1 + 1) * 2 + 1) * 2 + 1) * 2 + 1) * 2",
	"-(3 - 10) * (2 + (8 / (1 + 1)))",
};

static long evaluate_all(int rounds)
{
	long sum = 0;
	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < sizeof(expressions) / sizeof(expressions[0]); i++)
			sum += expr_eval(expressions[i]);
	return sum;
}

static void print_top(const struct word_table *t)
{
	struct ranked top[5];
	size_t n = rank_top(t, top, 5);

	for (size_t i = 0; i < n; i++)
		printf("  %-10s %u\n", top[i].word, top[i].count);
}

int main(int argc, char **argv)
{
	size_t words = argc > 1 ? (size_t)atol(argv[1]) : 200000;
	char *text = corpus_generate(words, 42);
	struct word_table *t = words_new(257);

	if (!text || !t)
		return 1;
	words_count_text(t, text);
	printf("%zu words, %zu distinct; most frequent:\n", words, words_distinct(t));
	print_top(t);
	printf("expressions: %ld\n", evaluate_all(2000));
	words_free(t);
	free(text);
	return 0;
}
