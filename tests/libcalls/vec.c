/*
 * vec.c, built with -mavx: vector arguments and results survive the library
 * probe, on a thread's very first probe too (its slow path runs libc code
 * that may clear the upper halves of the ymm registers).  liblcvec.so takes
 * and returns __m256d, in ymm0.  A thread started uninstrumented makes the
 * library call its first probed call.  Prints "sum 10 twice 20" twice.
 */
#include <pthread.h>
#include <stdio.h>

#include "e2e.h"

/* __m256d, without the intrinsics' header: Clang instruments its inline
 * functions even inside an uninstrumented one. */
typedef double v4d __attribute__((vector_size(32)));

double vsum(v4d v);
v4d vtwice(v4d v);

__attribute__((no_instrument_function)) static void *check(void *arg)
{
	v4d v = { 1.0, 2.0, 3.0, 4.0 };
	double s = vsum(v);
	v4d t = vtwice(v);

	printf("sum %g twice %g\n", s, t[0] + t[1] + t[2] + t[3]);
	return arg;
}

int main(void)
{
	pthread_t th;

	pthread_create(&th, NULL, check, NULL);
	pthread_join(th, NULL);
	check(NULL);
	return 0;
}
