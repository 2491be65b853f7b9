/* static_jmp.c: linked with -static: a longjmp out of deep(3), 4 calls deep, then one more
 * call of deep(0) from main.  Calls: main 1, deep 5; prints "back". */
#include <setjmp.h>
#include <stdio.h>

#include "e2e.h"

static jmp_buf jb;

NOINLINE static void deep(int n)
{
	if (n == 0)
		longjmp(jb, 1);
	deep(n - 1);
}

int main(void)
{
	if (!setjmp(jb))
		deep(3);
	if (!setjmp(jb))
		deep(0);
	printf("back\n");
	return 0;
}
