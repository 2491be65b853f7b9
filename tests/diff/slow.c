/* slow.c: the program t-diff.sh builds twice: with -DSLOW, target() spins 50 times longer and
 * small() 300 times longer (a big relative change of a tiny absolute time: noise for the gate).
 * steady() is 40 times target()'s fast work, so main() grows about 2.2 times while target()
 * grows about 50: t-diff.sh sets its gates at half and twice target()'s measured growth, which
 * timing noise on a loaded machine moves, and main() stays far under the lower one.  A
 * preemption adds whole milliseconds to whichever function it lands in, so the program prints
 * how often the scheduler preempted it while main() ran, and the test runs it again until
 * that is never. */
#include <stdio.h>
#include <sys/resource.h>

#ifdef SLOW
#define TARGET_SPINS 50000000UL
#define SMALL_SPINS 300000UL
#else
#define TARGET_SPINS 1000000UL
#define SMALL_SPINS 1000UL
#endif

static volatile unsigned long sink;

__attribute__((noinline)) void target(void)
{
	for (unsigned long i = 0; i < TARGET_SPINS; i++)
		sink += i;
}

__attribute__((noinline)) void steady(void)
{
	for (unsigned long i = 0; i < 40000000UL; i++)
		sink += i;
}

__attribute__((noinline)) void small(void)
{
	for (unsigned long i = 0; i < SMALL_SPINS; i++)
		sink += i;
}

__attribute__((noinline)) int tiny(int x)
{
	return x + 1;
}

/* The involuntary context switches of the process so far (not profiled: no function of
 * the comparison). */
__attribute__((no_instrument_function)) static long preemptions(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_nivcsw : -1;
}

int main(void)
{
	long before = preemptions();
	int n = 0;

	steady();
	target();
	small();
	for (int i = 0; i < 1000; i++)
		n = tiny(n);
	printf("%d\npreempted %ld\n", n, preemptions() - before);
	return 0;
}
