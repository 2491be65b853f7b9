/*
 * dlmany.c: `dlmany LIB` loads LIB (instrumented), calls its call_all, which
 * calls each of its functions once, and unloads it; prints how long the
 * dlclose took (ms).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	void (*call_all)(void);
	long long t0;
	void *h;

	if (argc < 2 || !(h = dlopen(argv[1], RTLD_NOW)))
		return 1;
	*(void **)&call_all = dlsym(h, "call_all");
	if (!call_all)
		return 1;
	call_all();
	t0 = now_ms();
	if (dlclose(h) != 0)
		return 2;
	printf("dlclose_ms %lld\n", now_ms() - t0);
	return 0;
}
