/* adapt.c: calling contexts tsc-adaptive must settle each way (see tests/calib/t-calib.sh). */
#define NOINLINE __attribute__((noinline))

volatile unsigned long sink;

/* Next to nothing: after its sample it reads plainly. */
NOINLINE void tiny(void);
NOINLINE void tiny(void)
{
	sink++;
}

/* Tens of microseconds of work, far above any probe's cost: fenced throughout. */
NOINLINE void heavy(void);
NOINLINE void heavy(void)
{
	for (unsigned i = 0; i < 20000; i++)
		sink += i;
}

/* Heavy in 2 of its first 16 calls (as if interrupted there), next to nothing
 * in the rest: most of its sample says plain reads. */
NOINLINE void spiky(unsigned call);
NOINLINE void spiky(unsigned call)
{
	if (call == 3 || call == 9)
		for (unsigned i = 0; i < 20000; i++)
			sink += i;
	else
		sink++;
}

/* Next to nothing in 2 of its first 16 calls, heavy work in the rest: most of
 * its sample says fenced reads. */
NOINLINE void mostly(unsigned call);
NOINLINE void mostly(unsigned call)
{
	if (call == 2 || call == 11) {
		sink++;
		return;
	}
	for (unsigned i = 0; i < 20000; i++)
		sink += i;
}

/* Has a callee: reads plainly after its sample, whatever its time. */
NOINLINE void parent(void);
NOINLINE void parent(void)
{
	tiny();
	heavy();
}

int main(void)
{
	for (int i = 0; i < 1000; i++)
		tiny();
	for (int i = 0; i < 100; i++)
		heavy();
	for (int i = 0; i < 100; i++)
		parent();
	for (unsigned i = 0; i < 100; i++)
		spiky(i);
	for (unsigned i = 0; i < 100; i++)
		mostly(i);
	return 0;
}
