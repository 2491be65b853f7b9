/* calib_target_fentry.c: the runtime's one -pg -mfentry file: what calibration drives the fentry probes through. */
#include "calib.h"

/* The same leaf and loop as calib_target.c's, probed by __fentry__ and the return trampoline. */
__attribute__((noinline)) uint64_t calib_leaf_fentry(uint64_t x);
__attribute__((noinline)) uint64_t calib_leaf_fentry(uint64_t x)
{
	__asm__ __volatile__("" : "+r"(x));
	return x + 1;
}

uint64_t calib_loop_fentry(uint32_t n, uint64_t x)
{
	for (uint32_t i = 0; i < n; i++)
		x = calib_leaf_fentry(x);
	return x;
}
