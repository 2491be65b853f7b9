/* cov_a.c: with cov_b.c, the program t-coverage.sh profiles.  Without arguments it never calls
 * never_a (this file) and never_b, never_c (cov_b.c); with one argument it calls never_a and
 * never_b.  The calls stand on fixed lines, which the function pages must show. */
#include <stdio.h>

int used(int x);
int never_b(int x);

static int never_a(int x)
{
	return x * 3;
}

int helper(int x)
{
	return x + 1;
}

int main(int argc, char **argv)
{
	int s = 0;

	(void)argv;
	for (int i = 0; i < 3; i++)
		s += used(i);                   /* line 25: main calls used */
	if (argc > 1)
		s += never_a(s) + never_b(s);   /* line 27 */
	printf("%d\n", helper(s));              /* line 28: main calls helper */
	return 0;
}
