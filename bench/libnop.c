/* libnop.c: the uninstrumented library bench/libcost.c calls: one function doing next to nothing. */
int lc_nop(int x);

int lc_nop(int x)
{
	__asm__ __volatile__("" : "+r"(x));
	return x + 1;
}
