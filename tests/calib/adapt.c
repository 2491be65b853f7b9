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
	return 0;
}
