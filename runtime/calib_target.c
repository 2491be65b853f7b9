/* calib_target.c: the runtime's one instrumented file: what calibration drives the probes through. */
#include "calib.h"

/*
 * A leaf as small as real ones get: it takes a value and returns one that the
 * loop carries, so like any function with an argument it must keep that value
 * alive across its enter probe.  An empty leaf would measure a cheaper probe
 * than real code pays.  Not inlined.
 */
__attribute__((noinline)) uint64_t calib_leaf(uint64_t x);
__attribute__((noinline)) uint64_t calib_leaf(uint64_t x)
{
	__asm__ __volatile__("" : "+r"(x));
	return x + 1;
}

uint64_t calib_loop(uint32_t n, uint64_t x)
{
	for (uint32_t i = 0; i < n; i++)
		x = calib_leaf(x);
	return x;
}

/* A leaf that works (see CALIB_WORK), for the fenced reads' costs. */
__attribute__((noinline)) uint64_t calib_leaf_work(uint64_t x);
__attribute__((noinline)) uint64_t calib_leaf_work(uint64_t x)
{
	CALIB_WORK(x);
	return x;
}

uint64_t calib_loop_work(uint32_t n, uint64_t x)
{
	for (uint32_t i = 0; i < n; i++)
		x = calib_leaf_work(x);
	return x;
}

/* The library probes' cost: a call through a stub (calib_lib_call points at
 * one), as an instrumented module calls a library function through its GOT. */
uint64_t (*calib_lib_call)(uint64_t x);

uint64_t calib_loop_lib(uint32_t n, uint64_t x)
{
	for (uint32_t i = 0; i < n; i++)
		x = calib_lib_call(x);
	return x;
}
