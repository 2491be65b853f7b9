/*
 * libheavy.c: a library-heavy workload: string handling through libc and
 * malloc/free churn, with little code of its own.  Each round formats a
 * record (snprintf), copies and measures it (strdup, strlen, memcpy, strchr,
 * strcmp), keeps a few allocations alive (malloc, realloc, free) and parses a
 * number back (strtol): 14 library calls made by 4 instrumented functions.
 * Args: ROUNDS.  Prints a checksum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEEP 64

static char *kept[KEEP];

__attribute__((noinline)) static size_t format(char *buf, size_t size, long i)
{
	snprintf(buf, size, "record %ld: key=%08lx value=%ld;", i, (unsigned long)(i * 2654435761u), i % 977);
	return strlen(buf);
}

__attribute__((noinline)) static long parse(const char *s)
{
	const char *v = strchr(s, '=');

	v = v ? strchr(v + 1, '=') : NULL;
	return v ? strtol(v + 1, NULL, 10) : 0;
}

__attribute__((noinline)) static long churn(const char *s, size_t len, long i)
{
	char *copy = strdup(s);
	char *grown = malloc(len + 16);
	long sum;

	memcpy(grown, copy, len + 1);
	grown = realloc(grown, 2 * len + 16);
	sum = strcmp(grown, copy) == 0 ? (long)len : -1;
	free(kept[i % KEEP]);
	kept[i % KEEP] = grown;
	free(copy);
	return sum;
}

__attribute__((noinline)) static long one_round(long i)
{
	char buf[128];
	size_t len = format(buf, sizeof(buf), i);

	return churn(buf, len, i) + parse(buf);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, sum = 0;

	for (long i = 0; i < n; i++)
		sum += one_round(i);
	for (int k = 0; k < KEEP; k++)
		free(kept[k]);
	printf("%ld\n", sum);
	return 0;
}
