/* copies.h: one static helper that every file including it gets a copy of (issue 16, item 20):
 * same name, same source file, one copy per translation unit. */
#ifndef COPIES_H
#define COPIES_H

__attribute__((noinline)) static int helper(int x)
{
	return x * 3 + 1;
}

int run_a(int n);
int run_b(int n);

#endif
