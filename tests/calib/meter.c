/* meter.c: main calls a leaf LEAF_CALLS times: with every call metered
 * (CALLPROF_METER=1), all but the first (a new call path, the slow path) give
 * a sample (tests/calib/t-calib.sh). */
#include <stdio.h>

#define LEAF_CALLS 5000

static volatile unsigned sink;

__attribute__((noinline)) static unsigned leaf(unsigned x)
{
	sink += x;
	return x + 1;
}

int main(void)
{
	unsigned x = 0;

	for (int i = 0; i < LEAF_CALLS; i++)
		x = leaf(x);
	printf("%u\n", x);
	return 0;
}
