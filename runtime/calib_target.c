/* calib_target.c: the runtime's one instrumented file: what calibration drives the probes through. */
#include "calib.h"

/* Empty, not inlined: its measured interval is the probes' own cost. */
__attribute__((noinline)) void calib_leaf(void);
__attribute__((noinline)) void calib_leaf(void)
{
	__asm__ __volatile__("");
}

void calib_loop(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		calib_leaf();
}
