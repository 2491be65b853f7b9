/* dup.h: a static inline helper every file that includes it gets a copy of (issue 16, item 20). */
/* Kept out of line, and no warning in a file that does not call it. */
__attribute__((noinline, unused)) static int helper(int x)
{
	return x * 3 + 1;
}

int run_a(int n);
int run_b(int n);
int run_c(int n);
