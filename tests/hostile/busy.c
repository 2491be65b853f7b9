/* busy.c: uninstrumented work for selftime.c, built without -finstrument-functions. */
#include <unistd.h>

void busy_spin(long n);
void busy_sleep(void);

/* Every function writes here, so no call is elided as useless. */
static volatile long sink;

void busy_spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

void busy_sleep(void)
{
	usleep(20000);
}
