/*
 * selftime.c: time spent in uninstrumented callees (busy.c, and usleep) stays
 * in the instrumented caller's self time.  spinner and sleeper spend nearly
 * all their time there, calling one tiny instrumented function each; main
 * spends nearly none of its own.
 */
#include <unistd.h>

#include "e2e.h"

void busy_spin(long n);
void busy_sleep(void);

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void tiny(void)
{
	sink++;
}

NOINLINE static void spinner(void)
{
	busy_spin(20 * 1000 * 1000);
	tiny();
}

NOINLINE static void sleeper(void)
{
	usleep(20000);
	busy_sleep();
	tiny();
}

int main(void)
{
	spinner();
	sleeper();
	return 0;
}
