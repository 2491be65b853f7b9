/* meter.c: main calls a leaf LEAF_CALLS times: with every call metered
 * (CALLPROF_METER=1), all but the first (a new call path, the slow path) give
 * a sample (tests/calib/t-calib.sh).  With an argument, it then sleeps that
 * many milliseconds: a run long enough for calibration to be measured again. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LEAF_CALLS 5000

static volatile unsigned sink;

__attribute__((noinline)) static unsigned leaf(unsigned x)
{
	sink += x;
	return x + 1;
}

int main(int argc, char **argv)
{
	unsigned x = 0;

	for (int i = 0; i < LEAF_CALLS; i++)
		x = leaf(x);
	if (argc > 1) {
		long ms = atol(argv[1]);
		struct timespec pause = { ms / 1000, ms % 1000 * 1000000 };

		while (nanosleep(&pause, &pause) != 0)
			;
	}
	printf("%u\n", x);
	return 0;
}
