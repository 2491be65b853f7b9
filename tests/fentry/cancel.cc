/*
 * cancel.cc: pthread_cancel and pthread_exit unwind threads through hijacked
 * frames, each holding a guard whose destructor must run: 5 on each thread.
 * The forced unwinding glibc starts reaches no interposable function; only
 * the trampoline's personality routine can give the unwinder the real return
 * addresses.  Prints the destructors run and exits 0 when all 10 ran.
 */
#include <pthread.h>
#include <unistd.h>

#include <cstdio>

#include "e2e.h"

static int dtors;

struct guard {
	~guard() { __atomic_fetch_add(&dtors, 1, __ATOMIC_RELAXED); }
};

static volatile int started;

NOINLINE static void blocker(int n)
{
	guard g;

	if (n == 0) {
		started = 1;
		for (;;)
			pause();
	}
	blocker(n - 1);
}

NOINLINE static void exiter(int n)
{
	guard g;

	if (n == 0)
		pthread_exit(nullptr);
	exiter(n - 1);
}

NOINLINE static void *cancelled(void *)
{
	guard g;

	blocker(3);
	return nullptr;
}

NOINLINE static void *exiting(void *)
{
	guard g;

	exiter(3);
	return nullptr;
}

int main()
{
	pthread_t a, b;

	if (pthread_create(&a, nullptr, cancelled, nullptr) != 0)
		return 2;
	while (!started)
		usleep(1000);
	pthread_cancel(a);
	pthread_join(a, nullptr);
	if (pthread_create(&b, nullptr, exiting, nullptr) != 0)
		return 2;
	pthread_join(b, nullptr);
	std::printf("destructors %d\n", dtors);
	return dtors != 10;
}
